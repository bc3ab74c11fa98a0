"""The extractor model (``--extractor``) through the real CLI against the local scripted server.

The model under test replies to a user's mcq:FILE in five languages; a second model on the same server, the
extractor, answers per language as ``replay_server.EXTRACTOR_SAYS`` scripts it: a label in the item's script with a
quote of the reply (ar), a Latin label in markdown with a quote (en), a label with a quote that is not in the reply
(es, which must be unverified), "none" (zh), an explanation (hi, which must be unparsed). The counts
per language, the extractor's unparsed replies, the cache on a second run and the refusal to use the model under
test as its own extractor are checked here; the strict reading of its reply by unit tests below.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fault_server import FaultServer
from replay_server import MCQ_FILE, ExtractorScript, ReplayPolicy, write_mcq_file
from typer.testing import CliRunner

from xlingmed.benchmarks import custom
from xlingmed.cli import app
from xlingmed.parsing.extractor import extractor_messages, read_extractor_reply
from xlingmed.tasks.multiple_choice.extract import agreement

LANGS = ("en", "es", "zh", "hi", "ar")
N = len(MCQ_FILE["en"])  # questions per language


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[Any]]:
    path = write_mcq_file(tmp_path_factory.mktemp("extractor") / "mine.csv")
    return f"mcq:{path}", custom.load_items(f"mcq:{path}", LANGS)[0]


def _run(server: FaultServer, bench: str, out: Path, *extra: str) -> tuple[int, str, dict[str, Any]]:
    args = ["run", "--benchmark", bench, "--languages", ",".join(LANGS), "--model", "openai/m",
            "--base-url", server.url, "--out", str(out), "--no-report", "--cache", str(out.parent / "cache.sqlite"),
            *extra]  # fmt: skip
    res = CliRunner().invoke(app, args, env={"COLUMNS": "250"})
    summary = json.loads((out / "summary.json").read_text("utf-8")) if (out / "summary.json").exists() else {}
    return res.exit_code, res.output, summary


def test_replies_the_rules_cannot_read_go_to_the_extractor(bench: tuple[str, list[Any]], tmp_path: Path) -> None:
    name, items = bench
    script = ExtractorScript(ReplayPolicy(items, "reasoning through every option, no conclusion"))
    with FaultServer(script) as server:
        code, output, summary = _run(server, name, tmp_path / "a", "--extractor", "openai/ext")
        assert code == 0, output
        assert script.extractor_calls == N * len(LANGS)  # every reply was invalid to the rules: all sent
        mc = summary["tasks"]["multiple_choice"]
        methods = mc["parsing"]["methods"]
        assert methods == {"en": {"extractor": N}, "es": {"extractor_unverified": N}, "zh": {"extractor_none": N},
                           "hi": {"extractor_unparsed": N}, "ar": {"extractor": N}}  # fmt: skip
        accuracy = {lang: mc["languages"][lang]["0"]["n_correct"] for lang in LANGS}
        assert accuracy == {"en": N, "es": 0, "zh": 0, "hi": 0, "ar": N}  # es: the quotes were not in the replies
        ext = mc["extractor"]
        assert ext["mode"] == "fallback" and summary["extractor"] == "openai/ext"
        assert {lang: ext["languages"][lang]["sent"] for lang in LANGS} == dict.fromkeys(LANGS, N)
        assert ext["languages"]["hi"]["extractor_unparsed"] == N and ext["languages"]["zh"]["extractor_none"] == N
        # the extractor is a fallback: every language it read is still warned about (100 % not read directly)
        assert sorted(w.split(":")[0] for w in mc["parsing"]["warnings"]) == sorted(LANGS)
        rows = (tmp_path / "a" / "multiple_choice.csv").read_text("utf-8")
        assert "extractor_prediction" in rows.splitlines()[0]

        # a second run is answered from the cache: nothing is sent, the same numbers come back
        calls = script.extractor_calls
        code, output, again = _run(server, name, tmp_path / "b", "--extractor", "openai/ext")
        assert code == 0, output
        assert script.extractor_calls == calls and again["backend_calls"] == 0
        assert again["cache_hits"] == 2 * N * len(LANGS)
        assert again["tasks"]["multiple_choice"]["parsing"] == mc["parsing"]


def test_replies_the_rules_read_are_not_sent_unless_mode_all(bench: tuple[str, list[Any]], tmp_path: Path) -> None:
    name, items = bench
    script = ExtractorScript(ReplayPolicy(items, "answer phrase (en)"))
    with FaultServer(script) as server:
        code, output, summary = _run(server, name, tmp_path / "a", "--extractor", "openai/ext")
        assert code == 0, output
        assert script.extractor_calls == 0 and "extractor" not in summary["tasks"]["multiple_choice"]
        code, output, summary = _run(server, name, tmp_path / "b", "--extractor", "openai/ext",
                                     "--extractor-mode", "all")  # fmt: skip
        assert code == 0, output
    assert script.extractor_calls == N * len(LANGS)
    mc = summary["tasks"]["multiple_choice"]
    # the rules' reading still counts: every answer right, every parse a rule's
    assert all(mc["languages"][lang]["0"]["n_correct"] == N for lang in LANGS)
    assert all(set(m) == {"phrase"} for m in mc["parsing"]["methods"].values())
    agree = mc["extractor"]["languages"]
    for lang in ("en", "ar"):  # the extractor read the same options: complete agreement, κ = 1
        assert (agree[lang]["n"], agree[lang]["alike"], agree[lang]["kappa"]) == (N, 1.0, 1.0)
    # its quotes in Spanish are not in the replies: unverified, left out of the agreement
    assert agree["es"]["n"] == 0 and agree["es"]["extractor_unverified"] == N
    assert (agree["zh"]["alike"], agree["zh"]["kappa"]) == (0.0, 0.0)  # "none" against four letters
    assert agree["hi"]["n"] == 0 and agree["hi"]["extractor_unparsed"] == N and agree["hi"]["kappa"] is None
    table = (tmp_path / "b" / "multiple_choice_extractor.csv").read_text("utf-8").splitlines()
    assert table[0].split(",")[:3] == ["lang", "sent", "extractor"] and len(table) == 1 + len(LANGS)


def test_the_model_under_test_is_never_its_own_extractor_unless_named(
    bench: tuple[str, list[Any]], tmp_path: Path
) -> None:
    name, items = bench
    script = ExtractorScript(ReplayPolicy(items, "reasoning through every option, no conclusion"), extractor="m")
    with FaultServer(script) as server:
        # "judge" with no judge named is the model under test: the run stops before any request or file
        code, output, _ = _run(server, name, tmp_path / "a", "--extractor", "judge")
        assert code != 0 and "model under test read its own replies" in output
        assert not (tmp_path / "a").exists() and not server.log
        # named as such, it is allowed (and says so in the summary)
        code, output, summary = _run(server, name, tmp_path / "b", "--extractor", "openai/m")
        assert code == 0, output
    assert summary["extractor"] == "openai/m" and script.extractor_calls == N * len(LANGS)


def test_the_extractor_needs_a_multiple_choice_task(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["run", "--benchmark", "xlinghealth/liveqa", "--extractor", "openai/ext",
                                   "--out", str(tmp_path / "r")])  # fmt: skip
    assert res.exit_code != 0 and "no task of this run has an extractor stage" in res.output


REPLY = "Let us weigh each option.\nA is unlikely here.\n\n**La respuesta correcta es la B: Páncreas.**\n\n1. Ref."
OPTIONS = {"A": "Liver", "B": "Páncreas", "C": "Kidney", "D": "Spleen"}
SAID = "La respuesta correcta es la B: Páncreas."


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        (f"Answer: B\nQuote: {SAID}", ("B", "extractor")),
        (f"Answer: b\nQuote: {SAID}", ("B", "extractor")),
        (f"**Answer:** **B**\n**Quote:** \"{SAID}\"", ("B", "extractor")),  # markdown and quotation marks aside
        ("Answer: (B).\nQuote: la respuesta   correcta es la b: PÁNCREAS", ("B", "extractor")),  # spaces, case
        (f"Answer: ب\nQuote: {SAID}", ("B", "extractor")),  # Arabic script
        ("Answer: B\nQuote: Páncreas", ("B", "extractor")),  # the option's text alone names it
        ("Answer: none\nQuote:", (None, "extractor_none")),
        ("None.", (None, "extractor_none")),
        ("B", (None, "extractor_unverified")),  # a label with no quote
        ("Answer: B\nQuote: The answer is B.", (None, "extractor_unverified")),  # not in the reply
        ("Answer: A\nQuote: Let us weigh each option.", (None, "extractor_unverified")),  # in it, names no option
        ("Answer: A\nQuote: A is unlikely here.", ("A", "extractor")),  # in it, and opens with A
        (f"Answer: C\nQuote: {SAID}", (None, "extractor_unverified")),  # the quote names another option
        ("Answer: E\nQuote: x", (None, "extractor_unparsed")),  # not an option of this item
        ("Answer: 2\nQuote: x", (None, "extractor_unparsed")),  # a number is not a label on a lettered exam
        ("Answer: B or C", (None, "extractor_unparsed")),
        ("The reply commits to B.", (None, "extractor_unparsed")),
        ("", (None, "extractor_unparsed")),
    ],
)
def test_the_extractor_reply_is_read_strictly_its_quote_checked(said: str, expected: tuple[str | None, str]) -> None:
    parsed = read_extractor_reply(said, ["A", "B", "C", "D"], reply=REPLY, options=OPTIONS)
    assert (parsed.value, parsed.method) == expected


def test_the_extractor_names_an_option_as_the_prompt_showed_it() -> None:
    reply = "Revisadas las opciones, la respuesta correcta es la número 3: riñón."
    got = read_extractor_reply("Answer: 3\nQuote: la respuesta correcta es la número 3", ["A", "B", "C", "D"],
                               reply=reply, labels=["1", "2", "3", "4"])  # fmt: skip
    assert (got.value, got.method) == ("C", "extractor")
    circled = read_extractor_reply("Answer: ③\nQuote: 답: ③", ["A", "B", "C", "D", "E"], reply="정리하면\n답: ③",
                                   labels=list("①②③④⑤"))  # fmt: skip
    assert (circled.value, circled.method) == ("C", "extractor")


def test_the_extractor_prompt_holds_question_options_and_reply() -> None:
    system, user = extractor_messages("Which organ makes insulin?", [("أ", "Liver"), ("ب", "Pancreas")], "ب")
    assert system.role == "system" and user.role == "user"
    assert "Which organ makes insulin?" in user.content and "أ. Liver\nب. Pancreas" in user.content
    assert "<<<\nب\n>>>" in user.content and "(أ, ب)" in user.content


def test_agreement_gives_share_alike_and_cohens_kappa() -> None:
    # 3 of 4 alike; κ from sklearn: p_o = 0.75, p_e = (2·1 + 1·2 + 1·1)/16 = 5/16 → κ = (0.75 − 0.3125)/0.6875
    pairs = [("A", "A"), ("B", "B"), (None, None), ("A", "B")]
    got = agreement(pairs)
    assert got["n"] == 4 and got["alike"] == 0.75
    assert got["kappa"] == pytest.approx((0.75 - 5 / 16) / (1 - 5 / 16))
    assert agreement([]) == {"n": 0, "alike": None, "kappa": None}
    assert agreement([("A", "A"), ("A", "A")])["kappa"] is None  # one category: κ undefined
