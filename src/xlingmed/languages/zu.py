"""Zulu (zu): prompt labels and the words that read a reply (``languages.base.Language``)."""

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
    negations_after=("akulona", "akuyona", "akulungile", "okungalungile"),
    no_choice_phrases=("ngaphandle kwesithombe", "angikwazi ukunquma", "angikwazi ukuphendula", "ulwazi alwanele"),
    term_words=("uvithamini", "uhlobo", "iqembu", "isiguli"),
)
