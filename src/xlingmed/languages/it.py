"""Italian (it): prompt labels and the words that read a reply (``languages.base.Language``)."""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "it", "Italian", "Italiano", "Latn", ("sì", "si"), ("no",),
    answer_label="Risposta",
    rationale_headings=("spiegazione", "giustificazione", "motivazione", "ragionamento"),
    answer_phrases=(
        "la risposta corretta è", "la risposta giusta è", "la risposta è", "risposta corretta:",
        "la mia risposta è", "risposta:", "risposta finale:", "l'opzione corretta è", "la scelta corretta è",
        "l'alternativa corretta è",
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
        "falsa", "falso",
    ),
    no_choice_phrases=(
        "senza l'immagine", "senza vedere l'immagine", "non posso vedere l'immagine", "non posso determinare",
        "non è possibile determinare", "non posso rispondere", "non posso scegliere", "informazioni insufficienti",
        "come ia", "come modello linguistico", "nessuna delle opzioni", "nessuna delle risposte", "mi dispiace, ma",
    ),
    refusal_phrases=("mi dispiace, ma non posso", "non posso fornire consigli medici"),
    term_words=(
        "vitamina", "epatite", "tipo", "gruppo", "classe", "stadio", "grado", "fattore", "fase", "categoria",
        "influenza", "emofilia", "tossina", "immunoglobulina", "antigene", "streptococco", "cellule", "cellula",
        "virus", "zona", "onda", "paziente", "sig", "farmaco", "piano", "figura", "tabella", "livello",
    ),
    reference_headings=("riferimenti", "bibliografia", "fonti"),
)
