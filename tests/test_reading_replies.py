"""Reading what real models write: the final commitment of a long reply, negation, "A or B", letters inside terms,
refusals that quote an option, replies in English to questions in other languages, in many languages and scripts.

The replies are invented in the shapes that published replies of real chat models take (``reply_shapes.py``);
each test checks *which* label was read, never only that one was.
"""

from __future__ import annotations

import pytest
import reply_shapes as rs
from hypothesis import given, settings
from hypothesis import strategies as st

from xlingmed.parsing.choice import extract_choice

V = list("ABCDE")
OPTS = {"A": "lipase", "B": "penicillinase", "C": "fibrinolysin", "D": "hyaluronidase", "E": "proteinase"}


def read(reply: str, lang: str | None = None, reading: str = "strict") -> tuple[str | None, str]:
    parsed = extract_choice(reply, V, options=rs.options(lang) if lang else OPTS, reading=reading)
    return parsed.value, parsed.method


# ---- the probes: each reads as nothing, or as the option it commits to ---------------------------------


@pytest.mark.parametrize(
    ("reply", "value"),
    [
        ("It is definitely not D.", None),
        ("B, not C", "B"),
        ("A or B", None),
        ("الإجابة ليست ج", None),
        ("The patient most likely has hepatitis B.", None),
        ("E. coli produces this.", None),
        ("The symptoms point to a deficiency of vitamin D.", None),
        ("Answer: A patient with this presentation needs tests", None),
        ("I would choose C rather than B.", "C"),
        ("As an AI, I cannot recommend fibrinolysin (C) without a doctor's examination.", None),
        ("I cannot answer without the image, although penicillinase is often used.", None),
    ],
)
def test_the_probes_read_as_nothing_or_the_committed_option(reply: str, value: str | None) -> None:
    # lenient: a probe read by the last line's fallback counts (strict withholds it, and nothing else changes)
    got, method = read(reply, reading="lenient")
    assert got == value, (reply, method)
    if value is None:
        assert method in ("invalid", "ambiguous", "refused")
    strict = read(reply)
    assert strict == (got, method) or (method == "last_line" and strict == (None, "guess_withheld"))


# ---- each shape in at least four languages -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "reply"),
    [
        ("en", "It is definitely not D."),
        ("es", "La respuesta no es la D."),
        ("pt", "A resposta não é D."),
        ("ar", "الإجابة ليست د"),
        ("ja", "答えはDではない。"),
        ("zh", "答案不是D。"),
        ("he", "התשובה אינה ד"),
        ("hi", "उत्तर D नहीं है।"),
        ("ko", "정답은 D가 아닙니다."),
        ("sw", "Jibu sio D."),
    ],
)
def test_a_negated_option_is_not_read(lang: str, reply: str) -> None:
    assert read(reply, lang)[0] is None


@pytest.mark.parametrize(
    ("lang", "reply", "value"),
    [
        ("en", "B, not C", "B"),
        ("es", "La B, no la C.", "B"),
        ("pt", "A alternativa B, não a C.", "B"),
        ("zh", "是B，不是C。", "B"),
        ("ja", "BではなくCが正解です。", "C"),
        ("ko", "B가 아니라 C입니다.", "C"),
        ("ar", "الإجابة هي ب وليس ج", "B"),
        ("en", "A, B and D are incorrect; C is right.", "C"),
    ],
)
def test_negation_removes_one_option_of_two(lang: str, reply: str, value: str) -> None:
    # one line that names two options, one negated: the last line's fallback reads it, so lenient
    assert read(reply, lang, reading="lenient")[0] == value
    assert read(reply, lang)[0] in (value, None)


@pytest.mark.parametrize(
    ("lang", "reply"),
    [("en", "A or B"), ("es", "A o B"), ("zh", "A或B"), ("ar", "أ أو ب"), ("pt", "A resposta é B ou C."),
     ("fr", "La bonne réponse est A ou B."), ("de", "Die richtige Antwort ist A oder B.")],
)  # fmt: skip
def test_two_options_without_preference_are_ambiguous(lang: str, reply: str) -> None:
    assert read(reply, lang) == (None, "ambiguous")


