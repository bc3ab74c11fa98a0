"""Nepali (ne): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; Acharya, A Descriptive Grammar of Nepali; FLORES-200
parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "ne", "Nepali", "नेपाली", "Deva", ("हो", "हजुर"), ("होइन",),
    answer_label="उत्तर",
    answer_phrases=("सही उत्तर हो", "सही उत्तर", "उत्तर:", "सही विकल्प"),
    option_words=("विकल्प",),
    conclusion_cues=("त्यसैले", "अतः", "यसरी", "निष्कर्षमा", "निष्कर्ष", "सबैभन्दा सम्भावित", "सबैभन्दा उपयुक्त"),
    negations_before=("होइन", "नभई", "बाहेक"),
    negations_after=("होइन", "गलत", "सही होइन", "अमान्य", "मिल्दैन", "हुन सक्दैन", "ठीक होइन"),
    no_choice_phrases=(
        "छवि बिना", "तस्बिर बिना", "निर्धारण गर्न सक्दिन", "उत्तर दिन सक्दिन", "पर्याप्त जानकारी छैन",
    ),
    none_phrases=("कुनै पनि विकल्प सही छैन",),
    refusal_phrases=("म चिकित्सा सल्लाह दिन सक्दिन", "माफ गर्नुहोस्, म सक्दिन"),
    term_words=("भिटामिन", "हेपाटाइटिस", "प्रकार", "समूह", "वर्ग", "चरण", "बिरामी"),
)
