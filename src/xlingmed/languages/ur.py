"""Urdu (ur): prompt labels and the words that read a reply (``languages.base.Language``)."""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "ur", "Urdu", "اردو", "Arab", ("ہاں", "جی ہاں"), ("نہیں",),
    rtl=True,
    answer_label="جواب",
    answer_phrases=("صحیح جواب", "درست جواب", "جواب:", "صحیح آپشن"),
    option_words=("آپشن", "اختیار"),
    conclusion_cues=(
        "لہذا", "لہٰذا", "اس لیے", "نتیجتاً", "خلاصہ", "سب سے زیادہ ممکنہ", "سب سے موزوں", "بہترین جواب",
    ),
    negations_before=("نہیں", "نہ کہ", "کے بجائے", "کے علاوہ"),
    negations_after=("نہیں", "غلط", "درست نہیں"),
    no_choice_phrases=("تصویر کے بغیر", "تعین نہیں کر سکتا", "جواب نہیں دے سکتا", "کافی معلومات نہیں"),
    term_words=("وٹامن", "ہیپاٹائٹس", "قسم", "گروپ", "درجہ", "مرحلہ", "مریض"),
)
