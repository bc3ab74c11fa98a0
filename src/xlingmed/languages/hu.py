"""Hungarian (hu): prompt labels and the words that read a reply (``languages.base.Language``)."""

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
    negations_after=("nem", "helytelen", "téves", "hibás", "valószínűtlen", "kevésbé valószínű"),
    no_choice_phrases=(
        "kép nélkül", "nem tudom meghatározni", "nem tudok válaszolni", "nem lehet meghatározni",
        "nincs elég információ", "elégtelen információ",
    ),
    term_words=(
        "vitamin", "hepatitis", "típus", "típusú", "csoport", "osztály", "stádium", "fokozat", "faktor", "beteg",
    ),
)
