"""Swedish (sv): prompt labels and the words that read a reply (``languages.base.Language``)."""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "sv", "Swedish", "Svenska", "Latn", ("ja",), ("nej",),
    answer_label="Svar",
    answer_phrases=(
        "det korrekta svaret är", "rätt svar är", "rätt svar:", "svar:", "svaret är", "det rätta svaret är",
    ),
    option_words=("alternativ",),
    conclusion_cues=(
        "därför", "således", "alltså", "sammanfattningsvis", "slutsats", "mest sannolikt", "mest sannolika",
        "det bästa svaret", "mest lämpliga", "är korrekt", "är rätt",
    ),
    negations_before=("inte", "ej", "istället för", "förutom"),
    negations_after=("inte", "fel", "felaktig", "felaktigt", "osannolik", "mindre sannolik"),
    no_choice_phrases=(
        "utan bilden", "kan inte avgöra", "kan inte bestämma", "kan inte svara", "otillräcklig information",
    ),
    term_words=("vitamin", "hepatit", "typ", "grupp", "klass", "stadium", "grad", "faktor", "patient", "patienten"),
)
