"""Swahili (sw): prompt labels and the words that read a reply (``languages.base.Language``)."""

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
    ),
    no_choice_phrases=(
        "bila picha", "bila kuona picha", "siwezi kuona picha", "siwezi kuamua", "siwezi kujibu",
        "haiwezekani kuamua", "taarifa haitoshi", "taarifa hazitoshi", "habari haitoshi", "kama ai",
        "kama modeli ya lugha", "samahani, lakini",
    ),
    term_words=("vitamini", "homa ya ini", "aina", "kundi", "daraja", "hatua", "kipengele", "mgonjwa"),
)
