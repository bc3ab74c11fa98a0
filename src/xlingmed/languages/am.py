"""Amharic (am): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Universal Dependencies Amharic ATT treebank; FLORES-200
parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "am", "Amharic", "አማርኛ", "Ethi", ("አዎ", "አዎን"), ("አይ", "አይደለም"),
    answer_label="መልስ",
    answer_phrases=("ትክክለኛው መልስ", "መልስ:"),
    option_words=("አማራጭ",),
    conclusion_cues=("ስለዚህ", "በመሆኑም", "በማጠቃለያ", "በጣም ሊሆን የሚችለው", "ትክክለኛው"),
    negations_after=("አይደለም", "ትክክል አይደለም", "ስህተት", "ትክክል አይደለችም", "ልክ አይደለም", "ሊሆን አይችልም", "አይስማማም"),
    no_choice_phrases=("ያለ ምስሉ", "መወሰን አልችልም", "መመለስ አልችልም", "በቂ መረጃ የለም"),
    none_phrases=("ከአማራጮቹ አንዳቸውም", "ትክክለኛ አማራጭ የለም", "ከአማራጮቹ አንዳቸውም ትክክል አይደሉም"),
    refusal_phrases=("የሕክምና ምክር መስጠት አልችልም", "ይቅርታ፣ ግን አልችልም"),
    term_words=("ቫይታሚን", "ሄፓታይተስ", "ዓይነት", "ቡድን", "ታካሚ"),
)
