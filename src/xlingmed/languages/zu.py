"""Zulu (zu): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; Doke, Textbook of Zulu Grammar; the isiZulu.net dictionary;
FLORES-200 parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "zu", "Zulu", "isiZulu", "Latn", ("yebo",), ("cha",),
    answer_label="Impendulo",
    answer_phrases=("impendulo efanele ngu", "impendulo eyiyo ngu", "impendulo:", "impendulo ngu"),
    option_words=("inketho", "ukukhetha"),
    conclusion_cues=(
        "ngakho-ke", "ngenxa yalokho", "sengiphetha", "ekugcineni", "okungenzeka kakhulu", "okufaneleka kakhulu",
    ),
    negations_before=("hhayi", "esikhundleni se", "ngaphandle kwe"),
    negations_after=(
        "akulona", "akuyona", "akulungile", "okungalungile", "akulungile neze", "akufanele", "akuhambisani",
        "ayikwazi ukuba", "akunakwenzeka", "akusiyo impendulo",
    ),
    no_choice_phrases=(
        "ngaphandle kwesithombe", "angikwazi ukunquma", "angikwazi ukuphendula", "ulwazi alwanele",
        "angikwazi ukukhetha", "ayikho imininingwane eyanele",
    ),
    none_phrases=(
        "ayikho inketho efanele", "ayikho impendulo efanele", "ayikho impendulo eyiyo", "akukho neyodwa yezinketho",
        "azikho izinketho ezifanele", "ayikho kulezi zinketho",
    ),
    refusal_phrases=("angikwazi ukunikeza iseluleko sezokwelapha", "ngiyaxolisa, kodwa angikwazi"),
    term_words=("uvithamini", "uhlobo", "iqembu", "isiguli"),
)
