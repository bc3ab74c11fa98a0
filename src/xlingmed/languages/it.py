"""Italian (it): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Universal Dependencies Italian ISDT treebank; the
Treccani dictionary; Tatoeba/OPUS parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "it", "Italian", "Italiano", "Latn", ("sì", "si"), ("no",),
    answer_label="Risposta",
    rationale_headings=("spiegazione", "giustificazione", "motivazione", "ragionamento"),
    answer_phrases=(
        "la risposta corretta è", "la risposta giusta è", "la risposta è", "risposta corretta:",
        "la mia risposta è", "risposta:", "risposta finale:", "l'opzione corretta è", "la scelta corretta è",
        "l'alternativa corretta è",
        # a true/false-statement question's answer ("the incorrect statement is 2")
        "l'affermazione corretta è", "l'affermazione errata è", "l'affermazione falsa è", "l'affermazione vera è",
    ),
    option_words=("opzione", "lettera", "scelta", "alternativa", "risposta"),
    counting_words=("risposta",),
    option_ordinals=(
        ("prima opzione", "prima risposta", "prima alternativa", "prima scelta"),
        ("seconda opzione", "seconda risposta", "seconda alternativa", "seconda scelta"),
        ("terza opzione", "terza risposta", "terza alternativa", "terza scelta"),
        ("quarta opzione", "quarta risposta", "quarta alternativa", "quarta scelta"),
        ("quinta opzione", "quinta risposta", "quinta alternativa", "quinta scelta"),
    ),
    conclusion_cues=(
        "quindi", "pertanto", "dunque", "perciò", "in conclusione", "conclusione", "in sintesi", "il più probabile",
        "la più probabile", "più probabile", "la più appropriata", "più appropriata", "la risposta migliore",
        "l'opzione migliore", "la risposta corretta", "è corretta", "è la risposta",
    ),
    negations_before=(
        "non", "non è", "né", "invece di", "anziché", "piuttosto che", "tranne", "escludere", "esclude",
        "a differenza di",
    ),
    negations_after=(
        "non", "errata", "errato", "sbagliata", "sbagliato", "improbabile", "meno probabile", "esclusa", "escluso",
        "falsa", "falso", "non è corretta", "non è corretto", "non valida", "non valido", "non corrisponde",
        "non può essere",
    ),
    no_choice_phrases=(
        "senza l'immagine", "senza vedere l'immagine", "non posso vedere l'immagine", "non posso determinare",
        "non è possibile determinare", "non posso rispondere", "non posso scegliere", "informazioni insufficienti",
        "come ia", "come modello linguistico", "nessuna delle opzioni", "nessuna delle risposte", "mi dispiace, ma",
    ),
    none_phrases=(
        "nessuna delle opzioni", "nessuna delle risposte", "nessuna delle alternative", "nessuna opzione è corretta",
    ),
    refusal_phrases=(
        "mi dispiace, ma non posso", "non posso fornire consigli medici", "non posso dare consigli medici",
        "non posso formulare una diagnosi",
    ),
    term_words=(
        "vitamina", "epatite", "tipo", "gruppo", "classe", "stadio", "grado", "fattore", "fase", "categoria",
        "influenza", "emofilia", "tossina", "immunoglobulina", "antigene", "streptococco", "cellule", "cellula",
        "virus", "zona", "onda", "paziente", "sig", "farmaco", "piano", "figura", "tabella", "livello",
    ),
    reference_headings=("riferimenti", "bibliografia", "fonti"),
    field_words=("domanda",),
    affirmations=("è corretta", "è la risposta corretta"),
    copulas=("è", "sono", "sarebbe"),
)
