"""Portuguese (pt): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Universal Dependencies Portuguese Bosque treebank; the
Priberam dictionary; Tatoeba/OPUS parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "pt", "Portuguese", "Português", "Latn", ("sim",), ("não", "nao"),
    answer_label="Resposta",
    rationale_headings=("explicação", "justificativa", "justificação", "raciocínio"),
    answer_phrases=(
        "a resposta correta é", "a alternativa correta é", "a opção correta é", "resposta correta:",
        "a resposta correta seria", "a alternativa mais adequada é", "a resposta mais adequada é",
        "a opção mais adequada é", "eu escolheria", "minha resposta é", "resposta final:",
        "a resposta final é", "resposta:", "a resposta é", "alternativa correta:", "gabarito:",
        "a alternativa certa é", "a resposta certa é",
        # a true/false-statement question's answer ("the incorrect statement is 2")
        "a afirmação correta é", "a afirmação incorreta é", "a afirmativa correta é", "a afirmativa incorreta é",
        "a alternativa incorreta é", "a opção incorreta é",
    ),
    option_words=("opção", "opcao", "alternativa", "letra", "resposta"),
    counting_words=("resposta",),
    option_ordinals=(
        ("primeira opção", "primeira opcao", "primeira alternativa", "primeira resposta"),
        ("segunda opção", "segunda opcao", "segunda alternativa", "segunda resposta"),
        ("terceira opção", "terceira opcao", "terceira alternativa", "terceira resposta"),
        ("quarta opção", "quarta opcao", "quarta alternativa", "quarta resposta"),
        ("quinta opção", "quinta opcao", "quinta alternativa", "quinta resposta"),
    ),
    conclusion_cues=(
        "portanto", "logo", "dessa forma", "desta forma", "em conclusão", "conclusão", "em resumo", "por isso",
        "consequentemente", "o mais provável", "a mais provável", "mais provável", "a mais adequada",
        "mais adequada", "a melhor opção", "a melhor alternativa", "a melhor resposta", "a alternativa correta",
        "a resposta correta", "concluindo", "é a correta", "está correta", "é a resposta",
    ),
    negations_before=(
        "não", "não é", "nem", "em vez de", "ao invés de", "exceto", "descartar", "descarta", "descartamos",
        "excluir", "exclui", "ao contrário de",
    ),
    negations_after=(
        "não", "incorreta", "incorreto", "pouco provável", "menos provável", "descartada", "descartado", "falsa",
        "falso", "errada", "errado", "improvável", "não é correta", "não é correto", "inválida", "inválido",
        "não se encaixa", "não corresponde", "não pode ser", "é descartada", "é descartado",
    ),
    no_choice_phrases=(
        "sem a imagem", "sem ver a imagem", "sem acesso à imagem", "a imagem não", "não foi fornecida",
        "não foi fornecido", "não posso ver a imagem", "não consigo ver a imagem", "não posso determinar",
        "não consigo determinar", "não é possível determinar", "não posso responder", "não consigo responder",
        "não posso escolher", "informação insuficiente", "informações insuficientes", "não há informações suficientes",
        "como modelo de linguagem", "como ia", "desculpe, mas", "a resposta correta não está entre",
    ),
    none_phrases=(
        "nenhuma das alternativas", "nenhuma das opções", "nenhuma das respostas", "nenhuma alternativa está correta",
    ),
    refusal_phrases=(
        "desculpe, mas não posso", "não posso fornecer aconselhamento médico", "não posso dar conselhos médicos",
        "não posso fazer um diagnóstico",
    ),
    term_words=(
        "vitamina", "hepatite", "tipo", "grupo", "classe", "estágio", "estadio", "grau", "fator", "fase",
        "categoria", "influenza", "hemofilia", "toxina", "imunoglobulina", "antígeno", "estreptococo", "células",
        "célula", "vírus", "zona", "onda", "paciente", "sr", "sra", "fármaco", "medicamento", "plano", "figura",
        "tabela", "nível",
    ),
    reference_headings=("referências", "referências bibliográficas", "bibliografia", "fontes"),
    field_words=("confiança", "pergunta"),
    affirmations=("é correta", "é a correta", "é a resposta correta"),
    copulas=("é", "são", "seria", "deve ser"),
)
