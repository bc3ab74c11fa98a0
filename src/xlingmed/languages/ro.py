"""Romanian (ro): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Universal Dependencies Romanian RRT treebank; the DEX
dictionary (dexonline); Tatoeba/OPUS parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "ro", "Romanian", "Română", "Latn", ("da",), ("nu",),
    answer_label="Răspuns",
    answer_phrases=("răspunsul corect este", "răspuns corect:", "răspuns:", "răspunsul este"),
    option_words=("opțiunea", "varianta", "opțiune"),
    conclusion_cues=(
        "prin urmare", "deci", "așadar", "în concluzie", "concluzie", "cel mai probabil", "cea mai probabilă",
        "cel mai bun răspuns", "cea mai potrivită", "este corectă",
    ),
    negations_before=("nu", "nu este", "în loc de", "cu excepția"),
    negations_after=(
        "nu", "greșită", "incorectă", "puțin probabil", "invalidă", "nu este corectă", "nu se potrivește",
        "nu poate fi", "este exclusă",
    ),
    no_choice_phrases=(
        "fără imagine", "nu pot determina", "nu se poate determina", "nu pot răspunde", "informații insuficiente",
    ),
    none_phrases=(
        "niciuna dintre opțiuni", "nici una dintre opțiuni", "niciunul dintre răspunsuri", "niciuna dintre variante",
        "niciun răspuns nu este corect",
    ),
    refusal_phrases=("nu pot oferi sfaturi medicale", "îmi pare rău, dar nu pot"),
    term_words=(
        "vitamina", "vitamină", "hepatita", "hepatită", "tip", "tipul", "grup", "grupul", "clasa", "stadiul",
        "gradul", "factorul", "pacient", "pacienta",
    ),
)
