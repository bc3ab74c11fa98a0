"""Ukrainian (uk): prompt labels and the words that read a reply (``languages.base.Language``)."""

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
    negations_after=("не", "неправильна", "неправильний", "невірна", "невірний", "хибна", "малоймовірно"),
    no_choice_phrases=("без зображення", "не можу визначити", "не можу відповісти", "недостатньо інформації"),
    term_words=("вітамін", "гепатит", "тип", "група", "клас", "стадія", "фактор", "пацієнт"),
    reference_headings=("джерела", "література", "посилання"),
)
