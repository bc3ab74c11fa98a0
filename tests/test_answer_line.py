"""``--mc-prompt answer_line``: reasoning, then a last line "Answer: X" with "Answer" in the item's language, through
the real CLI against the local scripted server; the seeds' benchmarks keep the paper's prompt by default."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import medarabiq_fixtures as fx
import pytest
import reply_shapes as rs
from fault_server import FaultServer, Reply, ok
from replay_server import ReplayPolicy, write_mcq_file
from typer.testing import CliRunner

from xlingmed.benchmarks import custom, get_benchmark, medarabiq
from xlingmed.cli import app
from xlingmed.languages import LANGUAGES

LANGS = ("en", "es", "zh", "hi", "ar")


class AnswerLine:
    """Replies as a chat model asked for an answer line would: reasoning through the options in the item's
    language, then "<Answer in that language>: <gold label in its script>"; keeps every prompt and payload."""

    with_payload = True

    def __init__(self, items: list[Any]) -> None:
        self.index = ReplayPolicy(items, "bare letter").index
        self.seen: list[tuple[str, dict[str, Any]]] = []

    def __call__(self, prompt: str, attempt: int, payload: dict[str, Any]) -> Reply:
        self.seen.append((prompt, payload))
        item = next(it for t, it in self.index if t in prompt)
        lang = LANGUAGES[item.lang]
        shown = lang.option_letters[ord(item.gold_label) - ord("A")]
        reasoning = "\n".join(f"{x}. {rs.REASON.get(item.lang, rs.REASON['en'])}." for x in lang.option_letters[:4])
        return ok(f"{reasoning}\n\n{lang.answer_label}: {shown}")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("answer_line")
    fx.write_all(path)
    write_mcq_file(path / "mine.csv")
    return path


def test_answer_line_prompt_asks_in_the_items_language_and_is_read(folder: Path, tmp_path: Path) -> None:
    bench = f"mcq:{folder / 'mine.csv'}"
    policy = AnswerLine(custom.load_items(bench, LANGS)[0])
    with FaultServer(policy) as server:
        args = ["run", "--benchmark", bench, "--languages", ",".join(LANGS), "--model", "openai/m", "--base-url",
                server.url, "--out", str(tmp_path / "r"), "--no-report", "--mc-prompt", "answer_line"]  # fmt: skip
        res = CliRunner().invoke(app, args, env={"COLUMNS": "250"})
    assert res.exit_code == 0, res.output
    mc = json.loads((tmp_path / "r" / "summary.json").read_text("utf-8"))["tasks"]["multiple_choice"]
    assert mc["settings"]["prompt_form"] == "answer_line" and mc["settings"]["max_tokens"] == 2048
    assert mc["settings"]["prompt_source"] == "the user (-T mc_prompt)"
    for lang in LANGS:  # every reasoning-then-answer-line reply read right, by the marker the prompt declared
        cell = mc["languages"][lang]["0"]
        assert cell["n_correct"] == cell["n"] == 4, lang
        assert mc["parsing"]["methods"][lang] == {"marker": 4}, lang
    prompts = {p for p, _ in policy.seen}
    assert any("'Respuesta: X'" in p and "one of A, B, C, D" in p for p in prompts)
    assert any("'الإجابة: X'" in p and "one of أ, ب, ج, د" in p and "أ. باراسيتامول" in p for p in prompts)
    assert any("'答案: X'" in p for p in prompts) and any("'उत्तर: X'" in p for p in prompts)
    assert all(payload["max_tokens"] == 2048 for _, payload in policy.seen)


def test_the_seeds_benchmarks_keep_the_papers_prompt(folder: Path, tmp_path: Path) -> None:
    assert get_benchmark("medarabiq/mcq").mc_prompt()[0] == "raw"
    items = medarabiq.load_items("mcq", folder, ("ar",))[0]
    policy = AnswerLine(items)
    with FaultServer(policy) as server:
        res = CliRunner().invoke(app, ["run", "--benchmark", "medarabiq/mcq", "--data-dir", str(folder), "--model",
                                       "openai/m", "--base-url", server.url, "--out", str(tmp_path / "r"),
                                       "--no-report"], env={"COLUMNS": "250"})  # fmt: skip
    assert res.exit_code == 0, res.output
    mc = json.loads((tmp_path / "r" / "summary.json").read_text("utf-8"))["tasks"]["multiple_choice"]
    assert mc["settings"]["prompt_form"] == "raw" and mc["settings"]["max_tokens"] == 16
    assert mc["settings"]["prompt_source"].startswith("MedArabiQ Table C1")
    assert all(p.startswith("This is a multiple-choice question") for p, _ in policy.seen)


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Reasoning about the options.\nAnswer: B is the correct answer.", ("B", "phrase")),
        ("Razonamiento.\nMi elección: C es la correcta", ("C", "answer_line")),
        ("Begründung.\nEndgültig: D ist richtig", ("D", "answer_line")),
        ("Reasoning.\nConfidence: A", (None, None)),
        ("Razonamiento.\nPregunta 3: B", (None, None)),
        ("解説。\n問題: c", (None, None)),
    ],
)
def test_affirmations_and_field_words_come_from_the_language_files(reply: str, expected: tuple) -> None:
    """What may follow an answer line's label ("es la correcta") and which fields head no answer line ("Confidence",
    "Pregunta", "問題") are read from ``languages/`` (``field_words``, ``affirmations``)."""
    from xlingmed.parsing.choice import extract_choice

    got = extract_choice(reply, ["A", "B", "C", "D"], labels=["a", "b", "c", "d"] if "問題" in reply else None)
    value, method = expected
    assert got.value == value
    if method is not None:
        assert got.method == method
    else:
        assert got.method not in ("answer_line", "phrase", "marker")