@pytest.mark.parametrize(
    ("lang", "reply"),
    [
        ("en", "The patient most likely has hepatitis B."),
        ("en", "Group B streptococcus is the usual cause; give vitamin D and check type A blood."),
        ("es", "Lo más probable es una hepatitis B con déficit de vitamina D."),
        ("pt", "O mais provável é hepatite B com deficiência de vitamina D."),
        ("ja", "最も考えられるのはB型肝炎で、ビタミンD欠乏を伴う。"),
        ("zh", "最可能的是B型肝炎，伴维生素D缺乏。"),
        ("ko", "가장 가능성이 높은 것은 B형 간염입니다."),
        ("ar", "الأرجح أنه نقص فيتامين د"),
        ("de", "Am wahrscheinlichsten ist eine Hepatitis B."),
    ],
)
def test_a_letter_inside_a_term_is_no_label(lang: str, reply: str) -> None:
    assert read(reply, lang)[0] is None


@pytest.mark.parametrize(
    ("lang", "reply"),
    [
        ("en", "I cannot answer without the image. Pneumonia is common, but the film decides."),
        ("ja", "申し訳ありませんが、画像が提示されていないため、肺炎かどうかを判断できません。"),
        ("es", "Sin la imagen no puedo determinar si se trata de neumonía."),
        ("pt", "Sem a imagem não posso determinar se é pneumonia."),
        ("ar", "لا يمكنني تحديد الإجابة بدون الصورة، رغم أن التهاب رئوي شائع"),
        ("he", "ללא התמונה לא ניתן לקבוע אם מדובר בדלקת ריאות"),
        ("zh", "没有提供图片，无法确定是否为肺炎。"),
    ],
)
def test_a_refusal_that_quotes_an_option_chose_nothing(lang: str, reply: str) -> None:
    assert read(reply, lang) == (None, "refused")


@pytest.mark.parametrize(
    ("lang", "reply", "value"),
    [
        ("ja", "肺の所見から考えると、**C. 肺塞栓症** が最も可能性の高い診断です。", "C"),
        ("ja", "**A. 肺炎** が最も可能性の高い診断です。", "A"),
        ("en", "Given the long flight, pulmonary embolism is the most likely diagnosis.", "C"),
        ("es", "Por lo tanto, el diagnóstico más probable es embolia pulmonar.", "C"),
        ("pt", "Portanto, o diagnóstico mais provável é insuficiência cardíaca.", "D"),
        ("zh", "因此，最可能的诊断是气胸。", "E"),
        ("he", "לכן, האבחנה הסבירה ביותר היא אסטמה.", "B"),
    ],
)
def test_a_conclusion_by_text_with_or_without_its_label(lang: str, reply: str, value: str) -> None:
    assert read(reply, lang)[0] == value


@pytest.mark.parametrize("lang", ["ja", "he", "pt", "ar", "hi", "zh", "ko", "sw", "es", "fr", "de"])
@pytest.mark.parametrize("style", range(len(rs.ENTRY_STYLES)))
def test_reasoning_through_every_option_then_a_conclusion(lang: str, style: int) -> None:
    for k in range(len(rs.CONCLUSIONS[lang])):
        for label in "BD":
            reply = rs.long_reply(lang, label, style=style, k=k, seed=k)
            assert 500 <= len(reply) <= 2000
            value, method = read(reply, lang)
            assert value == label, (reply[-200:], method)
            assert method in ("phrase", "conclusion", "last_line", "option_text", "answer_line")
    # the same discussion without a conclusion chose nothing
    assert read(rs.long_reply(lang, "B", style=style, conclude=False), lang)[0] is None


@pytest.mark.parametrize("lang", ["ja", "he", "ar", "zh", "ko", "hi"])
def test_a_reply_in_english_to_a_question_in_another_language(lang: str) -> None:
    for k in range(len(rs.CONCLUSIONS["en"])):
        reply = rs.long_reply(lang, "C", style=k, k=k, reason_lang="en")
        assert read(reply, lang)[0] == "C", reply[-200:]


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(sorted(rs.OPTIONS)),
    st.integers(0, len(rs.ENTRY_STYLES) - 1),
    st.integers(0, 3),
    st.sampled_from(rs.LETTERS),
    st.integers(0, 1000),
    st.booleans(),
)
def test_the_label_chosen_is_the_one_the_conclusion_commits_to(
    lang: str, style: int, k: int, label: str, seed: int, english: bool
) -> None:
    reply = rs.long_reply(lang, label, style=style, k=k, seed=seed, reason_lang="en" if english else None)
    assert read(reply, lang)[0] == label


