"""Ukrainian (uk): prompt labels and the words that read a reply (``languages.base.Language``).

Reading words from: Wiktionary entries for these words; the Universal Dependencies Ukrainian IU treebank;
Tatoeba/OPUS parallel sentences.
"""

from xlingmed.languages.base import Language

LANGUAGE = Language(
    "uk", "Ukrainian", "Українська", "Cyrl", ("так",), ("ні",),
    answer_label="Відповідь",
    answer_phrases=("правильна відповідь", "відповідь:", "правильний варіант"),
    option_words=("варіант",),
    conclusion_cues=(
        "отже", "тому", "таким чином", "висновок", "найбільш ймовірно", "найімовірніше", "найкраща відповідь",
        "найбільш імовірний",
    ),
    negations_before=("не", "замість", "крім"),
    negations_after=(
        "не", "неправильна", "неправильний", "невірна", "невірний", "хибна", "малоймовірно", "недійсний", "некоректний",
        "не підходить", "не відповідає", "не може бути", "виключено",
    ),
    no_choice_phrases=("без зображення", "не можу визначити", "не можу відповісти", "недостатньо інформації"),
    none_phrases=("жоден з варіантів", "жоден із варіантів", "жодна з відповідей", "немає правильної відповіді"),
    refusal_phrases=("я не можу надавати медичні поради", "я не можу дати медичну пораду", "вибачте, але я не можу"),
    term_words=("вітамін", "гепатит", "тип", "група", "клас", "стадія", "фактор", "пацієнт"),
    reference_headings=("джерела", "література", "посилання"),
)
