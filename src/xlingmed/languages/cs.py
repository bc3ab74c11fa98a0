"""Czech (cs): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Universal Dependencies Czech PDT treebank; Tatoeba/OPUS
parallel sentences.
"""

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
        "není", "nesprávná", "nesprávné", "nesprávný", "chybná", "nepravděpodobná", "méně pravděpodobná", "neplatná",
        "neplatné", "neplatný", "nesprávně", "neodpovídá", "nemůže být", "je vyloučena", "je vyloučen",
    ),
    no_choice_phrases=(
        "bez obrázku", "nemohu určit", "nelze určit", "nemohu odpovědět", "nedostatek informací",
        "nedostatečné informace",
    ),
    none_phrases=("žádná z možností", "žádná z uvedených možností", "žádná z odpovědí", "žádná možnost není správná"),
    refusal_phrases=("nemohu poskytnout lékařskou radu", "nemohu poskytovat lékařské rady", "omlouvám se, ale nemohu"),
    term_words=(
        "vitamin", "hepatitida", "hepatitidy", "typ", "typu", "skupina", "skupiny", "třída", "stadium", "stupeň",
        "faktor", "pacient", "pacientka",
    ),
)
