"""Chichewa (ny): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Chichewa–English dictionary of Paas (Chinyanja);
FLORES-200 parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "ny", "Chichewa", "Chichewa", "Latn", ("inde",), ("ayi",),
    answer_label="Yankho",
    answer_phrases=("yankho lolondola ndi", "yankho:", "yankho ndi"),
    option_words=("chisankho",),
    conclusion_cues=("choncho", "motero", "pomaliza", "mwachidule", "chotheka kwambiri"),
    negations_before=("osati", "m'malo mwa"),
    negations_after=("siyolondola", "si yolondola", "zolakwika", "sizolondola", "sichoncho", "sizingatheke"),
    no_choice_phrases=(
        "popanda chithunzi", "sindingathe kudziwa", "sindingathe kuyankha", "palibe chidziwitso chokwanira",
    ),
    none_phrases=("palibe yankho lolondola", "palibe chisankho cholondola", "palibe chimodzi mwa zisankho"),
    refusal_phrases=("sindingathe kupereka malangizo a zachipatala", "pepani, sindingathe"),
    term_words=("vitamini", "mtundu", "gulu", "wodwala"),
)
