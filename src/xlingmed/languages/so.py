"""Somali (so): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; Saeed, Somali (London Oriental and African Language
Library); FLORES-200 parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "so", "Somali", "Soomaali", "Latn", ("haa",), ("maya",),
    answer_label="Jawaab",
    answer_phrases=("jawaabta saxda ah waa", "jawaabta saxda ahi waa", "jawaab:", "jawaabta:"),
    option_words=("doorashada", "xulashada"),
    conclusion_cues=("sidaas darteed", "sidaa darteed", "gabagabadii", "gunaanad", "ugu macquulsan", "ugu habboon"),
    negations_before=("ma aha", "halkii", "marka laga reebo"),
    negations_after=("ma aha", "khalad", "qalad", "ma saxna", "ma aha mid sax ah", "ma ku habboona", "ma noqon karo"),
    no_choice_phrases=("sawirka la'aantiis", "ma go'aamin karo", "ma ka jawaabi karo", "macluumaad ku filan ma"),
    none_phrases=(
        "midkoodna sax ma aha", "ma jiro doorasho sax ah", "ma jirto jawaab sax ah", "doorashooyinka midna sax ma aha",
    ),
    refusal_phrases=("ma bixin karo talo caafimaad", "raali noqo, ma awoodo"),
    term_words=("fiitamiin", "nooca", "kooxda", "bukaanka"),
)
