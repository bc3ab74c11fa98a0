"""Dutch (nl): prompt labels and the words that read a reply (``languages.base.Language``)."""

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
    negations_after=("niet", "onjuist", "fout", "onwaarschijnlijk", "minder waarschijnlijk"),
    no_choice_phrases=(
        "zonder de afbeelding", "kan ik niet bepalen", "kan niet worden bepaald", "kan ik niet beantwoorden",
        "onvoldoende informatie", "als ai",
    ),
    term_words=("vitamine", "hepatitis", "type", "groep", "klasse", "stadium", "graad", "factor", "patiënt"),
    reference_headings=("referenties", "bronnen", "literatuur"),
)