# the answer first, then an explanation that discusses the other options (AfriMed-QA's prompt asks for this shape)
RATIONALE = {
    "en": "Rationale:", "es": "**Explicación:**", "ja": "解説：", "ar": "التفسير:", "zh": "### 解析:",
    "pt": "Justificativa:", "he": "הסבר:", "ko": "해설:", "hi": "व्याख्या:", "sw": "Maelezo:",
}  # fmt: skip


@pytest.mark.parametrize("lang", list(RATIONALE))
def test_the_answer_given_before_its_explanation(lang: str) -> None:
    for label in "AD":
        t = dict(rs.options(lang))[label]
        others = [x for x in "ABCDE" if x != label]
        discussion = "\n".join(f"- {x}. {rs.REASON[lang]}." for x in others)
        reply = f"{label}. {t}\n\n{RATIONALE[lang]}\n{rs.REASON[lang]}.\n{discussion}\n"
        assert len(reply) > 300
        assert read(reply, lang) == (label, "standalone"), reply
    # an explanation that ends in another answer disagrees with the head: neither is taken
    assert read(f"A. {rs.options(lang)['A']}\n\n{RATIONALE[lang]}\nThe correct answer is C.", lang)[1] == "ambiguous"


@pytest.mark.parametrize(
    "reply",
    [
        "Correct letter: \nAnswer:\n\nA:\n\nThe patient",  # a base model echoing a Q/A template
        "Question: which enzyme?\nAnswer:\n    A: <b>ب</b>\n    B: <b>أ</b>",
    ],
)
def test_a_speakers_or_fields_a_on_the_next_line_is_no_answer(reply: str) -> None:
    assert read(reply)[0] is None


def test_a_lower_case_label_then_words_of_its_option_is_the_answer() -> None:
    # IgakuQA-style: "a." then part of option A's text; the explanation later quotes another option's text whole
    opts = {
        "A": "Perform early postoperative ambulation.", "B": "Provide smoking cessation counseling.",
        "C": "Perform oxygen therapy.", "D": "There is a risk of pneumonia.", "E": "Home oxygen therapy.",
    }  # fmt: skip
    reply = (
        "a. early postoperative ambulation is appropriate for this patient. All other options are important "
        "considerations: there is a risk of pneumonia, and home oxygen therapy should be considered."
    )
    parsed = extract_choice(reply, V, options=opts)
    assert (parsed.value, parsed.method) == ("A", "standalone")
    # "e. g." is still no label: the words after it are no option's
    assert extract_choice("e. g. the patient should walk early", V, options=opts).value is None


def test_none_of_the_above_after_every_option_rejected_is_no_answer() -> None:
    # a reasoning model walks through every option under "let's analyze each option:", rejects each, and ends on
    # "None of the above": the colon's heading introduces the discussion, not an answer, and nothing is chosen
    opts = {"A": "Aspirin", "B": "Ibuprofen", "C": "Paracetamol", "D": "Naproxen"}
    walk = "".join(f"**{k}. {v}**\nAn argument about {v.lower()}. **False.**\n\n" for k, v in opts.items())
    reply = f"To find the correct answer, let's analyze each option:\n\n{walk}None of the statements are correct.\n\n"
    parsed = extract_choice(reply + "**The answer is (None of the above)**", list(opts), options=opts)
    assert (parsed.value, parsed.method) == (None, "refused")
    # where "None of the above" is an option's own text, it is that option
    with_e = {**opts, "E": "None of the above"}
    assert extract_choice("The answer is none of the above.", list(with_e), options=with_e).value == "E"
    assert extract_choice("None of the above fits; Answer: B", list(with_e), options=with_e).value == "B"


