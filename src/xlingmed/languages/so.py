"""Somali (so): prompt labels and the words that read a reply (``languages.base.Language``)."""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "so", "Somali", "Soomaali", "Latn", ("haa",), ("maya",),
    answer_label="Jawaab",
    answer_phrases=("jawaabta saxda ah waa", "jawaabta saxda ahi waa", "jawaab:", "jawaabta:"),
    option_words=("doorashada", "xulashada"),
    conclusion_cues=("sidaas darteed", "sidaa darteed", "gabagabadii", "gunaanad", "ugu macquulsan", "ugu habboon"),
    negations_before=("ma aha", "halkii", "marka laga reebo"),
    negations_after=("ma aha", "khalad", "qalad", "ma saxna"),
    no_choice_phrases=("sawirka la'aantiis", "ma go'aamin karo", "ma ka jawaabi karo", "macluumaad ku filan ma"),
    term_words=("fiitamiin", "nooca", "kooxda", "bukaanka"),
)
