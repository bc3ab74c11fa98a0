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


def test_every_language_has_negations_no_choice_none_and_refusal_phrases() -> None:
    # every language's words are read in every reply: each must be able to reject an option, choose nothing, say
    # that no option is right and decline a medical question
    missing = [
        (code, field)
        for code, lang in LANGUAGES.items()
        for field, words in (
            ("negations", lang.negations_before + lang.negations_after), ("no_choice_phrases", lang.no_choice_phrases),
            ("none_phrases", lang.none_phrases), ("refusal_phrases", lang.refusal_phrases),
        )
        if not words
    ]  # fmt: skip
    assert missing == []


# (language, a reply that rejects option B and then states C, the rejection of B alone)
_REJECTS_B_STATES_C = [
    ("fa", "گزینه B نامعتبر است و با علائم همخوانی ندارد. پاسخ صحیح C است.", "B نامعتبر است."),
    ("ru", "Вариант B недопустим: он не соответствует симптомам. Правильный ответ: C.", "B недействителен."),
    ("ar", "الخيار ب غير صالح لأنه لا يتوافق مع الأعراض. الإجابة الصحيحة هي ج.", "ب غير صالح."),
    ("hi", "विकल्प B अमान्य है क्योंकि यह लक्षणों से मेल नहीं खाता। सही उत्तर है C।", "B अमान्य है।"),
    ("th", "ข้อ B ไม่สอดคล้องกับอาการ คำตอบที่ถูกต้องคือ C", "B ไม่สอดคล้องกับอาการ"),
    ("sw", "Chaguo B haifai kwa sababu hailingani na dalili. Jibu sahihi ni C.", "B haifai."),
    ("yo", "Àṣàyàn B kò bá a mu pẹ̀lú àmì àìsàn náà. Ìdáhùn tó tọ́ ni C.", "B kò wúlò."),
    ("zu", "Inketho B akuhambisani nezimpawu. Impendulo efanele ngu C.", "B akuhambisani."),
    ("ko", "B는 증상과 맞지 않습니다. 정답은 C입니다.", "B는 유효하지 않습니다."),
]


@pytest.mark.parametrize(("lang", "reply", "rejection"), _REJECTS_B_STATES_C, ids=[c[0] for c in _REJECTS_B_STATES_C])
def test_a_rejected_option_then_the_stated_answer_reads_the_answer(lang: str, reply: str, rejection: str) -> None:
    parsed = extract_choice(reply, list("ABCD"))
    assert (parsed.value, parsed.method) == ("C", "phrase")
    # the rejection words themselves: "B is invalid" alone never reads B (it read B as the last line before)
    assert extract_choice(rejection, list("ABCD")).value is None


# (language, a reply that finds no option right and names option A's text, option A's text)
_NONE_OF_THE_OPTIONS = [
    ("fa", "هیچ‌کدام از گزینه‌ها درست نیست؛ حتی «آسپرین» هم مناسب نیست.", "آسپرین"),
    ("fa", "هیچکدام از گزینهها درست نیست؛ حتی آسپرین هم مناسب نیست.", "آسپرین"),  # joined: no ZWNJ
    ("fa", "هیچ یک از گزینه ها درست نیست؛ حتی آسپرین هم مناسب نیست.", "آسپرین"),  # spaced
    ("ru", "Ни один из вариантов не подходит: даже аспирин здесь не поможет.", "Аспирин"),
    ("ar", "لا يوجد خيار صحيح، فحتى الأسبرين لا يناسب هذه الحالة.", "الأسبرين"),
    ("hi", "कोई भी विकल्प सही नहीं है; एस्पिरिन भी यहाँ उपयुक्त नहीं है।", "एस्पिरिन"),
    ("th", "ไม่มีข้อใดถูกต้อง แม้แต่แอสไพรินก็ไม่เหมาะสม", "แอสไพริน"),
    ("sw", "Hakuna chaguo sahihi; hata aspirini haifai hapa.", "Aspirini"),
    ("yo", "Kò sí ìdáhùn tó tọ́ nínú wọn; kódà aspirin kò wúlò níbí.", "Aspirin"),
    ("zu", "Ayikho impendulo efanele; ngisho i-aspirin ayisizi lapha.", "Aspirin"),
    ("ko", "보기 중 정답이 없습니다. 아스피린도 적절하지 않습니다.", "아스피린"),
]


@pytest.mark.parametrize(("lang", "reply", "text_a"), _NONE_OF_THE_OPTIONS, ids=[c[0] for c in _NONE_OF_THE_OPTIONS])
def test_a_reply_that_finds_no_option_right_chooses_none(lang: str, reply: str, text_a: str) -> None:
    options = {"A": text_a, "B": "Heparin", "C": "Warfarin", "D": "Clopidogrel"}
    assert extract_choice(text_a, list("ABCD"), options=options).value == "A"  # the text alone is option A
    parsed = extract_choice(reply, list("ABCD"), options=options)
    assert (parsed.value, parsed.method) == (None, "refused")


@pytest.mark.parametrize(
    "reply",
    ["The answer is none of the above.", "After reviewing, none of the above is correct.", "None of the above."],
)
def test_none_of_the_above_as_an_options_text_is_still_that_option(reply: str) -> None:
    # "none of the above" is often an option's own text (MedMCQA): it is no none_phrase in any language, so a reply
    # naming it chooses that option
    options = {"A": "Aspirin", "B": "Heparin", "C": "Warfarin", "D": "None of the above"}
    assert extract_choice(reply, list("ABCD"), options=options).value == "D"


@pytest.mark.parametrize(
    ("reply", "expected"),
    [("【正解】C", "C"), ("【回答】\nB", "B"), ("最も適切なのはCです。", "C"), ("正しい説明はDである。", "D"),
     ("Aは誤り。正しいのはEです。", "E"), ("以上より、適切なのはB。", "B")],
)  # fmt: skip
def test_japanese_answer_phrases_of_exam_replies(reply: str, expected: str) -> None:
    parsed = extract_choice(reply, list("ABCDE"))
    assert (parsed.value, parsed.method) == (expected, "phrase")
