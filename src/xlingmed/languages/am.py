"""Amharic (am): prompt labels and the words that read a reply (``languages.base.Language``)."""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "am", "Amharic", "አማርኛ", "Ethi", ("አዎ", "አዎን"), ("አይ", "አይደለም"),
    answer_label="መልስ",
    answer_phrases=("ትክክለኛው መልስ", "መልስ:"),
    option_words=("አማራጭ",),
    conclusion_cues=("ስለዚህ", "በመሆኑም", "በማጠቃለያ", "በጣም ሊሆን የሚችለው", "ትክክለኛው"),
    negations_after=("አይደለም", "ትክክል አይደለም", "ስህተት"),
    no_choice_phrases=("ያለ ምስሉ", "መወሰን አልችልም", "መመለስ አልችልም", "በቂ መረጃ የለም"),
    term_words=("ቫይታሚን", "ሄፓታይተስ", "ዓይነት", "ቡድን", "ታካሚ"),
)
