"""Igbo (ig): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; Emenanjo, Elements of Modern Igbo Grammar; FLORES-200
parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "ig", "Igbo", "Asụsụ Igbo", "Latn", ("ee",), ("mba",),
    answer_label="Azịza",
    answer_phrases=("azịza ziri ezi bụ", "azịza:", "azịza bụ", "aziza:", "aziza bu"),
    option_words=("nhọrọ",),
    conclusion_cues=("ya mere", "n'ihi ya", "na nchịkọta", "nke kachasị"),
    negations_before=("ọ bụghị", "o bughi", "kama"),
    negations_after=("abụghị", "abughi", "ezighi ezi", "ezighị ezi", "adabaghị", "apụghị ịbụ"),
    no_choice_phrases=("na-enweghị foto", "enweghị m ike ikpebi", "enweghị m ike ịza"),
    none_phrases=("ọ dịghị nke ọ bụla n'ime nhọrọ", "o dighi nke o bula n'ime nhoro", "ọ nweghị azịza ziri ezi"),
    refusal_phrases=("enweghị m ike inye ndụmọdụ ahụike", "ndo, enweghị m ike"),
    term_words=("vitamin", "ụdị", "udi", "onye ọrịa"),
)
