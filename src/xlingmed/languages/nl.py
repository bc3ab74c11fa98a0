"""Dutch (nl): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Universal Dependencies Dutch Alpino treebank; the
Algemene Nederlandse Spraakkunst (ANS) on negation; Tatoeba/OPUS parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "nl", "Dutch", "Nederlands", "Latn", ("ja",), ("nee",),
    answer_label="Antwoord",
    rationale_headings=("uitleg", "toelichting", "onderbouwing"),
    answer_phrases=(
        "het juiste antwoord is", "het correcte antwoord is", "antwoord:", "het antwoord is",
        "het beste antwoord is", "ik kies",
    ),
    option_words=("optie", "keuze", "letter"),
    conclusion_cues=(
        "daarom", "dus", "derhalve", "concluderend", "conclusie", "samenvattend", "meest waarschijnlijk",
        "meest waarschijnlijke", "het beste antwoord", "meest geschikte", "is juist", "is correct",
    ),
    negations_before=("niet", "geen", "in plaats van", "behalve"),
    negations_after=(
        "niet", "onjuist", "fout", "onwaarschijnlijk", "minder waarschijnlijk", "ongeldig", "niet juist",
        "niet correct", "past niet", "kan niet", "uitgesloten",
    ),
    no_choice_phrases=(
        "zonder de afbeelding", "kan ik niet bepalen", "kan niet worden bepaald", "kan ik niet beantwoorden",
        "onvoldoende informatie", "als ai",
    ),
    none_phrases=(
        "geen van de opties", "geen van de antwoorden", "geen van de bovenstaande", "geen enkele optie is juist",
        "geen van de antwoordmogelijkheden",
    ),
    refusal_phrases=("ik kan geen medisch advies geven", "het spijt me, maar ik kan"),
    term_words=("vitamine", "hepatitis", "type", "groep", "klasse", "stadium", "graad", "factor", "patiënt"),
    reference_headings=("referenties", "bronnen", "literatuur"),
)
