"""Vietnamese (vi): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Universal Dependencies Vietnamese VTB treebank;
Thompson, A Vietnamese Reference Grammar; Tatoeba/OPUS parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "vi", "Vietnamese", "Tiếng Việt", "Latn", ("có", "đúng"), ("không", "sai"),
    answer_label="Đáp án",
    rationale_headings=("giải thích", "lý do"),
    answer_phrases=(
        "đáp án đúng là", "câu trả lời đúng là", "đáp án:", "câu trả lời:", "đáp án là", "lựa chọn đúng là",
        "tôi chọn", "chọn đáp án",
    ),
    option_words=("phương án", "lựa chọn", "đáp án", "câu"),
    conclusion_cues=(
        "do đó", "vì vậy", "vì thế", "như vậy", "kết luận", "tóm lại", "có khả năng nhất", "khả năng cao nhất",
        "phù hợp nhất", "đúng nhất", "là đúng",
    ),
    negations_before=("không phải", "không", "thay vì", "ngoại trừ", "loại trừ"),
    negations_after=(
        "không đúng", "sai", "không phải", "bị loại", "ít có khả năng", "không hợp lệ", "không chính xác",
        "không phù hợp", "không thể là", "bị loại trừ",
    ),
    no_choice_phrases=(
        "không có hình ảnh", "không thể xác định", "không thể trả lời", "không đủ thông tin", "thiếu thông tin",
    ),
    none_phrases=(
        "không có lựa chọn nào đúng", "không có đáp án nào đúng", "không có đáp án đúng", "không phương án nào đúng",
        "tất cả các lựa chọn đều sai", "không có câu trả lời đúng",
    ),
    refusal_phrases=("tôi không thể đưa ra lời khuyên y tế", "xin lỗi, tôi không thể"),
    term_words=(
        "vitamin", "viêm gan", "típ", "tuýp", "loại", "nhóm", "lớp", "giai đoạn", "độ", "yếu tố", "bệnh nhân",
    ),
    reference_headings=("tài liệu tham khảo", "nguồn"),
)
