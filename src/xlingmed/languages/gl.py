"""Galician (gl): prompt labels and the words that read a reply (``languages.base.Language``). HEAD-QA v2's
Galician exams (machine translated from Spanish) ask with options numbered 1–5.

Reading words from: Wiktionary entries for these words; the Universal Dependencies Galician CTG treebank; the Real
Academia Galega's dictionary (DRAG); Tatoeba/OPUS parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "gl", "Galician", "Galego", "Latn", ("si", "sí"), ("non",),
    answer_label="Resposta",
    rationale_headings=("explicación", "xustificación", "razoamento", "fundamento", "razón"),
    answer_phrases=(
        "a resposta correcta é", "a opción correcta é", "a resposta é", "resposta correcta:", "resposta:",
        "a alternativa correcta é", "a resposta correcta sería", "a opción máis axeitada é",
        "a resposta máis axeitada é", "a miña resposta é", "resposta final:",
        "a resposta final é",
    ),
    option_words=("opción", "alternativa", "letra", "resposta", "número", "numero"),
    counting_words=("número", "numero", "resposta"),
    option_ordinals=(
        ("primeira opción", "primeira alternativa", "primeira resposta"),
        ("segunda opción", "segunda alternativa", "segunda resposta"),
        ("terceira opción", "terceira alternativa", "terceira resposta"),
        ("cuarta opción", "cuarta alternativa", "cuarta resposta"),
        ("quinta opción", "quinta alternativa", "quinta resposta"),
    ),
    conclusion_cues=(
        "polo tanto", "por tanto", "en conclusión", "conclusión", "en resumo", "por conseguinte",
        "o máis probable", "máis probable", "a máis axeitada", "o máis axeitado", "máis axeitada", "a mellor opción",
        "a mellor resposta", "a opción correcta", "a resposta correcta", "en definitiva", "é a correcta",
        "é correcta", "é a resposta",
    ),
    negations_before=("non", "non é", "en lugar de", "en vez de", "agás", "excepto", "descartar", "descarta", "salvo"),
    negations_after=(
        "non", "incorrecta", "incorrecto", "pouco probable", "menos probable", "descártase", "descartada", "descartado",
        "falsa", "falso", "errónea", "erróneo", "improbable", "non é correcta", "non é correcto", "non é válida",
        "non encaixa", "non pode ser",
    ),
    no_choice_phrases=(
        "sen a imaxe", "sen ver a imaxe", "non se proporciona a imaxe", "non podo ver a imaxe", "non podo determinar",
        "non é posible determinar", "non se pode determinar", "non podo responder", "non podo escoller",
        "información insuficiente", "non hai información suficiente", "necesítase máis información",
        "como modelo de linguaxe", "síntoo, pero", "ningunha das opcións",
    ),
    none_phrases=("ningunha das opcións", "ningunha das respostas", "ningunha opción é correcta"),
    refusal_phrases=(
        "síntoo, pero non podo", "non podo proporcionar consello médico", "non podo dar consello médico",
        "non podo responder a esta pregunta", "como modelo de linguaxe, non podo",
    ),
    term_words=(
        "vitamina", "hepatite", "tipo", "grupo", "clase", "estadio", "etapa", "grao", "factor", "fase", "categoría",
        "gripe", "hemofilia", "toxina", "inmunoglobulina", "antíxeno", "células", "célula", "virus", "zona", "onda",
        "paciente", "fármaco", "medicamento", "figura", "táboa", "nivel",
    ),
    reference_headings=("referencias", "bibliografía", "fontes", "citas"),
)
