"""Swedish (sv): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Universal Dependencies Swedish Talbanken treebank;
Svenska Akademiens ordlista (SAOL); Tatoeba/OPUS parallel sentences.
"""

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
    negations_after=(
        "inte", "fel", "felaktig", "felaktigt", "osannolik", "mindre sannolik", "ogiltig", "inte korrekt",
        "stämmer inte", "passar inte", "kan inte vara", "utesluten", "utesluts",
    ),
    no_choice_phrases=(
        "utan bilden", "kan inte avgöra", "kan inte bestämma", "kan inte svara", "otillräcklig information",
    ),
    none_phrases=("inget av alternativen", "inget av svaren", "ingen av alternativen", "inget alternativ är korrekt"),
    refusal_phrases=(
        "jag kan inte ge medicinsk rådgivning", "jag kan inte ge medicinska råd", "jag är ledsen, men jag kan inte",
    ),
    term_words=("vitamin", "hepatit", "typ", "grupp", "klass", "stadium", "grad", "faktor", "patient", "patienten"),
)
