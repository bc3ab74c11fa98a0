"""Hausa (ha): prompt labels and the words that read a reply (``languages.base.Language``)."""

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
    negations_after=("ba daidai ba", "ba"),
    no_choice_phrases=("ba tare da hoton", "ba zan iya tantancewa", "ba zan iya amsawa", "bayani bai isa ba"),
    term_words=("bitamin", "nau'in", "rukuni", "majiyyaci"),
)
