"""Afrikaans (af): prompt labels and the words that read a reply (``languages.base.Language``)."""

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
    negations_after=("nie", "verkeerd", "onwaarskynlik", "foutief"),
    no_choice_phrases=(
        "sonder die beeld", "sonder die prent", "kan nie bepaal", "kan nie antwoord", "onvoldoende inligting",
    ),
    term_words=("vitamien", "hepatitis", "tipe", "groep", "klas", "stadium", "graad", "faktor", "pasiënt"),
)
