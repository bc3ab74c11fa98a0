"""Igbo (ig): prompt labels and the words that read a reply (``languages.base.Language``)."""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "ig", "Igbo", "Asụsụ Igbo", "Latn", ("ee",), ("mba",),
    answer_label="Azịza",
    answer_phrases=("azịza ziri ezi bụ", "azịza:", "azịza bụ", "aziza:", "aziza bu"),
    option_words=("nhọrọ",),
    conclusion_cues=("ya mere", "n'ihi ya", "na nchịkọta", "nke kachasị"),
    negations_before=("ọ bụghị", "o bughi", "kama"),
    negations_after=("abụghị", "abughi", "ezighi ezi", "ezighị ezi"),
    no_choice_phrases=("na-enweghị foto", "enweghị m ike ikpebi", "enweghị m ike ịza"),
    term_words=("vitamin", "ụdị", "udi", "onye ọrịa"),
)
