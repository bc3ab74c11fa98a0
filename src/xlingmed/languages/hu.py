"""Hungarian (hu): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Universal Dependencies Hungarian Szeged treebank;
Tatoeba/OPUS parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "hu", "Hungarian", "Magyar", "Latn", ("igen",), ("nem",),
    answer_label="Válasz",
    answer_phrases=("a helyes válasz", "helyes válasz:", "válasz:", "a válasz"),
    option_words=("opció", "lehetőség", "válasz"),
    conclusion_cues=(
        "ezért", "tehát", "összefoglalva", "következtetés", "legvalószínűbb", "legvalószínűbben",
        "a legjobb válasz", "legmegfelelőbb", "a helyes",
    ),
    negations_before=("nem", "helyett", "kivéve"),
    negations_after=(
        "nem", "helytelen", "téves", "hibás", "valószínűtlen", "kevésbé valószínű", "érvénytelen", "nem helyes",
        "nem megfelelő", "nem illik", "nem lehet", "kizárható",
    ),
    no_choice_phrases=(
        "kép nélkül", "nem tudom meghatározni", "nem tudok válaszolni", "nem lehet meghatározni",
        "nincs elég információ", "elégtelen információ",
    ),
    none_phrases=("egyik válasz sem", "egyik lehetőség sem", "egyik opció sem"),
    refusal_phrases=("nem tudok orvosi tanácsot adni", "sajnálom, de nem tudok"),
    term_words=(
        "vitamin", "hepatitis", "típus", "típusú", "csoport", "osztály", "stádium", "fokozat", "faktor", "beteg",
    ),
)
