"""Shona (sn): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; Fortune, An Analytical Grammar of Shona; FLORES-200 parallel
sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "sn", "Shona", "chiShona", "Latn", ("hongu", "ehe"), ("kwete",),
    answer_label="Mhinduro",
    answer_phrases=("mhinduro chaiyo ndeye", "mhinduro:", "mhinduro ndeye"),
    option_words=("sarudzo",),
    conclusion_cues=("nokudaro", "pakupedzisira", "zvingangoita"),
    negations_before=("kwete",),
    negations_after=("haisi", "kwete", "isiri", "hazvina kururama", "hairi iyo", "haigoni kuva"),
    no_choice_phrases=(
        "pasina mufananidzo", "handikwanise kuona", "handikwanise kupindura", "ruzivo hauna kukwana",
    ),
    none_phrases=("hapana sarudzo yakarurama", "hapana mhinduro yakarurama", "hapana pane idzi sarudzo"),
    refusal_phrases=("handikwanise kupa mazano ezvokurapa", "ndine urombo, handikwanise"),
    term_words=("vhitamini", "rudzi", "boka", "murwere"),
)
