"""Swahili (sw): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; Ashton, Swahili Grammar; the TUKI Kamusi ya Kiswahili-
Kiingereza; FLORES-200 parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "sw", "Swahili", "Kiswahili", "Latn", ("ndiyo", "ndio"), ("hapana",),
    answer_label="Jibu",
    rationale_headings=("maelezo", "sababu"),
    answer_phrases=(
        "jibu sahihi ni", "jibu ni", "jibu:", "chaguo sahihi ni", "jibu sahihi:", "jibu lililo sahihi ni",
        "jibu sahihi zaidi ni",
    ),
    option_words=("chaguo", "jibu", "herufi"),
    conclusion_cues=(
        "kwa hiyo", "hivyo", "kwa hivyo", "kwa kumalizia", "hitimisho", "kwa muhtasari", "inayowezekana zaidi",
        "uwezekano mkubwa", "bora zaidi", "sahihi zaidi", "inafaa zaidi", "ndilo jibu", "ndio jibu", "ni sahihi",
    ),
    negations_before=("sio", "siyo", "badala ya", "isipokuwa"),
    negations_after=(
        "si sahihi", "sio sahihi", "siyo sahihi", "haiwezekani", "sio", "imekosewa", "ni makosa", "si jibu",
        "si halali", "hailingani", "haiendani", "haiwezi kuwa", "imeondolewa", "haifai", "haikubaliki",
    ),
    no_choice_phrases=(
        "bila picha", "bila kuona picha", "siwezi kuona picha", "siwezi kuamua", "siwezi kujibu", "haiwezekani kuamua",
        "taarifa haitoshi", "taarifa hazitoshi", "habari haitoshi", "kama ai", "kama modeli ya lugha",
        "samahani, lakini", "haiwezekani kuchagua", "jibu sahihi halimo kwenye chaguo", "siwezi kuchagua",
    ),
    none_phrases=(
        "hakuna chaguo sahihi", "hakuna jibu sahihi", "hakuna kati ya chaguo", "hakuna kati ya majibu",
        "hakuna hata moja ya chaguo", "hakuna chaguo lililo sahihi", "chaguo zote si sahihi",
    ),
    refusal_phrases=("siwezi kutoa ushauri wa kitabibu", "siwezi kutoa ushauri wa matibabu", "samahani, lakini siwezi"),
    term_words=("vitamini", "homa ya ini", "aina", "kundi", "daraja", "hatua", "kipengele", "mgonjwa"),
)
