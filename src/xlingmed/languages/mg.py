"""Malagasy (mg): prompt labels and the words that read a reply (``languages.base.Language``)."""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "mg", "Malagasy", "Malagasy", "Latn", ("eny",), ("tsia", "tsy"),
    answer_label="Valiny",
    answer_phrases=("ny valiny marina dia", "valiny marina:", "valiny:", "ny valiny dia"),
    option_words=("safidy",),
    conclusion_cues=("noho izany", "araka izany", "ho famaranana", "azo inoana indrindra", "mety indrindra"),
    negations_before=("tsy", "fa tsy", "ankoatra"),
    negations_after=("tsy marina", "diso"),
    no_choice_phrases=("tsy misy sary", "tsy afaka mamaritra", "tsy afaka mamaly", "tsy ampy ny fampahalalana"),
    term_words=("vitamina", "karazana", "vondrona", "marary"),
)
