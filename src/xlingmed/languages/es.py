"""Spanish (es): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Universal Dependencies Spanish AnCora treebank; the
RAE/ASALE Nueva gramática de la lengua española (negación).
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "es", "Spanish", "Español", "Latn", ("sí", "si"), ("no",),
    answer_label="Respuesta",
    rationale_headings=("explicación", "justificación", "razonamiento", "fundamento", "razón"),
    answer_phrases=(
        "la respuesta correcta es", "la opción correcta es", "la respuesta es", "respuesta correcta:", "respuesta:",
        "la alternativa correcta es", "la respuesta correcta sería", "la opción más adecuada es",
        "la respuesta más adecuada es", "elegiría", "elijo", "mi respuesta es", "respuesta final:",
        "la respuesta final es", "la alternativa correcta:", "las opciones correctas son",
        "las respuestas correctas son",
        # a true/false-statement question's answer ("the incorrect statement is 2")
        "la afirmación correcta es", "la afirmación incorrecta es", "la afirmación falsa es",
        "la afirmación verdadera es", "el enunciado correcto es", "el enunciado incorrecto es",
        "la opción más correcta es", "la respuesta más correcta es", "la opción incorrecta es",
        "la respuesta incorrecta es",
    ),
    option_words=("opción", "opcion", "alternativa", "letra", "inciso", "respuesta", "número", "numero"),
    counting_words=("número", "numero", "respuesta"),
    option_ordinals=(
        ("primera opción", "primera opcion", "primera alternativa", "primera respuesta", "opción primera"),
        ("segunda opción", "segunda opcion", "segunda alternativa", "segunda respuesta", "opción segunda"),
        ("tercera opción", "tercera opcion", "tercera alternativa", "tercera respuesta", "opción tercera"),
        ("cuarta opción", "cuarta opcion", "cuarta alternativa", "cuarta respuesta", "opción cuarta"),
        ("quinta opción", "quinta opcion", "quinta alternativa", "quinta respuesta", "opción quinta"),
    ),
    conclusion_cues=(
        "por lo tanto", "por tanto", "en conclusión", "conclusión", "en resumen", "por consiguiente",
        "lo más probable", "más probable", "la más adecuada", "el más adecuado", "más adecuada", "la mejor opción",
        "la mejor respuesta", "la opción correcta", "la respuesta correcta", "en definitiva", "es la correcta",
        "es correcta", "es la respuesta",
    ),
    negations_before=(
        "no", "no es", "en lugar de", "en vez de", "excepto", "descartar", "descarta", "descartamos", "salvo",
        "a diferencia de",
    ),
    negations_after=(
        "no", "incorrecta", "incorrecto", "poco probable", "menos probable", "se descarta", "descartada", "descartado",
        "falsa", "falso", "errónea", "erróneo", "improbable", "no es correcta", "no es correcto", "inválida",
        "inválido", "no encaja", "no corresponde", "no puede ser", "queda descartada", "queda descartado",
    ),
    no_choice_phrases=(
        "sin la imagen", "sin ver la imagen", "sin acceso a la imagen", "no se proporciona la imagen",
        "no se ha proporcionado", "no puedo ver la imagen", "no puedo determinar", "no es posible determinar",
        "no se puede determinar", "no puedo responder", "no puedo elegir", "no puedo seleccionar",
        "información insuficiente", "no hay suficiente información", "se necesita más información",
        "necesitaría más información", "como modelo de lenguaje", "como ia", "lo siento, pero",
        "la respuesta correcta no está entre", "no se puede elegir entre estas opciones",
    ),
    none_phrases=(
        "ninguna de las opciones", "ninguna de las alternativas", "ninguna de las respuestas",
        "ninguna opción es correcta",
    ),
    refusal_phrases=(
        "lo siento, pero no puedo", "no puedo proporcionar consejo médico", "no puedo ofrecer consejo médico",
        "no puedo dar consejo médico", "no puedo dar consejos médicos", "no puedo proporcionar consejos médicos",
        "no puedo responder a esta pregunta", "como modelo de lenguaje, no puedo", "no puedo ayudar con esto",
    ),
    term_words=(
        "vitamina", "hepatitis", "tipo", "grupo", "clase", "estadio", "etapa", "grado", "factor", "fase",
        "categoría", "influenza", "hemofilia", "toxina", "inmunoglobulina", "antígeno", "estreptococo", "células",
        "célula", "virus", "zona", "onda", "paciente", "sr", "sra", "fármaco", "medicamento", "plan", "figura",
        "tabla", "paso", "nivel",
    ),
    reference_headings=("referencias", "referencias bibliográficas", "bibliografía", "fuentes", "citas"),
    field_words=("confianza", "certeza", "pregunta"),
    affirmations=("es correcta", "es la correcta", "es la respuesta correcta", "es correcta respuesta"),
    copulas=("es", "son", "sería", "debe ser"),
    # an answer phrase after one of these in its clause is someone else's or a supposition
    reported_words=(
        "si", "suponiendo", "afirma", "afirmó", "dice", "dijo", "sugiere", "sugirió", "cree", "creía", "pensaba",
    ),
)