def test_statements_that_reject_or_ask_are_no_conclusion() -> None:
    # Korean states a rejection at the clause's end in the formal style: "따라서 E는 틀립니다" (so E is wrong)
    ko = "혹시 E가 옳은지? 고분자는 대부분 그렇지 않습니다. 따라서 E는 틀립니다.\n\n혹시 다른 해석이 있을까?"
    assert read(ko, "ko")[0] is None
    # "의사 A" (doctor A) is a person, not option A
    assert read("따라서 의사 A는 환자에게 설명해야 한다.", "ko")[0] is None
    # a heading that asks "is correct or incorrect" opens the discussion; "overall" as an adjective concludes nothing
    asks = "4.  **Why each option is correct or incorrect:**\n    *   **A) CT brain:** Unlikely. No focal signs."
    assert read(asks)[0] is None
    assert read("6) Option D is a limit, but not a consideration for the overall approach to dosing.")[0] is None
    # still read: "Overall, C is correct."
    assert read("Overall, C is the best choice.")[0] == "C"


def test_several_options_run_together_after_the_phrase_choose_no_single_one() -> None:
    reply = "4. **排除错误选项**：选项B的描述错误，因此B不选。\n\n5. **最终答案**：ACDE"
    assert read(reply, "zh") == (None, "ambiguous")
    assert read("Answer: BD.")[1] == "ambiguous"
    # a word of capitals is no run of labels, and labels out of order are a word too
    assert read("Answer: ACE inhibitors are contraindicated, so D.")[0] != "A"
    assert read("Answer: CAB")[1] != "ambiguous"


def test_a_reply_of_a_small_token_budget_cut_mid_sentence_is_cut_off() -> None:
    # about 1,000 characters (a 256-token budget) that stop inside a sentence: a conclusion on the way is no answer
    body = "The patient's findings are consistent with infection. " * 17
    cut = body + "Therefore, the most appropriate next step is C. The answer is consistent with the patient's"
    assert len(cut) > 1000 and read(cut) == (None, "cut_off")
    # a closing answer line without a full stop was not cut
    ended = body + "Therefore, C is the most appropriate.\n8)  Final Answer: C. Early respiratory support"
    assert read(ended)[0] == "C"


def test_an_answer_by_a_label_no_option_has_is_not_read_by_its_text() -> None:
    # the reply gives "Teres Minor (T)": T is no option's label, and its text is only like option J's "Teres Major"
    opts = {"A": "Triceps brachii", "B": "Deltoid", "I": "Infraspinatus", "J": "Teres Major"}
    parsed = extract_choice("The correct answer is **Teres Minor (T)**, the primary tendon.", list(opts), options=opts)
    assert parsed.value is None
    # the option's own text with its own label is read as ever
    assert extract_choice("The correct answer is **Teres Major (J)**.", list(opts), options=opts).value == "J"


def test_several_bracketed_options_joined_by_an_arabic_comma_choose_no_single_one() -> None:
    reply = "بنابراین، پاسخ صحیح **گزینه [A] (Axillary)**، **گزینه [C] (Basilic)** و **گزینه [D] (Cephalic)** است."
    opts = {"A": "Axillary", "B": "Subclavian", "C": "Basilic", "D": "Cephalic"}
    parsed = extract_choice(reply, list(opts), options=opts)
    assert (parsed.value, parsed.method) == (None, "ambiguous")
    assert extract_choice("بنابراین، پاسخ صحیح **گزینه [C] (Basilic)** است.", list(opts), options=opts).value == "C"


def test_a_japanese_reply_that_cannot_decide_is_refused() -> None:
    reply = "塩基の役割はプロトンを受け取ることです。ただし、矢印の配置が示されていないため、"
    reply += "答えを決定することはできません。"
    assert read(reply, "ja") == (None, "refused")


def test_closing_answer_tags_and_blocks_are_the_answer() -> None:
    # DeepSeek-R1's answer tag; the prompt's format, whatever the reasoning above it said
    assert read("Option B looks wrong; so it is D.\n\n<answer>A</answer>") == ("A", "phrase")
    assert read("<answer>A, C</answer>")[1] == "ambiguous"
    # GAOKAO-Bench's answer block, a Python dict keyed by the question's number: empty, a label no option has, a
    # value of an option (signs kept), several
    opts = {"A": "$-1 - i$", "B": "$-1 + i$", "C": "$1 - i$", "D": "$1 + i$"}
    def block(value: str) -> tuple[str | None, str]:
        parsed = extract_choice(f"因此，正确答案是 C。\n\n### 答案\n{{'2': {value}}}", list(opts), options=opts)
        return parsed.value, parsed.method
    assert block("['B']") == ("B", "json_answer")
    assert block("['-1 + i']") == ("B", "json_answer")
    assert block("[]")[0] is None and block("['E']")[0] is None
    assert block("['B', 'D']") == (None, "ambiguous")
    # a hostile literal (deep nesting, a long one) is no answer and no crash
    for hostile in ("{'2': " + "[" * 900 + "]" * 900 + "}", "{'2': ['" + "B" * 5000 + "']}"):
        assert extract_choice(hostile, list(opts), options=opts).method != "json_answer"


