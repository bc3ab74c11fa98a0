"""Malagasy (mg): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; Keenan & Polinsky, Malagasy (Morphology), in The Handbook of
Morphology; FLORES-200 parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "mg", "Malagasy", "Malagasy", "Latn", ("eny",), ("tsia", "tsy"),
    answer_label="Valiny",
    answer_phrases=("ny valiny marina dia", "valiny marina:", "valiny:", "ny valiny dia"),
    option_words=("safidy",),
    conclusion_cues=("noho izany", "araka izany", "ho famaranana", "azo inoana indrindra", "mety indrindra"),
    negations_before=("tsy", "fa tsy", "ankoatra"),
    negations_after=("tsy marina", "diso", "tsy mety", "tsy mifanaraka", "tsy azo atao"),
    no_choice_phrases=("tsy misy sary", "tsy afaka mamaritra", "tsy afaka mamaly", "tsy ampy ny fampahalalana"),
    none_phrases=("tsy misy amin'ireo safidy", "tsy misy marina amin'ireo safidy", "tsy misy valiny marina"),
    refusal_phrases=("tsy afaka manome torohevitra ara-pahasalamana aho", "miala tsiny fa tsy afaka"),
    term_words=("vitamina", "karazana", "vondrona", "marary"),
)
