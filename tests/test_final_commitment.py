"""Issue 59: the reply's final commitment, through the real CLI against the local scripted server.

Replies end in answer lines of five forms ("【回答】c", "Final: (b)", "**Answer: d**", "[Answer] a", "پاسخ نهایی:
[B]"), with lower-case labels; Persian and Russian replies reject options before they answer; refusals quote an
option; two replies name an option only in passing (a fallback would guess). Each is read as stated, and
``-T reading=lenient`` changes only the rows a fallback reads. The texts are invented, in the shapes of real
replies.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from fault_server import FaultServer, Reply, ok
from typer.testing import CliRunner

from xlingmed.cli import app
from xlingmed.imported import ImportedAnswer
from xlingmed.parsing.answer_line import asked_marker
from xlingmed.parsing.choice import extract_choice
from xlingmed.parsing.turns import own_turn
from xlingmed.tasks.multiple_choice.imported import _rescore

OPTIONS = ["Paracetamol", "Insulin", "Warfarin", "Heparin"]
REASONING = "The patient's history matters here.\n- a: unlikely, given the timing.\n- b: possible but less typical.\n"

# question → (reply, what it states: a label or None, read by a fallback in lenient mode)
SCRIPT: dict[str, tuple[str, str | None, bool]] = {
    "Q1 fever drug?": (f"{REASONING}\n【回答】c", "C", False),
    "Q2 which hormone?": (f"{REASONING}\nSo, weighing these:\n\nFinal: (b)", "B", False),
    "Q3 anticoagulant by injection?": (f"{REASONING}\n**Answer: d**", "D", False),
    "Q4 antipyretic?": (f"{REASONING}\n[Answer] a", "A", False),
    "Q5 Persian answer line?": ("بیمار سابقه دیابت دارد.\n\nپاسخ نهایی: [B]", "B", False),
    "Q6 Persian rejections?": (
        "گزینه [A] نادرست است.\nگزینه [B] با یافته‌ها همخوانی ندارد.\nبنابراین، گزینه [D] نیز نامعتبر است.\n\n"
        "پاسخ صحیح گزینه [C] است.",
        "C", False,
    ),
    "Q7 Russian rejections?": (
        "Вариант A неверен: он не снижает свёртываемость.\nВариант B не подходит.\n\nПравильный ответ: D", "D", False,
    ),
    "Q8 refusal quoting an option?": (
        "I cannot determine the answer without the image, although Insulin is sometimes given in such cases.", None,
        False,
    ),
    "Q9 Persian none of the options?": ("هیچ‌کدام از گزینه‌ها درست نیست؛ Warfarin هم مناسب نیست.", None, False),
    "Q10 named in passing?": ("It is worth checking the dose of Warfarin first.", "C", True),
    "Q11 named in passing again?": ("Several causes are possible.\nMaybe Heparin plays a role here.", "D", True),
}  # fmt: skip


def _run(folder: Path, out: Path, *extra: str) -> pd.DataFrame:
    def policy(prompt: str, attempt: int) -> Reply:
        return ok(next(reply for q, (reply, _, _) in SCRIPT.items() if q in prompt))

    with FaultServer(policy) as server:
        args = ["run", "--benchmark", f"mcq:{folder / 'mine.csv'}", "--languages", "en", "--model", "openai/m",
                "--base-url", server.url, "--out", str(out), "--no-report", *extra]  # fmt: skip
        res = CliRunner().invoke(app, args, env={"COLUMNS": "250"})
    assert res.exit_code == 0, res.output
    return pd.read_csv(out / "multiple_choice.csv").sort_values("item_id", key=lambda s: s.str[1:].astype(int))


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("final")
    rows = [{"id": f"q{k}", "language": "en", "question": q, **dict(zip("ABCD", OPTIONS, strict=True)),
             "answer": stated or "A"} for k, (q, (_, stated, _)) in enumerate(SCRIPT.items(), 1)]  # fmt: skip
    pd.DataFrame(rows).to_csv(path / "mine.csv", index=False)
    return path


def test_each_reply_is_read_as_it_states_and_lenient_changes_only_the_fallback_rows(
    folder: Path, tmp_path: Path
) -> None:
    strict = _run(folder, tmp_path / "strict")
    lenient = _run(folder, tmp_path / "lenient", "-T", "reading=lenient")
    expected = [stated if not guess else None for _, stated, guess in SCRIPT.values()]
    assert [None if pd.isna(v) else v for v in strict["prediction"]] == expected
    methods = list(strict["parse_method"])
    # "【回答】", "Answer:" and "پاسخ نهایی" are answer phrases a language lists; "Final:" and "[Answer]" are not
    assert methods[:7] == ["phrase", "answer_line", "phrase", "answer_line", "phrase", "phrase", "phrase"]
    assert methods[7:] == ["refused", "refused", "guess_withheld", "guess_withheld"]
    # lenient: the two fallback rows get the option named in passing; every other row is the same
    fallback = [guess for _, _, guess in SCRIPT.values()]
    for k, (s, le) in enumerate(zip(strict.itertuples(), lenient.itertuples(), strict=True)):
        if fallback[k]:
            assert (le.prediction, le.parse_method) == (list(SCRIPT.values())[k][1], "last_line")
        else:
            assert (s.prediction, s.parse_method) == (le.prediction, le.parse_method) or (
                pd.isna(s.prediction) and pd.isna(le.prediction) and s.parse_method == le.parse_method
            )
    # the reading is recorded, and the withheld guesses are counted as unread (the parse limits bound them)
    summary = json.loads((tmp_path / "strict" / "summary.json").read_text("utf-8"))["tasks"]["multiple_choice"]
    assert summary["parsing"]["kinds"]["en"]["unread"] == 2
    lenient_summary = json.loads((tmp_path / "lenient" / "summary.json").read_text("utf-8"))
    assert lenient_summary["tasks"]["multiple_choice"]["parsing"]["kinds"]["en"]["fallback"] == 2
    manifest = (tmp_path / "lenient" / "manifest.json").read_text("utf-8")
    assert '"reading": "lenient"' in manifest


@pytest.mark.parametrize(
    ("prompt", "marker"),
    [
        ("…The last line of your response should be of the following format: 'ANSWER: $LETTER' (without quotes)",
         "ANSWER:"),
        ('Think step by step, then end with "Final answer: <letter>".', "Final answer:"),
        ("考えた後、最後に【回答】x の形式で答えてください。", "【回答】"),
        ("Razona y termina con «Respuesta: X».", "Respuesta:"),
        ("Question: Which drug?\nA. Insulin\nB. Heparin\nAnswer:", None),  # asks for no format
        ("Answer: Xanax is …", None),
        (None, None),
    ],
)  # fmt: skip
def test_the_marker_a_logged_prompt_asks_for(prompt: str | None, marker: str | None) -> None:
    assert asked_marker(prompt) == marker


def _answer(reply: str, prompt: str | None) -> ImportedAnswer:
    return ImportedAnswer("mc", "q1", "en", None, "B", None, "source", reply=reply, prompt=prompt,
                          options=dict(zip("ABCD", OPTIONS, strict=True)))  # fmt: skip


def test_rescore_reads_the_marker_the_prompt_asked_for_and_the_reading_given() -> None:
    # the replies of an imported log, read again (--rescore): the prompt's marker is read as the paper's marker
    # is; a reply a fallback alone reads is withheld unless --reading lenient
    asked = "Think, then end with 'Réponse finale : $LETTER'."
    answers = [_answer("Heparin works faster here.\n\nRéponse finale : b", asked),
               _answer("It is worth checking the dose of Heparin first.", asked)]  # fmt: skip
    for reading, second in (("strict", (None, "guess_withheld")), ("lenient", ("D", "last_line"))):
        rows: list[dict[str, object]] = [{"gold": "B"}, {"gold": "B"}]
        _rescore(rows, answers, None, reading)
        assert [(r["prediction"], r["parse_method"]) for r in rows] == [("B", "marker"), second]
    rows = [{"gold": "B"}]
    _rescore(rows, answers[:1], "Réponse finale :", "strict")  # --answer-marker, as the user gives it
    assert (rows[0]["prediction"], rows[0]["parse_method"]) == ("B", "marker")


@pytest.mark.parametrize(
    ("reply", "value", "method"),
    [
        # the reply's own turn: its thinking closed, an end-of-turn token, special tokens, spreadsheet escapes
        ("<think>Maybe A… or C.</think>\n\nAnswer: B", "B", "phrase"),
        ("<think>Option A fits the fever; option C", None, "thinking_only"),
        ("c<|end|><|user|>Next question…<|assistant|>a", "C", "standalone"),
        ("➄<|END_OF_TURN_TOKEN|>", "E", "standalone"),  # a dingbat circled five
        ("Final answer: B_x000d_\n_x000d_\nReferences_x000d_\n1. Smith J. A review. 2020.", "B", "phrase"),
        # a long reply that stopped inside a sentence concluded nothing, whatever it said on the way
        ("Let me think. " * 120 + "So I'll go with B.\n\nBut wait, I recall that after surgery the arm", None,
         "cut_off"),
        ("Let me think. " * 120 + "\n\nAnswer: B", "B", "phrase"),
        # "=" is no answer line's separator: a sum
        ("Stock turnover:\nCost of goods / inventory = 3", None, "invalid"),
    ],
)  # fmt: skip
def test_the_reply_is_read_within_its_own_turn(reply: str, value: str | None, method: str) -> None:
    labels = list("①②③④⑤") if "➄" in reply else None
    parsed = extract_choice(reply, list("ABCDE"), labels=labels, options={} if labels else None)
    assert (parsed.value, parsed.method) == (value, method)


def test_a_long_reply_cut_at_the_token_limit_is_read_only_by_its_answer_line() -> None:
    reply = "The answer is B, since… " * 80
    assert extract_choice(reply, list("ABCD")).method == "phrase"
    cut = extract_choice(reply, list("ABCD"), cut_off=True)
    assert (cut.value, cut.method) == (None, "cut_off")
    assert extract_choice("Answer: B\n\n" + reply, list("ABCD"), cut_off=True).value == "B"
    assert extract_choice("B. It is", list("ABCD"), cut_off=True).value == "B"  # a short budget cut the explanation


@pytest.mark.parametrize(
    ("reply", "value", "method"),
    [
        ("Therefore, among A through D, the answer is C.", "C", "phrase"),  # a range names no option
        ("Therefore, among A through D, the answer is unknown.", None, "invalid"),
        ("Therefore, the answer is C) Insulin or D) Heparin.", None, "ambiguous"),  # past the option's own text
        ("The answer is A (a fever drug) or D (an anticoagulant).", None, "ambiguous"),  # past a bracket
        ("The answer is C (Warfarin).", "C", "phrase"),
    ],
)
def test_ranges_and_options_joined_past_their_text(reply: str, value: str | None, method: str) -> None:
    parsed = extract_choice(reply, list("ABCD"), options=dict(zip("ABCD", OPTIONS, strict=True)))
    assert (parsed.value, parsed.method) == (value, method)


def test_a_reply_that_runs_on_into_a_question_of_its_own_is_read_up_to_it() -> None:
    # a small model answers, then makes up the next question and answers that too: the first answer is the reply's
    reply = ("Idiopathic pulmonary fibrosis fits best.\n\n**Answer:** D\n\n## Medical Question\n\nA 30-year-old "
             "woman presents with sudden dyspnoea. Which is most likely?\nA) Asthma\nB) Embolism\n\n**Answer:** B")
    assert extract_choice(reply, list("ABCD")).value == "D"
    # an echoed few-shot example's answer is not the reply's
    echo = "Answer with the letter. Example:\nAnswer: B\n\nQuestion: Which drug lowers fever?\nAnswer: C"
    assert own_turn(echo) == echo
    # a reasoning model quotes the prompt's question (introduced by a colon, or cut short) and goes on to its answer
    quoting = ("The answer is (A).\n\nWait, no. The example's question is here:\n\nQuestion: ... How many stones?\n"
               "Answer: Let's think step by step. ... the answer is (F).\n\nSo, following it, the answer is (F).")
    assert own_turn(quoting) == quoting and extract_choice(quoting, list("ABCDEF")).value == "F"


def test_a_reply_cut_inside_its_closing_json_block_had_concluded() -> None:
    reasoning = "The history and the findings weigh against option B and for option A. " * 25
    closing = "The reasoning strongly points towards option A as the most appropriate action."
    reply = f"{reasoning}\n\n{closing}\n\n```json\n{{\"reasoning\": \"The pat"
    assert extract_choice(reply, list("ABCD")).value == "A"
    assert extract_choice(reply, list("ABCD"), cut_off=True).value == "A"
    unfinished = f"{reasoning}\n\nSo I would choose A, but wait, let me reconsider whether the pat"
    assert extract_choice(unfinished, list("ABCD")).method == "cut_off"


def test_long_and_hostile_replies_and_prompts_are_read_in_one_pass() -> None:
    # shapes whose cost grew with the square of their length before: a prompt of colons and words, a reply of
    # many questions before its answer; and markup that must stay text
    assert asked_marker(("word " * 4 + ":") * 20000) is None
    assert asked_marker('=HYPERLINK("x")</script>: X') is None
    assert extract_choice("Question: x\n" * 5000 + "Answer: C", list("ABCD")).value == "C"
    assert extract_choice("Example:\nAnswer: B\n" * 2000 + "Question: y\nAnswer: C", list("ABCD")).value == "C"
    assert extract_choice("</script>Answer:\u2028C", list("ABCD")).value == "C"


P_OPTIONS = {
    "A": "Ressonância magnética.", "B": "Radiografia simples.", "C": "Nefrostomia percutânea.", "D": "Cintilografia.",
}  # fmt: skip
P_LIST = "A) Ressonância magnética: sensível.\nB) Radiografia simples: pouco.\nC) Nefrostomia percutânea: drena."


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        # the option set apart under a line that ends in a colon, after a list that discussed each option
        (f"{P_LIST}\n\nA melhor conduta imediata seria:\n\nC) Nefrostomia percutânea.\n\nIsto trata a obstrução.", "C"),
        # under a check mark that marks no other line
        ("A conduta mais adequada é o acompanhamento.\n\n✅ D) Cintilografia.", "D"),
        # the answer line, then the chosen option's text alone in bold, then the explanation
        ("## Resposta: **A**\n\n**Ressonância magnética.**\n\nO exame de escolha, pela sensibilidade.", "A"),
        # …but an answer line above another option's text is no single answer
        ("## Resposta: **A**\n\n**Radiografia simples.**\n\nO exame de escolha, pela sensibilidade.", None),
        # a list under the colon names several options: no answer line
        ("La respuesta correcta es:\nA) Ressonância magnética.\nC) Nefrostomia percutânea.\n\nAmbas sirven.", None),
        # a check mark on two lines is a verdict list, not a choice
        ("✅ A) Ressonância magnética.\n✅ C) Nefrostomia percutânea.", None),
        # an option's label and other words after the colon line are discussion
        ("Considering the options:\n\nA) Ressonância magnética: is sensitive but costly", None),
    ],
)
def test_the_chosen_option_restated_or_set_apart_is_read(reply: str, expected: str | None) -> None:
    """Shapes of real Portuguese exam replies (round 8): an option and its own text set apart as the closing line,
    or restated under the answer line; never a list of options."""
    assert extract_choice(reply, list(P_OPTIONS), options=P_OPTIONS).value == expected
