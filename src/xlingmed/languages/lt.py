"""Lithuanian (lt): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Universal Dependencies Lithuanian ALKSNIS treebank;
Tatoeba/OPUS parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "lt", "Lithuanian", "Lietuvių", "Latn", ("taip",), ("ne",),
    answer_label="Atsakymas",
    answer_phrases=("teisingas atsakymas yra", "teisingas atsakymas:", "atsakymas:"),
    option_words=("variantas",),
    conclusion_cues=(
        "todėl", "taigi", "apibendrinant", "išvada", "labiausiai tikėtina", "tinkamiausias", "geriausias atsakymas",
    ),
    negations_before=("ne", "nėra", "vietoj", "išskyrus"),
    negations_after=(
        "nėra", "neteisingas", "neteisinga", "klaidingas", "mažai tikėtina", "negalioja", "netinka", "negali būti",
        "atmestinas", "atmestina",
    ),
    no_choice_phrases=("be vaizdo", "negaliu nustatyti", "negaliu atsakyti", "nepakanka informacijos"),
    none_phrases=("nė vienas iš variantų", "nė vienas variantas", "nė vienas iš atsakymų", "nė vienas iš pateiktų"),
    refusal_phrases=("negaliu teikti medicininių patarimų", "atsiprašau, bet negaliu"),
    term_words=(
        "vitaminas", "vitamino", "hepatitas", "tipas", "tipo", "grupė", "grupės", "klasė", "stadija", "laipsnis",
        "faktorius", "pacientas",
    ),
)
