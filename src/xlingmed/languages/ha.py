"""Hausa (ha): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; Newman, The Hausa Language: An Encyclopedic Reference
Grammar (negation); FLORES-200 parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "ha", "Hausa", "Hausa", "Latn", ("ee",), ("a'a",),
    answer_label="Amsa",
    answer_phrases=(
        "amsar da ta dace ita ce", "amsa daidai ita ce", "amsa:", "amsar ita ce", "amsar daidai ita ce",
    ),
    option_words=("zaɓi", "zabi"),
    conclusion_cues=("saboda haka", "don haka", "a ƙarshe", "a karshe", "mafi yiwuwa", "mafi dacewa"),
    negations_before=("ba", "maimakon", "banda"),
    negations_after=("ba daidai ba", "ba", "ba daidai ba ne", "kuskure ne", "ba zai yiwu ba"),
    no_choice_phrases=("ba tare da hoton", "ba zan iya tantancewa", "ba zan iya amsawa", "bayani bai isa ba"),
    none_phrases=(
        "babu ɗaya daga cikin zaɓuɓɓukan", "babu daya daga cikin zabubbukan", "babu amsa daidai", "babu ɗayansu daidai",
    ),
    refusal_phrases=("ba zan iya ba da shawarar likita ba", "yi haƙuri, ba zan iya"),
    term_words=("bitamin", "nau'in", "rukuni", "majiyyaci"),
)
