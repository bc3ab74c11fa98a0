"""Wolof (wo): prompt labels and the words that read a reply (``languages.base.Language``)."""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "wo", "Wolof", "Wolof", "Latn", ("waaw",), ("déedéet", "deedeet"),
    answer_label="Tontu",
    answer_phrases=("tontu bi baax mooy", "tontu:", "tontu bi mooy"),
    conclusion_cues=("moo tax", "ci mujj"),
    negations_before=("duñu", "bañ"),
    negations_after=("baaxul", "jubul"),
    no_choice_phrases=("amul nataal", "manumaa xam", "manumaa tontu"),
    term_words=("witamin", "xeet", "mbooloo", "jàngoro"),
)
