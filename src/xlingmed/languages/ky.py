"""Kyrgyz (ky): prompt labels and the words that read a reply (``languages.base.Language``)."""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "ky", "Kyrgyz", "Кыргызча", "Cyrl", ("ооба",), ("жок",),
    answer_label="Жооп",
    answer_phrases=("туура жооп", "жооп:"),
    option_words=("вариант",),
    conclusion_cues=("ошондуктан", "демек", "жыйынтыгында", "корутунду", "эң ыктымал", "эң туура"),
    negations_after=("эмес", "туура эмес", "ката"),
    no_choice_phrases=("сүрөтсүз", "аныктай албайм", "жооп бере албайм", "маалымат жетишсиз"),
    term_words=("витамин", "гепатит", "түрү", "тип", "топ", "класс", "стадия", "бейтап"),
)
