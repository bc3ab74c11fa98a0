"""Kyrgyz (ky): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Universal Dependencies Kyrgyz KTMU treebank; FLORES-200
parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "ky", "Kyrgyz", "Кыргызча", "Cyrl", ("ооба",), ("жок",),
    answer_label="Жооп",
    answer_phrases=("туура жооп", "жооп:"),
    option_words=("вариант",),
    conclusion_cues=("ошондуктан", "демек", "жыйынтыгында", "корутунду", "эң ыктымал", "эң туура"),
    negations_after=("эмес", "туура эмес", "ката", "жараксыз", "туура келбейт", "болушу мүмкүн эмес"),
    no_choice_phrases=("сүрөтсүз", "аныктай албайм", "жооп бере албайм", "маалымат жетишсиз"),
    none_phrases=("варианттардын бири да", "бири да туура эмес", "туура жооп жок"),
    refusal_phrases=("медициналык кеңеш бере албайм", "кечиресиз, бирок мен жооп бере албайм"),
    term_words=("витамин", "гепатит", "түрү", "тип", "топ", "класс", "стадия", "бейтап"),
)
