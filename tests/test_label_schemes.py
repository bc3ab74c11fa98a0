"""Replies read in the labels their exam used, and never guessed (issue 46): numbered options (Spain's MIR,
HEAD-QA), circled numbers (Korea's licensing exams), lower-case letters (Japan's), answers given by an option's
content, reference lists and citations, "which is NOT" questions, answers that list several options, replies that
choose nothing. Every reply is invented, in the shapes real models write; each is read at 500-3,000 characters too,
behind a long reasoning that names other options in passing."""

from __future__ import annotations

from pathlib import Path

import pytest
from reply_shapes import INTRO, REASON

from xlingmed.parsing.choice import extract_choice, label_scheme
from xlingmed.parsing.methods import kind_of

NUMBERS = ["1", "2", "3", "4"]
CIRCLED = ["①", "②", "③", "④", "⑤"]
LOWER = ["a", "b", "c", "d", "e"]
LETTERS = ["A", "B", "C", "D", "E"]
ES = {"A": "Aumento de la creatinina sérica", "B": "Iniciar anticoagulación con heparina de bajo peso molecular",
      "C": "Disminución de la hemoglobina glicosilada", "D": "Náuseas y vómitos persistentes"}  # fmt: skip
EN = {"A": "Increase in serum creatinine", "B": "Start anticoagulation with low-molecular-weight heparin",
      "C": "Decrease in glycated haemoglobin", "D": "Persistent nausea and vomiting"}  # fmt: skip
KO = {"A": "요산 검사", "B": "크레아틴 키나아제", "C": "간기능 검사", "D": "갑상샘 기능 검사", "E": "흉부 X선"}
ZH = {"A": "可引起低钾血症", "B": "可用于治疗高血压", "C": "属于袢利尿剂", "D": "可引起高钙血症", "E": "作用于远曲小管"}
JA = {k: "" for k in LETTERS}  # option texts never published: read by the labels alone
REFERENCES = (
    "\n\n### References\n1. Neonatal sepsis: A Review. Smith J, Lee K. Pediatrics. 2021;147(3):e2020.\n"
    "2. Anticoagulation in practice. Doe A, et al. Chest. 2019;155(2):301-9. doi:10.1016/j.chest.2019.01.002.\n"
    "3. https://www.example.org/guidelines/C-section [4][5]"
)

