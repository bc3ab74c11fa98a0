"""Wolof (wo): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Universal Dependencies Wolof WTB treebank; FLORES-200
parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "wo", "Wolof", "Wolof", "Latn", ("waaw",), ("déedéet", "deedeet"),
    answer_label="Tontu",
    answer_phrases=("tontu bi baax mooy", "tontu:", "tontu bi mooy"),
    conclusion_cues=("moo tax", "ci mujj"),
    negations_before=("duñu", "bañ"),
    negations_after=("baaxul", "jubul", "baaxul dara", "dëggul"),
    no_choice_phrases=("amul nataal", "manumaa xam", "manumaa tontu", "manumaa tànn"),
    none_phrases=("benn tontu baaxul", "amul benn tontu bu baax", "du benn ci tànneef yi"),
    refusal_phrases=("manumaa joxe ndigal ci wàllu wér-gi-yaram", "baal ma, manumaa"),
    term_words=("witamin", "xeet", "mbooloo", "jàngoro"),
)
