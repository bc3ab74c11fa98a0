"""Thai (th): prompt labels and the words that read a reply (``languages.base.Language``)."""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "th", "Thai", "ไทย", "Thai", ("ใช่",), ("ไม่ใช่", "ไม่"),
    answer_label="คำตอบ",
    answer_phrases=("คําตอบที่ถูกต้องคือ", "คําตอบคือ", "คําตอบ:", "ตอบ:", "ตัวเลือกที่ถูกต้องคือ"),
    option_words=("ตัวเลือก", "ข้อ"),
    conclusion_cues=(
        "ดังนั้น", "โดยสรุป", "สรุป", "เพราะฉะนั้น", "มีแนวโน้มมากที่สุด", "น่าจะเป็นมากที่สุด", "เหมาะสมที่สุด",
    ),
    negations_before=("ไม่ใช่", "แทนที่จะเป็น", "ยกเว้น"),
    negations_after=("ไม่ใช่", "ไม่ถูกต้อง", "ผิด"),
    no_choice_phrases=("ไม่มีภาพ", "ไม่สามารถระบุ", "ไม่สามารถตอบ", "ข้อมูลไม่เพียงพอ"),
    term_words=("วิตามิน", "ไวรัสตับอักเสบ", "ชนิด", "กลุ่ม", "ประเภท", "ระยะ", "ผู้ป่วย"),
)
