"""Czech (cs): prompt labels and the words that read a reply (``languages.base.Language``)."""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "cs", "Czech", "Čeština", "Latn", ("ano",), ("ne",),
    answer_label="Odpověď",
    answer_phrases=("správná odpověď je", "správná odpověď:", "odpověď:", "odpověď je"),
    option_words=("možnost",),
    conclusion_cues=(
        "proto", "tedy", "tudíž", "závěrem", "závěr", "shrnuto", "nejpravděpodobnější", "nejpravděpodobněji",
        "nejlepší odpověď", "nejvhodnější", "je správná",
    ),
    negations_before=("ne", "není", "nikoli", "místo", "kromě"),
    negations_after=(
        "není", "nesprávná", "nesprávné", "nesprávný", "chybná", "nepravděpodobná", "méně pravděpodobná",
    ),
    no_choice_phrases=(
        "bez obrázku", "nemohu určit", "nelze určit", "nemohu odpovědět", "nedostatek informací",
        "nedostatečné informace",
    ),
    term_words=(
        "vitamin", "hepatitida", "hepatitidy", "typ", "typu", "skupina", "skupiny", "třída", "stadium", "stupeň",
        "faktor", "pacient", "pacientka",
    ),
)
