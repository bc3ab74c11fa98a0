"""Afrikaans (af): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Universal Dependencies Afrikaans AfriBooms treebank;
FLORES-200 parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "af", "Afrikaans", "Afrikaans", "Latn", ("ja",), ("nee",),
    answer_label="Antwoord",
    answer_phrases=("die korrekte antwoord is", "die regte antwoord is", "antwoord:", "die antwoord is"),
    option_words=("opsie",),
    conclusion_cues=(
        "daarom", "dus", "gevolglik", "ten slotte", "samevattend", "gevolgtrekking", "mees waarskynlik",
        "die beste antwoord", "is korrek",
    ),
    negations_before=("nie", "geen", "in plaas van", "behalwe"),
    negations_after=(
        "nie", "verkeerd", "onwaarskynlik", "foutief", "ongeldig", "is nie korrek nie", "pas nie", "kan nie wees nie",
        "uitgesluit",
    ),
    no_choice_phrases=(
        "sonder die beeld", "sonder die prent", "kan nie bepaal", "kan nie antwoord", "onvoldoende inligting",
    ),
    none_phrases=("geeneen van die opsies", "nie een van die opsies", "geen van die opsies", "geen korrekte opsie"),
    refusal_phrases=("ek kan nie mediese advies gee nie", "ek is jammer, maar ek kan nie"),
    term_words=("vitamien", "hepatitis", "tipe", "groep", "klas", "stadium", "graad", "faktor", "pasiënt"),
)
