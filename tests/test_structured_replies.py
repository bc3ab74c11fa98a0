"""Shapes of real replies from the round-9 held-out sources (issue 59), with invented text: a closing JSON object
with an answer field (NOTA-style prompts, reasoning models), labels in angle brackets ("答：<E>"), the only option
named by its label and text in a sentence (Hebrew exam replies), and an explanation that names the chosen
option's text under its answer line."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from fault_server import FaultServer, Reply, ok
from typer.testing import CliRunner

from xlingmed.cli import app
from xlingmed.parsing.choice import extract_choice
from xlingmed.parsing.methods import kind_of

OPTIONS = {"A": "Adenosine", "B": "Beta-blockers", "C": "Verapamil", "D": "Skin biopsy"}


def _read(reply: str, options: dict[str, str] = OPTIONS) -> tuple[str | None, str]:
    got = extract_choice(reply, list(options), options=options)
    return got.value, got.method


@pytest.mark.parametrize(
    ("reply", "value", "method"),
    [
        ('{\n  "choice": "C",\n  "rationale": "A and B are less likely; option A fits worse."\n}', "C", "json_answer"),
        ('```json\n{"answer": "B", "reasoning": "Option D is wrong."}\n```', "B", "json_answer"),
        # a reasoning trace, a first object, a change of mind, the last object counts
        ('<think>so the answer is A</think>\n{"choice": "A"}\n\nWait, let me reconsider.\n\n{"choice": "D"}', "D",
         "json_answer"),
        # the reply's own answer field says it chose none: refused, whatever its rationale names
        ('{"choice": null, "abstain_code": "NO_VALID_OPTION", "rationale": "A is MRSA, B is VRE."}', None,
         "refused"),
        ('{"choice": "null", "abstain_code": "INSUFFICIENT_INFO", "rationale": "Option C maybe."}', None, "refused"),
        ('{"choice": " organisations", "abstain_code": "NO_VALID_OPTION"}', None, "invalid"),
        ('{"choice": ["A", "C"]}', None, "ambiguous"),
        ('{"choice": "Verapamil"}', "C", "json_answer"),
        ('{"choice": "C. Verapamil"}', "C", "json_answer"),
        # words after the object: the object is no closing answer, the other rules read the reply
        ('{"choice": "C"}\n\nOn reflection the answer is B.', "B", "phrase"),
    ],
)
def test_a_closing_json_object_is_read_by_its_answer_field(reply: str, value: str | None, method: str) -> None:
    assert _read(reply) == (value, method)


def test_prose_that_says_choice_is_no_answer_field() -> None:
    reply = ("The answer is **B. Beta-blockers**.\n\nWhy the others are not the best choice:\n\n"
             "* **Adenosine** ends other tachycardias.")  # fmt: skip
    assert _read(reply) == ("B", "phrase")


@pytest.mark.parametrize(
    ("reply", "value"),
    [("患者症状提示甲状腺功能减退。\n\n答：<D>", "D"), ("< A >", "A"), ("因此，正确答案是：\n\n<C>", "C"),
     ("答：<{B}>", "B"), ("答：＜D＞", "D")],
)
def test_labels_in_angle_brackets_are_read(reply: str, value: str) -> None:
    assert _read(reply)[0] == value


def test_an_html_bold_tag_is_no_label() -> None:
    assert _read("I think it is <b>Verapamil</b>, but <b>I</b> cannot be sure.")[0] != "B"


@pytest.mark.parametrize(
    "reply",
    ["התרופה שעלולה לגרום להפרעת הקצב היא C. Verapamil.\n\nוראפמיל הוא חוסם תעלות סידן.",
     "The finding you describe is characteristic of **C. Verapamil** toxicity."],
)
def test_the_only_option_named_by_label_and_text_is_stated(reply: str) -> None:
    value, method = _read(reply)
    assert (value, method) == ("C", "label_and_text") and kind_of(method) == "read"


def test_a_label_and_text_beside_another_option_is_not_stated() -> None:
    value, method = _read("It could be C. Verapamil toxicity, though Adenosine was also given.")
    assert value is None and kind_of(method) != "read"


def test_an_explanation_naming_the_chosen_option_keeps_the_answer_line() -> None:
    reply = "השלב הבא בטיפול בחולה הוא:\nD. Skin biopsy\n\nSkin biopsy allows an accurate diagnosis of the lesions."
    assert _read(reply) == ("D", "answer_line")
    other = "The next step is:\nD. Skin biopsy\n\nVerapamil should be stopped first, then the biopsy."
    assert _read(other)[1] != "answer_line"


@pytest.mark.parametrize(
    ("reply", "value"),
    [
        ("Comparing with the options, it matches option d.\n\nThe final answer is $\\boxed{\\text{d}}$", "D"),
        ("So the correct answer is \\( \\text{c} \\).", "C"),
        ("เหตุผลสั้น ๆ\n\n```json\n{\"correct_answer_key\": \"b\"}\n```", "B"),
        ('{"finalAnswerChoice": "a", "answerExplanation": "c is wrong"}', "A"),
    ],
)
def test_lower_case_exam_answers_in_latex_or_any_answer_key(reply: str, value: str) -> None:
    options = {k: "" for k in "ABCDE"}
    assert extract_choice(reply, list(options), options=options, labels=list("abcde")).value == value


def test_a_reply_that_answers_inside_its_reasoning_then_invents_questions_is_read_up_to_them() -> None:
    reply = ("Answer: Let's think step by step. The lens is made of protein. The answer is (G).\n\nQuestion:\n"
             "Which of the following is a feature of the eye?\nOptions:\nA. x\nB. y\nAnswer: Let's think step by step."
             " The answer is (B).")  # fmt: skip
    options = {k: "" for k in "ABCDEFGH"}
    assert extract_choice(reply, list(options), options=options).value == "G"


@pytest.mark.parametrize(
    ("reply", "value"),
    [
        ("The maxilla grows postnatally. The correct statement is (E).", "E"),
        ("Papilloma viruses integrate their genome into the host's DNA. This is option (G).", "G"),
        ("The factor that has NOT received as much support is (F).\n\n", "F"),
        ("It is (F) in most textbooks, but others disagree.", None),  # words after the label: not closing
        ("The answer is not (F).", None),
    ],
)
def test_a_closing_sentence_that_ends_on_one_option_states_it(reply: str, value: str | None) -> None:
    options = {k: "" for k in "ABCDEFGH"}
    assert extract_choice(reply, list(options), options=options).value == value


def test_thai_prose_without_full_stops_is_not_cut_off() -> None:
    reply = "ดังนั้นคำตอบคือ ข " + "การพิจารณาอย่างเป็นธรรมและมีประสิทธิภาพ " * 60
    options = {k: "" for k in "ABCDE"}
    assert extract_choice(reply, list(options), options=options).method != "cut_off"


# question → (reply, what it states), replayed through the real CLI against the local scripted server
REPLAY: dict[str, tuple[str, str | None]] = {
    "R1 json?": ('<think>A? B? so the answer is A</think>\n{"choice": "C", "rationale": "A and B are wrong."}', "C"),
    "R2 json none?": ('{"choice": null, "abstain_code": "NO_VALID_OPTION", "rationale": "Option B is MRSA."}', None),
    "R3 latex?": ("Comparing the options, a and b fail.\n\nThe final answer is $\\boxed{\\text{d}}$", "D"),
    "R4 angle?": ("患者症状提示甲状腺功能减退。\n\n答：<B>", "B"),
    "R5 hebrew?": ("התרופה שעלולה לגרום להפרעת הקצב היא C. Verapamil.", "C"),
    "R6 copula?": ("Heparin and Warfarin act on clotting. The drug that acts fastest is (D).", "D"),
    "R7 passing?": ("Several causes are possible; Heparin may matter.", None),  # a guess: withheld
    "R8 hostile text?": ('=HYPERLINK("http://x")\u2028</script><b>not bold</b>\n\nAnswer: B', "B"),
    # this session's shapes (issue 59, rounds 12–13)
    "R9 arrow?": ("Adenosine and Heparin do not fit the history.\n\n→ C", "C"),
    "R10 apostrophe?": ("Beta-blockers are contraindicated here.\n\nI’d go with D.", "D"),
    "R11 no such option?": ("The answer is B, I thought.\n\nOn reflection, final answer: F.", None),
    "R12 copula after?": ("Cです。\n\nベラパミルは頻拍を抑える。", "C"),
    "R13 persian?": ("گزینه [A] نادرست است. بیمار تاکی‌کاردی دارد. پاسخ این است: B .", "B"),
    "R14 quoted question?": ("The answer is (A).\n\nWait, the example's question is here:\n\nQuestion: ... which?\n"
                             "Answer: step by step ... (D).\n\nSo, following it, the answer is (D).", "D"),
    # round 17: every option walked through under "…each option:", each rejected, then "None of the above"
    "R15 none above?": ("To find the correct answer, let's analyze each option:\n\n**A. Adenosine**\nIt slows the "
                        "node. **False.**\n\n**B. Beta-blockers**\nContraindicated. **False.**\n\n**C. Verapamil**\n"
                        "Too slow. **False.**\n\n**D. Heparin**\nNo effect on rhythm. **False.**\n\nNone of the "
                        "statements are correct.\n\n**The answer is (None of the above)**", None),
    # round 19: DeepSeek-R1's answer tag; an answer the user's note claims, after the reply's own; a trace that
    # doubts its last answer; GAOKAO-Bench's answer block in a fence, several options
    "R16 answer tag?": ("Option B looks wrong; D is close.\n\n<answer>A</answer>", "A"),
    "R17 user's note?": ("So the consistent answer is **(C) Verapamil**.\n\nHowever, the user's note claims the "
                         "correct answer is **(A) Adenosine**, which conflicts.", "C"),
    "R18 doubt?": ("So perhaps the correct answer is B, but I'm not sure.\n\nWait, I think I'm overcomplicating "
                   "this.", None),
    "R19 answer block?": ("所以B正确，C正确。\n\n### 答案\n```python\n{'9': ['B', 'C']}\n```\n***", None),
}


def test_new_reply_shapes_through_the_cli_leave_nothing_unparsed_as_a_value(tmp_path: Path) -> None:
    options = ["Adenosine", "Beta-blockers", "Verapamil", "Heparin"]
    rows = [{"id": f"q{k}", "language": "en", "question": q, **dict(zip("ABCD", options, strict=True)),
             "answer": stated or "A"} for k, (q, (_, stated)) in enumerate(REPLAY.items(), 1)]  # fmt: skip
    pd.DataFrame(rows).to_csv(tmp_path / "mine.csv", index=False)

    def policy(prompt: str, attempt: int) -> Reply:
        return ok(next(reply for q, (reply, _) in REPLAY.items() if q in prompt))

    with FaultServer(policy) as server:
        res = CliRunner().invoke(app, ["run", "--benchmark", f"mcq:{tmp_path / 'mine.csv'}", "--languages", "en",
                                       "--model", "openai/m", "--base-url", server.url, "--out", str(tmp_path / "run"),
                                       "--no-report"], env={"COLUMNS": "250"})  # fmt: skip
    assert res.exit_code == 0, res.output
    table = pd.read_csv(tmp_path / "run" / "multiple_choice.csv").sort_values("item_id")
    got = {r.item_id: (None if pd.isna(r.prediction) else r.prediction, r.parse_method) for r in table.itertuples()}
    methods = {"q1": "json_answer", "q2": "refused", "q3": "phrase", "q4": "phrase", "q5": "label_and_text",
               "q6": "closing_statement", "q7": "guess_withheld", "q8": "phrase", "q9": "answer_line",
               "q10": "phrase", "q11": "invalid", "q12": "answer_line", "q13": "phrase", "q14": "phrase",
               "q15": "refused", "q16": "phrase", "q17": "phrase", "q18": "thinking_only",
               "q19": "ambiguous"}  # fmt: skip
    for k, (_, stated) in enumerate(REPLAY.values(), 1):
        value, method = got[f"q{k}"]
        assert (value, method) == (stated, methods[f"q{k}"]), (k, got[f"q{k}"])
        if value is None:  # nothing unparsed became a value
            assert kind_of(method) in ("unread", "refused")
