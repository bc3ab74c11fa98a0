"""Telugu (te): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Universal Dependencies Telugu MTG treebank; Krishnamurti
& Gwynn, A Grammar of Modern Telugu; FLORES-200 parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "te", "Telugu", "తెలుగు", "Telu", ("అవును",), ("కాదు", "లేదు"),
    answer_label="సమాధానం",
    answer_phrases=("సరైన సమాధానం", "సమాధానం:"),
    option_words=("ఎంపిక",),
    conclusion_cues=("కాబట్టి", "అందువల్ల", "ముగింపులో", "ఎక్కువగా సంభవించే", "అత్యంత సరైన"),
    negations_after=("కాదు", "తప్పు", "సరైనది కాదు", "చెల్లదు", "సరిపోదు", "కాకపోవచ్చు", "తోసిపుచ్చవచ్చు"),
    no_choice_phrases=("చిత్రం లేకుండా", "నిర్ణయించలేను", "సమాధానం ఇవ్వలేను", "తగినంత సమాచారం లేదు"),
    none_phrases=("ఏ ఎంపికా సరైనది కాదు", "సరైన ఎంపిక లేదు"),
    refusal_phrases=("నేను వైద్య సలహా ఇవ్వలేను", "క్షమించండి, నేను సమాధానం ఇవ్వలేను"),
    term_words=("విటమిన్", "రకం", "సమూహం", "రోగి"),
)
