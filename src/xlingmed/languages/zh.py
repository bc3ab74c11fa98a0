"""Chinese (zh): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Universal Dependencies Chinese GSD treebank;
Tatoeba/OPUS parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "zh", "Chinese", "中文", "Hans", ("是", "是的", "对", "正确"), ("否", "不是", "不", "不正确", "错误"),
    answer_label="答案",
    rationale_headings=("解释", "解析", "理由", "原因", "分析"),
    answer_phrases=(
        "正确答案是", "正确答案为", "正确答案", "正确选项是", "正确选项为", "答案是", "答案为", "答案", "应选",
        "我选择", "我会选择", "我选", "应选择", "应该选择", "应该选", "最终答案是", "最终答案", "答:",
        "正确的答案是", "正确的选项是",
        # the formula of Chinese exam keys: "故选C。", "故答案为：B"
        "故选", "故答案为", "故答案选",
    ),
    option_words=("选项",),
    option_ordinals=(
        ("第一个选项", "第一项", "第一个答案"),
        ("第二个选项", "第二项", "第二个答案"),
        ("第三个选项", "第三项", "第三个答案"),
        ("第四个选项", "第四项", "第四个答案"),
        ("第五个选项", "第五项", "第五个答案"),
    ),
    conclusion_cues=(
        "因此", "所以", "综上所述", "综上", "总之", "结论", "最可能", "最有可能", "最合适", "最佳答案", "最佳选择",
        "最恰当", "最正确", "故选", "故", "由此可见", "是正确的", "正确。", "为正确",
    ),
    negations_before=("不是", "并非", "而不是", "不选", "排除", "不应选", "不属于", "除了"),
    negations_after=(
        "不正确", "错误", "不对", "不是", "可以排除", "被排除", "排除", "不太可能", "可能性较小", "不符合", "不选",
        "无效", "不成立", "不能选",
    ),
    no_choice_phrases=(
        "没有图片", "没有提供图片", "无法看到图片", "看不到图片", "未提供图片", "缺少图片", "没有图像", "未提供图像",
        "无法确定", "无法判断", "无法回答", "不能确定", "难以确定", "信息不足", "需要更多信息", "作为一个人工智能",
        "作为ai", "作为一个ai", "抱歉,我无法", "抱歉,我不能", "对不起,我无法", "无法从选项中选择", "正确答案不在选项中",
    ),
    none_phrases=("所有选项都不正确", "选项均不正确", "没有正确答案", "没有正确选项", "选项都不对", "没有一个选项正确"),
    refusal_phrases=(
        "抱歉，我无法", "对不起，我无法", "对不起，我不能", "抱歉，我不能", "我无法提供医疗建议", "我不能提供医疗建议",
        "我无法回答这个问题", "作为一个人工智能，我不能", "作为ai，我不能", "我不能提供医疗诊断", "我无法提供诊断",
    ),
    term_words=(
        "维生素", "维他命", "型", "组", "类", "期", "级", "因子", "患者", "病人", "病例", "图", "表", "乙型",
        "甲型",
    ),
    term_suffixes=(
        "型", "超", "族", "组", "类", "期", "级", "因子", "细胞", "链球菌", "群", "抗原", "波", "肝炎", "病毒",
    ),
    reference_headings=("参考文献", "参考资料", "参考来源", "资料来源", "引用"),
    field_words=("置信度", "问题"),
    # an answer phrase after one of these in its clause is someone else's or a supposition
    reported_words=(
        "如果", "假如", "假设", "若", "认为", "声称", "提示",
    ),
)
