"""Yoruba (yo): prompt labels and the words that read a reply (``languages.base.Language``)."""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "yo", "Yoruba", "Yorùbá", "Latn", ("bẹ́ẹ̀ni", "bẹẹni"), ("rárá", "rara"),
    answer_label="Ìdáhùn",
    answer_phrases=(
        "ìdáhùn:", "idahun:", "ìdáhùn tó tọ́ ni", "idahun to to ni", "ìdáhùn tó péye ni", "idahun to peye ni",
        "ìdáhùn náà ni", "idahun naa ni",
    ),
    option_words=("àṣàyàn", "asayan"),
    conclusion_cues=(
        "nítorí náà", "nitori naa", "nítorí èyí", "nitori eyi", "ní ìparí", "ni ipari", "jùlọ", "julo",
    ),
    negations_before=("kì í ṣe", "ki i se", "kìí ṣe", "kii se", "dípò", "dipo"),
    negations_after=("kì í ṣe", "ki i se", "kò tọ́", "ko to", "kò péye", "ko peye"),
    no_choice_phrases=(
        "láìsí àwòrán", "laisi aworan", "mi ò lè pinnu", "mi o le pinnu", "mi ò lè dáhùn", "mi o le dahun",
    ),
    term_words=("fítámìnì", "fitamini", "irú", "iru", "ẹgbẹ́", "egbe", "aláìsàn", "alaisan"),
)
