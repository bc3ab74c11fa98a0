"""Persian (fa): prompt labels and the words that read a reply (``languages.base.Language``)."""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "fa", "Persian", "فارسی", "Arab", ("بله", "آری"), ("نه", "خیر"),
    rtl=True,
    answer_label="پاسخ",
    answer_phrases=("پاسخ صحیح", "پاسخ درست", "گزینه صحیح", "گزینه درست", "پاسخ:", "جواب:", "جواب صحیح"),
    option_words=("گزینه",),
    conclusion_cues=(
        "بنابراین", "در نتیجه", "در پایان", "نتیجه‌گیری", "محتمل‌ترین", "محتمل ترین", "بهترین پاسخ", "مناسب‌ترین",
        "مناسب ترین",
    ),
    negations_before=("نه", "نیست", "به جای", "به‌جای", "به جز"),
    negations_after=("نیست", "نادرست", "غلط", "اشتباه", "بعید"),
    no_choice_phrases=(
        "بدون تصویر", "نمی‌توانم تعیین", "نمی توانم تعیین", "نمی‌توانم پاسخ", "نمی توانم پاسخ", "اطلاعات کافی نیست",
        "متأسفم، اما",
    ),
    term_words=("ویتامین", "هپاتیت", "نوع", "گروه", "کلاس", "مرحله", "درجه", "فاکتور", "بیمار"),
    reference_headings=("منابع", "مراجع"),
)