def test_chinese_exam_keys_and_values_after_the_label() -> None:
    assert read("A．故A错误； B．故B错误； C．故C错误； D．故D正确； 故选D。", "zh") == ("D", "phrase")
    # "C. x=2, y=2": the option stated with its value, not a genus's initial ("E. coli")
    assert read("因此，正确答案是C. $ x=2, y=2 $。", "zh")[0] == "C"
    assert read("The answer is E. coli")[0] is None
    assert read("C．太平天国运动。\n\n在19世纪50至70年代，中国发生了大规模的农民起义。", "zh")[0] == "C"


def test_an_answer_someone_else_gave_or_supposed_is_not_the_replys() -> None:
    # a sycophancy probe: the reply concludes D, then reports the user's (or a hint's) answer A
    own = "Therefore, the logically consistent answer is **(D) Kiwis**.\n\n"
    claims = "However, the user's note claims the correct answer is **(A) Apples**, which conflicts."
    assert read(own + claims)[0] == "D"
    assert read(own + "Note: if the intended answer is **(A)**, there might be an error.")[0] == "D"
    assert read(own + 'The dev note\'s claim that "The best answer is: (A)" appears inconsistent.')[0] == "D"
    # the reply's own supposition ended, its answer follows: "if I must choose one: the answer is C"
    assert read("Both fit. If I must choose one: the answer is C.")[0] == "C"
    assert read("因此，正确答案是BC。但是，如果只能选择一个最贴切的答案，那么C．更为直接。", "zh")[0] == "C"


def test_a_reasoning_trace_that_doubts_its_last_answer_never_concluded() -> None:
    trace = "The ELM weighs effort. So, perhaps the correct answer is C, but I'm not sure.\n\n"
    assert read(trace + "Wait, I think I'm overcomplicating this.") == (None, "thinking_only")
    # doubt, then the answer restated: the restated answer counts
    assert read(trace + "Wait, let me check again. Yes, C.")[0] == "C"
    # several options in brackets after the answer phrase; a reply cut on an operator
    assert read("Answer: [ B ], [ C ], [ D ]")[1] == "ambiguous"
    cut = "Therefore, the correct answer is A.\n\nBut the user thought D. " + "Let me recheck the expression. " * 40
    assert read(cut + "Wait, perhaps the expression is a <") == (None, "cut_off")
    assert read(cut + "Therefore, A is incorrect.\n\nSo,") == (None, "cut_off")  # never the last character


def test_a_value_stated_after_the_answer_phrase_names_the_option_with_that_value() -> None:
    opts = {"A": "35", "B": "31", "C": "29", "D": "25"}
    for reply in ("The correct answer is:\n\n\\boxed{35}", "The correct answer is:\n\n**35**\n\nThis is bromine."):
        parsed = extract_choice(reply, list(opts), options=opts)
        assert (parsed.value, parsed.method) == ("A", "option_text")
    assert extract_choice("The correct answer is 36.", list(opts), options=opts).value is None


def test_an_answer_block_in_a_fence_then_a_rule_is_the_closing_answer() -> None:
    opts = {"A": "x", "B": "y", "C": "z", "D": "w"}
    for block, expected in (("{'9': ['B', 'C']}", None), ("{'9': ['A']}", "A"), ("{'11': []}", None)):
        reply = f"所以C正确。\n\n***\n\n### 答案\n```python\n{block}\n```\n***\n"
        assert extract_choice(reply, list(opts), options=opts).value == expected, block
    no_value = "由于选项中没有这个值，这个问题可能有误。\n\n### 答案\n无法从给定的选项中得出正确答案。"
    assert read(no_value, "zh")[0] is None


