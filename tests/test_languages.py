"""The language registry: every hub language has a row, labels past the script's letters, replies in new scripts."""

from __future__ import annotations

import pytest

from xlingmed.benchmarks import benchmarks
from xlingmed.errors import ConfigError
from xlingmed.languages import LANGUAGES, get_language, option_labels
from xlingmed.parsing.choice import extract_choice
from xlingmed.tasks.multiple_choice import format_options
from xlingmed.tasks.verifiability import parse_strict
from xlingmed.types import Choice, Item


def test_every_language_a_registered_benchmark_declares_has_a_row() -> None:
    missing = {(spec.name, lang) for spec in benchmarks().values() for lang in spec.languages if lang not in LANGUAGES}
    assert missing == set()
    assert {"he", "fa", "ur", "ar"} <= {c for c, lang in LANGUAGES.items() if lang.rtl}
    assert get_language("sw").name == "Swahili" and get_language("am").script == "Ethi"


def test_the_new_languages_answer_phrases_are_word_pairs_or_end_in_a_colon() -> None:
    # phrases of every language are searched in every reply; one ordinary word would read plain text as an answer.
    # Japanese and Korean mark the topic on the word itself ("正解は", "정답은": "the correct answer is"); Thai
    # writes no spaces between words; Bengali's visarga (ঃ) is its colon.
    new = [lang for code, lang in LANGUAGES.items() if code not in ("en", "es", "zh", "hi", "ar")]
    loose = [(lang.code, p) for lang in new for p in lang.answer_phrases if len(p) < 3 and not p.endswith(":")]
    loose += [(lang.code, p) for lang in new if lang.script not in ("Jpan", "Kore", "Thai")
              for p in lang.answer_phrases if " " not in p and not p.endswith((":", "ঃ"))]  # fmt: skip
    assert loose == []


def test_option_labels_fall_back_to_latin_for_the_whole_question() -> None:
    assert option_labels("ar", 4) == ("أ", "ب", "ج", "د")
    assert option_labels("ar", 10) == tuple("ABCDEFGHIJ")
    assert option_labels("ja", 10) == tuple("ABCDEFGHIJ")
    with pytest.raises(ConfigError, match="11 options"):
        option_labels("en", 11)
    choices = tuple(Choice(c, c, f"خيار {c}") for c in "ABCDEFGHIJ")
    item = Item("q1", "mmlu-prox/health", "ar", "سؤال", "", choices=choices, gold_label="J")
    lines = format_options(item).splitlines()
    assert lines[0] == "A. خيار A" and lines[-1] == "J. خيار J"


@pytest.mark.parametrize(
    ("reply", "expected", "method"),
    [
        ("La bonne réponse est C.", "C", "phrase"),
        ("Die richtige Antwort ist B, weil das Pankreas Insulin bildet.", "B", "phrase"),
        ("La risposta corretta è D", "D", "phrase"),
        ("A resposta correta é B) Fígado", "B", "phrase"),
        ("Правильный ответ: C", "C", "phrase"),
        ("正解は C です。", "C", "phrase"),
        ("정답은 B입니다.", "B", "phrase"),
        ("Jibu sahihi ni A.", "A", "phrase"),
        ("Đáp án đúng là D.", "D", "phrase"),
        ("The correct answer is J. Ear", "J", "phrase"),
    ],
)
def test_replies_in_the_new_languages_are_read(reply: str, expected: str, method: str) -> None:
    parsed = extract_choice(reply, list("ABCDEFGHIJ"))
    assert (parsed.value, parsed.method) == (expected, method)


@pytest.mark.parametrize(
    ("reply", "lang", "value"),
    [("Oui, c'est exact.", "fr", 1), ("Nein.", "de", 0), ("はい、そうです。", "ja", 1), ("아니요, 아닙니다.", "ko", 0),
     ("Ndiyo.", "sw", 1), ("Hapana", "sw", 0), ("Peut-être.", "fr", -1)],
)  # fmt: skip
def test_yes_no_words_of_the_new_languages(reply: str, lang: str, value: int) -> None:
    assert parse_strict(reply, lang).value == value