# (language, reply, options, labels shown, the option it commits to or None, the method's kind)
CASES = [
    ("es", "La respuesta correcta es la número 3. Además, el fármaco puede causar náuseas y vómitos persistentes.",
     ES, NUMBERS, "C", "read"),
    ("es", "Respuesta: 2. Iniciar anticoagulación con heparina de bajo peso molecular.", ES, NUMBERS, "B", "read"),
    ("es", "**La opción más adecuada es la 1: aumento de la creatinina sérica.**", ES, NUMBERS, "A", "read"),
    ("es", "La conducta más adecuada es **iniciar anticoagulación con heparina de bajo peso molecular**, dado el "
     "riesgo trombótico." + REFERENCES, ES, NUMBERS, "B", "read"),
    ("es", "No estoy seguro; quizá la 1, o la 3.", ES, NUMBERS, None, "unread"),
    ("es", "Las opciones correctas son:\n1) Aumento de la creatinina sérica\n3) Disminución de la hemoglobina "
     "glicosilada", ES, NUMBERS, None, "unread"),
    ("en", "The answer is 3.", EN, NUMBERS, "C", "read"),
    ("en", "The most likely correct answer, given all of the above, is:\n\n**2. Start anticoagulation with "
     "low-molecular-weight heparin.**", EN, NUMBERS, "B", "read"),
    ("en", "I need to know what \"A\" represents before I can answer.", EN, NUMBERS, None, "unread"),
    ("en", "The patient should start heparin now, in line with the evidence." + REFERENCES, EN, NUMBERS, None,
     "unread"),
    ("en", "The correct answer is number 4. Persistent nausea and vomiting is not usually seen with this drug, "
     "unlike the other three.", EN, NUMBERS, "D", "read"),  # which is NOT: what follows describes the answer
    ("es", "The correct answer is **3.**\n\nDisminución de la hemoglobina glicosilada no es un efecto adverso, "
     "por eso es la excepción.", ES, NUMBERS, "C", "read"),
    ("en", "Reasons:\n1 - Increase in serum creatinine is expected (option 1).\n2 - Anticoagulation fits (contrary to "
     "option 2).\n3 - Glycated haemoglobin falls (opposed to option 3).", EN, NUMBERS, None, "unread"),
    ("ko", "그림이 없어 정확한 답변을 드리기 어렵습니다. 하지만 하나를 골라야 하므로 추측하면:\n\n③", KO, CIRCLED, "C",
     "read"),  # it says it cannot be sure, then states one option on a line of its own
    ("ko", "Please provide the reagents listed in options ① through ⑤.", KO, CIRCLED, None, "unread"),
    ("ko", "② 크레아틴 키나아제", KO, CIRCLED, "B", "read"),
    ("ko", "환자의 소견을 종합하면 간 손상이 의심됩니다.\n\n답: ③ 간기능 검사", KO, CIRCLED, "C", "read"),
    ("ko", "A 의원의 B 원장은 보건소장의 허가를 받아야 합니다. 따라서 B 원장이 해야 할 일은 허가 신청입니다.",
     KO, CIRCLED, None, "unread"),
    ("ko", "정답을 고를 수 없습니다. ④ 또는 ⑤ 중 하나일 것 같습니다.", KO, CIRCLED, None, "refused"),
    ("zh", "分析各选项：A项正确，B项正确，C项正确，E项正确。答案是D：可引起高钙血症，这个说法是错误的。", ZH,
     LETTERS, "D", "read"),
    ("zh", "逐一分析后，所以无法确定哪一个选项正确。A、C都有可能。", ZH, LETTERS, None, "refused"),
    ("ja", "各選択肢を検討した。したがって、正解は c である。", JA, LOWER, "C", "read"),
    ("ja", "※質問に胸部エックス線写真(a)および胸部単純CT(b)が含まれていないため、正確な診断が難しいです。", JA,
     LOWER, None, "refused"),
]  # fmt: skip


def _read(reply: str, options: dict[str, str], labels: list[str], reading: str = "lenient") -> tuple[str | None, str]:
    parsed = extract_choice(reply, list(options), options=options, labels=labels, reading=reading)
    return parsed.value, kind_of(parsed.method)


@pytest.mark.parametrize(("lang", "reply", "options", "labels", "value", "kind"), CASES)
def test_replies_are_read_in_their_exams_labels(
    lang: str, reply: str, options: dict[str, str], labels: list[str], value: str | None, kind: str
) -> None:
    assert _read(reply, options, labels) == (value, kind)


@pytest.mark.parametrize(("lang", "reply", "options", "labels", "value", "kind"), CASES)
def test_the_same_after_a_long_reasoning(
    lang: str, reply: str, options: dict[str, str], labels: list[str], value: str | None, kind: str
) -> None:
    # 500-3,000 characters of reasoning first, in the reply's language where there is one (English otherwise)
    intro, reason = INTRO.get(lang, INTRO["en"]), REASON.get(lang, REASON["en"])
    head = intro
    while len(head) + len(reply) < 600:
        head += f"\n\n{reason}. {intro}"
    long = f"{head}\n\n{reply}"
    assert 500 <= len(long) <= 3000
    assert _read(long, options, labels) == (value, kind)


def test_label_schemes() -> None:
    assert [label_scheme(x) for x in (NUMBERS, CIRCLED, LOWER, LETTERS, None, ["أ", "ب"], ["1.", "2."])] == [
        "numbers", "circled", "lower", "letters", "letters", "letters", "numbers",
    ]  # fmt: skip


def test_a_letter_is_no_label_of_a_numbered_exam_but_is_of_a_lettered_one() -> None:
    reply = "Therefore the answer is B."
    assert _read(reply, EN, NUMBERS) == (None, "unread")
    assert _read(reply, EN, LETTERS[:4]) == ("B", "read")


def test_an_option_named_in_passing_on_the_last_line_is_a_fallback() -> None:
    # the reply never states an answer: its last line mentions one option's text among other words
    reply = "Several things could explain this.\nIt is worth checking for persistent nausea and vomiting first."
    assert _read(reply, EN, NUMBERS) == ("D", "fallback")
    assert _read(reply, EN, NUMBERS, reading="strict") == (None, "unread")  # the default withholds the guess
    assert _read("Several things could explain this.\n**4. Persistent nausea and vomiting**", EN, NUMBERS) == (
        "D", "read",
    )  # fmt: skip