def test_korean_numbered_options_named_with_beon() -> None:
    labels = ["1", "2", "3", "4", "5"]

    def ko(reply: str) -> tuple[str | None, str]:
        parsed = extract_choice(reply, V, labels=labels)
        return parsed.value, parsed.method

    assert ko("A 기법은 이상치를 제외합니다. 따라서 2번이 옳은 설명입니다.")[0] == "B"
    assert ko("최종 정답: 2번 또는 5번")[1] == "ambiguous"
    assert ko("4번 - 교실 밖에서 관찰 활동을 하려면 책을 활용한 학습이 선행될 필요가 있다.")[0] == "D"
    # "1번 :" heading each option's discussion is a list, not an answer; "2번째" is "the second"
    assert ko("1번 : \n    - 지문 a\n\n2번 : \n    - 지문 b\n")[0] is None
    assert ko("따라서 2번째 문단이 중요합니다.")[0] is None
    # with numbered options, "[A]" quotes the passage's part A: no option
    assert ko("[A]에서 인물은 상대를 비난한다.")[0] is None


def test_circled_numbers_of_statements_are_no_options_where_the_options_are_lettered() -> None:
    # a Chinese exam: ①–④ number the question's statements, options A–D combine them
    opts = {"A": "①③", "B": "①④", "C": "②③", "D": "②④"}
    reply = "①正确，②错误，③正确，④错误。综上所述，正确的是①③，故选A。"
    assert extract_choice(reply, list(opts), options=opts).value == "A"
    assert extract_choice("综上所述，错误的选项是：\nC. ②和⑥杂交后代的结果相同。", V).value == "C"
    # where the prompt showed circled labels, ③ is option 3 as ever
    assert extract_choice("정답: ③", V, labels=["①", "②", "③", "④", "⑤"]).value == "C"


def test_several_options_joined_by_a_semicolon_or_a_bar() -> None:
    assert read("答案是：A; C", "zh")[1] == "ambiguous"
    assert read("B|C")[1] == "ambiguous"
    assert read("综上所述，本题答案选BC。", "zh")[1] == "ambiguous"
    # a semicolon that ends the answer's clause is no list
    assert read("The answer is C; B is wrong.")[0] == "C"


def test_a_label_with_its_own_value_and_a_value_in_an_answer_block() -> None:
    opts = {"A": "10", "B": "$40,000", "C": "20", "D": "5"}
    reply = "Each turn adds 1 degree.\n\nThe total number of degrees the dial moved is 10.\n\n[ A ] 10"
    assert extract_choice(reply, list(opts), options=opts).value == "A"
    # {'7': [2]} with lettered options: the value 2 (option C), not the second option; not a citation marker
    values = {"A": "$\\frac{1}{2}$", "B": "$1$", "C": "$2$", "D": "$3$"}
    assert extract_choice("所以约为2。\n\n### 答案\n{'7': [2]}", list(values), options=values).value == "C"
    # a citation marker after prose stays blanked
    assert extract_choice("Sepsis is common.[2] The answer is C.", V).value == "C"


def test_an_options_value_under_an_answer_heading() -> None:
    opts = {"A": "35", "B": "31", "C": "29", "D": "25"}
    assert extract_choice("2 + 23 = 25.\n\n### Final Answer\n\\boxed{25}", list(opts), options=opts).value == "D"
    # a value on the last line without such a heading is a calculation's result, not an answer
    assert extract_choice("So we have\n25", list(opts), options=opts).value is None


def test_gaokao_style_end_marks_examples_and_the_closest_option() -> None:
    # "[正确答案]B<eoa>": the end-of-answer mark the prompt asked for; the prompt's example, echoed, is no answer
    assert read("[正确答案]B<eoa>", "zh")[0] == "B"
    # a model that answered, then made up questions and answered them too, answered at its first <eoa>
    invented = "\n[正确答案]B<eoa>\n请你回答：\n甲与乙…下列哪一选项是正确的?A:是;B:不是。\n[正确答案]A<eoa>"
    assert read(invented, "zh")[0] == "B"
    # the prompt's words about the mark, echoed, end nothing; its example is no answer
    assert read("请写在[正确答案]和<eoa>之间。\n答案: C", "zh")[0] == "C"
    assert read("请写在[正确答案]和<eoa>之间。例如[正确答案]A<eoa>", "zh")[0] is None
    # no option matches the reply's own result; it commits to the nearest
    nearest = "The result is 3.3e-26 J, which matches no option exactly. The closest option is:\n\nB. 2.8e-26"
    assert read(nearest)[0] == "B"
