"""German (de): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Universal Dependencies German GSD treebank; Duden, Die
Grammatik (Negation); Tatoeba/OPUS parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "de", "German", "Deutsch", "Latn", ("ja",), ("nein",),
    answer_label="Antwort",
    rationale_headings=("begründung", "erklärung", "erläuterung"),
    answer_phrases=(
        "die richtige antwort ist", "die korrekte antwort ist", "richtige antwort:", "die richtige antwort wäre",
        "ich würde wählen", "ich wähle", "meine antwort ist", "antwort:", "die antwort ist",
        "die beste antwort ist", "endgültige antwort:", "lösung:",
    ),
    option_words=("antwort", "buchstabe", "option", "antwortmöglichkeit", "möglichkeit"),
    counting_words=("antwort",),
    option_ordinals=(
        ("erste option", "erste antwort", "erste möglichkeit", "erste antwortmöglichkeit"),
        ("zweite option", "zweite antwort", "zweite möglichkeit", "zweite antwortmöglichkeit"),
        ("dritte option", "dritte antwort", "dritte möglichkeit", "dritte antwortmöglichkeit"),
        ("vierte option", "vierte antwort", "vierte möglichkeit", "vierte antwortmöglichkeit"),
        ("fünfte option", "fünfte antwort", "fünfte möglichkeit", "fünfte antwortmöglichkeit"),
    ),
    conclusion_cues=(
        "daher", "deshalb", "somit", "folglich", "zusammenfassend", "fazit", "schlussfolgerung",
        "am wahrscheinlichsten", "die wahrscheinlichste", "wahrscheinlichste", "die beste antwort",
        "die beste option", "am besten geeignet", "ist richtig", "ist korrekt", "die richtige antwort",
    ),
    negations_before=(
        "nicht", "kein", "keine", "statt", "anstatt", "anstelle von", "außer", "ausschließen", "im gegensatz zu",
    ),
    negations_after=(
        "nicht", "falsch", "unwahrscheinlich", "weniger wahrscheinlich", "ausgeschlossen", "unzutreffend", "ungültig",
        "nicht korrekt", "nicht richtig", "passt nicht", "kann nicht", "scheidet aus", "trifft nicht zu",
    ),
    no_choice_phrases=(
        "ohne das bild", "ohne die abbildung", "ohne das foto", "kann ich nicht bestimmen",
        "kann ich nicht feststellen", "nicht möglich zu bestimmen", "kann ich nicht beantworten",
        "kann ich nicht auswählen", "nicht genügend informationen", "unzureichende informationen", "als ki",
        "als sprachmodell", "es tut mir leid, aber", "die richtige antwort ist nicht unter",
        "kann keine der optionen auswählen",
    ),
    none_phrases=(
        "keine der optionen", "keine der antworten", "keine der antwortmöglichkeiten", "keine option ist richtig",
        "keine der aussagen ist richtig",
    ),
    refusal_phrases=(
        "es tut mir leid, aber ich kann", "ich kann keine medizinische beratung",
        "ich kann keine medizinischen ratschläge", "ich kann diese frage nicht beantworten",
        "ich kann keine diagnose stellen",
    ),
    term_words=(
        "vitamin", "hepatitis", "typ", "gruppe", "klasse", "stadium", "grad", "faktor", "phase", "kategorie",
        "influenza", "hämophilie", "toxin", "immunglobulin", "antigen", "streptokokken", "zellen", "zelle", "virus",
        "zone", "welle", "patient", "patientin", "herr", "frau", "medikament", "plan", "abbildung", "tabelle",
        "stufe",
    ),
    reference_headings=("quellen", "literatur", "literaturverzeichnis", "referenzen"),
    field_words=("frage", "konfidenz"),
    affirmations=("ist richtig", "ist korrekt", "ist die richtige antwort"),
    copulas=("ist", "sind", "wäre"),
)
