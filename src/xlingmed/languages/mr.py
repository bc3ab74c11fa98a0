"""Marathi (mr): prompt labels and the words that read a reply (``languages.base.Language``)."""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "mr", "Marathi", "मराठी", "Deva", ("हो", "होय"), ("नाही",),
    answer_label="उत्तर",
    answer_phrases=("योग्य उत्तर आहे", "बरोबर उत्तर आहे", "योग्य उत्तर", "बरोबर उत्तर", "उत्तर:"),
    option_words=("पर्याय",),
    conclusion_cues=("म्हणून", "त्यामुळे", "अशा प्रकारे", "निष्कर्ष", "सर्वात संभाव्य", "सर्वात योग्य"),
    negations_before=("नाही", "ऐवजी", "वगळता"),
    negations_after=("नाही", "चुकीचे", "चूक", "अयोग्य"),
    no_choice_phrases=("प्रतिमेशिवाय", "चित्राशिवाय", "ठरवू शकत नाही", "उत्तर देऊ शकत नाही", "पुरेशी माहिती नाही"),
    term_words=("जीवनसत्त्व", "विटामिन", "हिपॅटायटीस", "प्रकार", "गट", "वर्ग", "टप्पा", "रुग्ण"),
)
