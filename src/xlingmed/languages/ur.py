"""Urdu (ur): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Universal Dependencies Urdu UDTB treebank; Schmidt,
Urdu: An Essential Grammar; FLORES-200 parallel sentences.
"""

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
    negations_after=(
        "نہیں", "غلط", "درست نہیں", "صحیح نہیں", "غیر موزوں", "مطابقت نہیں رکھتا", "نہیں ہو سکتا", "مسترد",
    ),
    no_choice_phrases=("تصویر کے بغیر", "تعین نہیں کر سکتا", "جواب نہیں دے سکتا", "کافی معلومات نہیں"),
    none_phrases=("کوئی بھی آپشن درست نہیں", "کوئی بھی آپشن صحیح نہیں"),
    refusal_phrases=("میں طبی مشورہ نہیں دے سکتا", "میں طبی مشورہ نہیں دے سکتی", "معذرت، میں اس کا جواب نہیں دے سکتا"),
    term_words=("وٹامن", "ہیپاٹائٹس", "قسم", "گروپ", "درجہ", "مرحلہ", "مریض"),
)