# An option named by its place ("the third option"), in the exam's labels or none: read as that option; an
# ordinal that names no option ("first-line", "the first thing") is nothing.
ORDINALS = [
    ("en", "The correct answer is the third option.", EN, LETTERS[:4], "C"),
    ("en", "Option two is correct: anticoagulation comes first.", EN, NUMBERS, "B"),
    ("es", "La respuesta correcta es la tercera opción.", ES, NUMBERS, "C"),
    ("pt", "A resposta correta é a segunda alternativa.", EN, LETTERS[:4], "B"),
    ("zh", "综上所述，答案是第四个选项。", ZH, LETTERS, "D"),
    ("ko", "따라서 정답은 세 번째 보기입니다.", KO, CIRCLED, "C"),
    ("ja", "したがって、正解は2番目の選択肢である。", JA, LOWER, "B"),
    ("ru", "Правильный ответ — первый вариант.", EN, LETTERS[:4], "A"),
    ("en", "First-line treatment is heparin; the first thing to do is to confirm the diagnosis.", EN, LETTERS[:4],
     None),
]  # fmt: skip


@pytest.mark.parametrize(("lang", "reply", "options", "labels", "value"), ORDINALS)
def test_an_option_named_by_its_place(
    lang: str, reply: str, options: dict[str, str], labels: list[str], value: str | None
) -> None:
    got, kind = _read(reply, options, labels)
    assert got == value and kind == ("read" if value else "unread")


# Options labelled with syllables or Roman numerals (가–마, ア–オ, I–V): labels only where the prompt showed them,
# and only where one stands alone; a syllable inside a word, or a pronoun, is none.
SYLLABLES = [
    ("ko", "정답은 다입니다.", list("가나다라마"), "C"),
    ("ko", "다른 선택지는 틀렸습니다. 따라서 정답은 나입니다.", list("가나다라마"), "B"),
    ("ko", "정답: 라", list("가나다라마"), "D"),
    ("ko", "나는 다를 고르겠습니다.", list("가나다라마"), None),  # 나는 = "I"; 다를 (a particle): never a guess
    ("ja", "正解はウです。", list("アイウエオ"), "C"),
    ("ja", "アスピリンが第一選択である。したがって、正解はエ。", list("アイウエオ"), "D"),
    ("en", "I think the answer is IV.", ["I", "II", "III", "IV", "V"], "D"),
    ("en", "I cannot tell without the image.", ["I", "II", "III", "IV", "V"], None),
]


@pytest.mark.parametrize(("lang", "reply", "labels", "value"), SYLLABLES)
def test_syllables_and_roman_numerals_as_labels(lang: str, reply: str, labels: list[str], value: str | None) -> None:
    got, kind = _read(reply, JA, labels)
    assert got == value and kind in (("read",) if value else ("unread", "refused"))


def test_an_mcq_file_keyed_by_syllables_keeps_them(tmp_path: Path) -> None:
    import json

    import pandas as pd

    from xlingmed.benchmarks import custom
    from xlingmed.prompts import format_options, item_labels

    options = {"가": "혈당 검사", "나": "소변 검사", "다": "간기능 검사", "라": "심전도"}
    row = {"id": "q1", "language": "ko", "question": "만성 B형 간염 환자의 추적 관찰에 필요한 검사는?",
           "options": json.dumps(options, ensure_ascii=False), "answer": "다"}  # fmt: skip
    pd.DataFrame([row]).to_csv(tmp_path / "k.csv")
    (item,) = custom.load_items(f"mcq:{tmp_path / 'k.csv'}", ("ko",))[0]
    assert item.gold_label == "C" and item_labels(item) == ["가", "나", "다", "라"]
    assert format_options(item).splitlines()[2] == "다. 간기능 검사"
    got = extract_choice("B형 간염이므로 정답은 다입니다.", ["A", "B", "C", "D"], labels=item_labels(item))
    assert (got.value, got.method) == ("C", "phrase")
