"""Shona (sn): prompt labels and the words that read a reply (``languages.base.Language``)."""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "sn", "Shona", "chiShona", "Latn", ("hongu", "ehe"), ("kwete",),
    answer_label="Mhinduro",
    answer_phrases=("mhinduro chaiyo ndeye", "mhinduro:", "mhinduro ndeye"),
    option_words=("sarudzo",),
    conclusion_cues=("nokudaro", "pakupedzisira", "zvingangoita"),
    negations_before=("kwete",),
    negations_after=("haisi", "kwete", "isiri"),
    no_choice_phrases=(
        "pasina mufananidzo", "handikwanise kuona", "handikwanise kupindura", "ruzivo hauna kukwana",
    ),
    term_words=("vhitamini", "rudzi", "boka", "murwere"),
)
