"""Yoruba (yo): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Universal Dependencies Yoruba YTB treebank; Bamgbose, A
Grammar of Yoruba; FLORES-200 parallel sentences.
"""

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
    negations_after=(
        "kì í ṣe", "ki i se", "kò tọ́", "ko to", "kò péye", "ko peye", "kò tọ̀nà", "ko tona", "kò bá a mu",
        "ko ba a mu", "kò lè jẹ́", "ko le je", "kò wúlò", "ko wulo",
    ),
    no_choice_phrases=(
        "láìsí àwòrán", "laisi aworan", "mi ò lè pinnu", "mi o le pinnu", "mi ò lè dáhùn", "mi o le dahun",
        "mi ò lè yàn", "mi o le yan", "àlàyé kò tó", "alaye ko to",
    ),
    none_phrases=(
        "kò sí èyí tó tọ́", "ko si eyi to to", "kò sí ìkankan nínú àwọn àṣàyàn", "ko si ikankan ninu awon asayan",
        "kò sí ìdáhùn tó tọ́", "ko si idahun to to", "kò sí ọ̀kankan nínú wọn", "ko si okankan ninu won",
    ),
    refusal_phrases=(
        "mi ò lè fún ọ ní ìmọ̀ràn ìṣègùn", "mi o le fun o ni imoran isegun", "ẹ má bínú, mi ò lè", "e ma binu, mi o le",
    ),
    term_words=("fítámìnì", "fitamini", "irú", "iru", "ẹgbẹ́", "egbe", "aláìsàn", "alaisan"),
)
