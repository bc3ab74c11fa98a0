"""Filipino (fil): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Universal Dependencies Tagalog TRG and Ugnayan treebanks;
Schachter & Otanes, Tagalog Reference Grammar; FLORES-200 parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "fil", "Filipino", "Filipino", "Latn", ("oo", "opo"), ("hindi",),
    answer_label="Sagot",
    answer_phrases=("ang tamang sagot ay", "tamang sagot:", "sagot:", "ang sagot ay"),
    option_words=("opsyon", "pagpipilian", "titik"),
    conclusion_cues=(
        "samakatuwid", "kaya naman", "dahil dito", "bilang konklusyon", "sa kabuuan", "pinakamalamang",
        "pinaka-malamang", "pinakaangkop", "pinakamahusay na sagot", "ang tama",
    ),
    negations_before=("hindi", "sa halip na", "maliban sa"),
    negations_after=(
        "ay hindi", "mali", "malabong", "ay mali", "hindi tama", "hindi wasto", "hindi tugma", "hindi maaaring",
    ),
    no_choice_phrases=(
        "nang walang larawan", "walang larawan", "hindi ko matukoy", "hindi ko masagot", "kulang ang impormasyon",
        "hindi sapat ang impormasyon",
    ),
    none_phrases=("wala sa mga pagpipilian", "wala sa mga opsyon", "walang tamang sagot"),
    refusal_phrases=("hindi ako makapagbibigay ng medikal na payo", "paumanhin, ngunit hindi ko masasagot"),
    term_words=("bitamina", "hepatitis", "uri", "grupo", "klase", "yugto", "pasyente"),
)
