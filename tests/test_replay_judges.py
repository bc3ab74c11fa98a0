"""Realistic judge and yes/no replies through the real CLI, on the real LiveQA file in en/es/zh/hi.

A scripted OpenAI-compatible server plays both the model and the judge. Correctness: the judge gives each item a
label fixed by its question (so the expected counts are known) in the paper's wording, or in near paraphrases
that only ``--judge-parser paper+fallback`` reads; a judge that names no option is ``no_response`` with both.
Verifiability: the model says yes to the question's own answer and no to the negatives, in English and in the
item's language, in the phrasings each parser documents; a reply with no yes/no is unparsed (strict parser).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fault_server import FaultServer, Reply, ok
from typer.testing import CliRunner

from xlingmed.benchmarks.xlinghealth import load_items
from xlingmed.cli import app
from xlingmed.tasks.correctness.judge import OPTIONS

LANGS = ("en", "es", "zh", "hi")
LIMIT = 3
OPTION = dict(OPTIONS)
NUMBER = {label: k + 1 for k, (label, _) in enumerate(OPTIONS)}
REASONING = "Answer 2 covers the main points of Answer 1 and adds advice on when to see a doctor."
PARAPHRASE = {
    "more": "Therefore, Answer 2 is more comprehensive and appropriate than Answer 1.",
    "less": "Therefore, Answer 2 is less comprehensive and appropriate than Answer 1.",
    "neither": "Answer 2 is neither contradictory nor similar to Answer 1.",
    "contradictory": "In conclusion, Answer 2 contradicts Answer 1.",
}
PAPER_JUDGE: dict[str, Callable[[str], str]] = {
    "option string on the last line": lambda lab: f"{REASONING}\n{OPTION[lab]}",
    "numbered option string": lambda lab: f"{REASONING}\n{NUMBER[lab]}) {OPTION[lab]}",
    "chosen option prefix": lambda lab: f"{REASONING}\nChosen option: {OPTION[lab]}.",
}
PARAPHRASED_JUDGE: dict[str, Callable[[str], str]] = {
    "option string, then three sentences": lambda lab: f"{OPTION[lab]}. It is longer. It is clear. It is safe.",
    "option string in lower case": lambda lab: f"{REASONING}\n{OPTION[lab].lower()}",
    "option number only": lambda lab: f"{REASONING}\nOption {NUMBER[lab]}",
    "bold paraphrase": lambda lab: f"{REASONING}\n**{PARAPHRASE[lab].split(', ')[-1]}**",
    "sentence paraphrase": lambda lab: f"{REASONING}\n{PARAPHRASE[lab]}",
}
NO_LABEL_JUDGE = "I cannot decide between the options without more context."


def expected_label(question: str) -> str:
    return OPTIONS[int(hashlib.sha256(question.strip().encode()).hexdigest(), 16) % 4][0]


def _cli(args: list[str]) -> None:
    res = CliRunner().invoke(app, args, env={"COLUMNS": "250"})
    assert res.exit_code == 0, res.output


def _correctness(data_dir: Path, out: Path, reply: Callable[[str], str], parser: str) -> dict[str, Any]:
    def policy(prompt: str, attempt: int) -> Reply:
        if "Compare Answer 2 with Answer 1" not in prompt:
            return ok("Rest, fluids and a doctor's visit if it gets worse.")
        question = re.search(r"Question: (.*?)\nAnswer 1:", prompt, re.S)
        assert question is not None
        return ok(reply(expected_label(question.group(1))))

    with FaultServer(policy) as server:
        _cli(["run", "--benchmark", "xlinghealth/liveqa", "--data-dir", str(data_dir), "--languages", ",".join(LANGS),
              "--tasks", "correctness", "--model", "openai/m", "--base-url", server.url, "--judge", "openai/j",
              "--judge-base-url", server.url, "--judge-parser", parser, "--limit", str(LIMIT), "--out", str(out),
              "--no-report"])  # fmt: skip
    summary: dict[str, Any] = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    return summary["tasks"]["correctness"]


@pytest.fixture(scope="module")
def expected(data_dir: Path) -> dict[str, Counter[str]]:
    items = load_items("liveqa", data_dir, LANGS, limit=LIMIT)[0]
    return {lang: Counter(expected_label(it.question) for it in items if it.lang == lang) for lang in LANGS}


@pytest.mark.parametrize(
    ("phrasing", "parser"),
    [(p, "paper") for p in PAPER_JUDGE] + [(p, "paper+fallback") for p in {**PAPER_JUDGE, **PARAPHRASED_JUDGE}],
)
def test_judge_labels_read_in_the_paper_wording_and_near_paraphrases(
    data_dir: Path, tmp_path: Path, expected: dict[str, Counter[str]], phrasing: str, parser: str
) -> None:
    reply = {**PAPER_JUDGE, **PARAPHRASED_JUDGE}[phrasing]
    c = _correctness(data_dir, tmp_path / "run", reply, parser)
    for lang in LANGS:
        counts = c["languages"][lang]["counts"]
        assert {k: v for k, v in counts.items() if v} == dict(expected[lang]), (lang, phrasing)
        kinds = c["parsing"]["kinds"][lang]
        assert kinds["unread"] == 0
        assert kinds["fallback"] == (LIMIT if phrasing in PARAPHRASED_JUDGE else 0)
    # a fallback read on every item of every language is more than 5 %: the run says so
    assert len(c["parsing"]["warnings"]) == (len(LANGS) if phrasing in PARAPHRASED_JUDGE else 0)


@pytest.mark.parametrize("parser", ["paper", "paper+fallback"])
def test_a_judge_that_names_no_option_is_no_response(data_dir: Path, tmp_path: Path, parser: str) -> None:
    c = _correctness(data_dir, tmp_path / "run", lambda lab: NO_LABEL_JUDGE, parser)
    for lang in LANGS:
        assert c["languages"][lang]["counts"]["no_response"] == LIMIT
        assert c["parsing"]["methods"][lang] == {"unparsed": LIMIT}


# ---- verifiability -------------------------------------------------------------------------------------------------

YES_NO: dict[str, dict[str, tuple[str, str]]] = {  # phrasing -> lang -> (yes reply, no reply)
    "English word (as asked)": {lang: ("Yes", "No") for lang in LANGS},
    "English word with markdown and period": {lang: ("**Yes.**", "**No.**") for lang in LANGS},
    "English word with a reason": {
        lang: ("Yes, it is a correct answer.", "No, it is about another condition.") for lang in LANGS
    },
    "the item's language": {
        "en": ("Yes.", "No."),
        "es": ("Sí.", "No."),
        "zh": ("是的。", "不是。"),
        "hi": ("हाँ।", "नहीं।"),
    },
    "the item's language with a reason": {
        "en": ("Yes, it answers the question.", "No, it is about another condition."),
        "es": ("Sí, es una respuesta correcta.", "No, trata de otra enfermedad."),
        "zh": ("是的，这个回答是正确的。", "不是，这个回答说的是另一种疾病。"),
        "hi": ("हाँ, यह सही उत्तर है।", "नहीं, यह किसी और बीमारी के बारे में है।"),
    },
}
NO_YES_NO = {
    "en": "I am unable to judge this response.",
    "es": "Me resulta imposible juzgar esta respuesta.",
    "zh": "我无法判断这个回答。",
    "hi": "मैं इस उत्तर का मूल्यांकन करने में असमर्थ हूँ।",
}


def _verifiability(
    data_dir: Path, out: Path, replies: dict[str, tuple[str, str]] | None, parser: str
) -> dict[str, Any]:
    items = load_items("liveqa", data_dir, LANGS, limit=LIMIT)[0]
    index = sorted(((it.question.strip(), it) for it in items), key=lambda qi: -len(qi[0]))

    def policy(prompt: str, attempt: int) -> Reply:
        item = next(it for q, it in index if q in prompt)
        if replies is None:
            return ok(NO_YES_NO[item.lang])
        yes, no = replies[item.lang]
        return ok(yes if item.reference.strip() in prompt else no)

    with FaultServer(policy) as server:
        _cli(["run", "--benchmark", "xlinghealth/liveqa", "--data-dir", str(data_dir), "--languages", ",".join(LANGS),
              "--tasks", "verifiability", "--model", "openai/m", "--base-url", server.url, "--verify-parser", parser,
              "--no-logprobs", "--temperatures", "0", "--limit", str(LIMIT), "--out", str(out),
              "--no-report"])  # fmt: skip
    summary: dict[str, Any] = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    return summary["tasks"]["verifiability"]


@pytest.mark.parametrize("parser", ["paper", "strict"])
@pytest.mark.parametrize("phrasing", list(YES_NO))
def test_yes_no_claims_read_in_every_language(data_dir: Path, tmp_path: Path, phrasing: str, parser: str) -> None:
    v = _verifiability(data_dir, tmp_path / "run", YES_NO[phrasing], parser)
    for lang in LANGS:
        s = v["languages"][lang]["temperatures"]["0"]
        assert s["n_claims"] == 5 * LIMIT and s["n_unparsed"] == 0, (lang, phrasing)
        assert (s["accuracy"], s["macro_f1"]) == (1.0, 1.0), (lang, phrasing)
        assert v["parsing"]["kinds"][lang]["read"] == 5 * LIMIT
    assert v["parsing"]["warnings"] == []


def test_a_reply_without_yes_or_no_is_unparsed(data_dir: Path, tmp_path: Path) -> None:
    v = _verifiability(data_dir, tmp_path / "run", None, "strict")
    for lang in LANGS:
        s = v["languages"][lang]["temperatures"]["0"]
        assert (s["n_unparsed"], s["n_scored"]) == (5 * LIMIT, 0), lang
        assert v["parsing"]["methods"][lang] == {"unparsed": 5 * LIMIT}
    assert len(v["parsing"]["warnings"]) == len(LANGS)


def test_the_report_gives_the_papers_headline_numbers(
    data_dir: Path, tmp_path: Path, expected: dict[str, Counter[str]]
) -> None:
    from xlingmed.analysis.paper import headline_numbers

    _correctness(data_dir, tmp_path / "run", PAPER_JUDGE["option string on the last line"], "paper")
    _cli(["report", str(tmp_path / "run"), "--resamples", "50"])
    html = (tmp_path / "run" / "report" / "index.html").read_text(encoding="utf-8")
    h = headline_numbers({"liveqa": {lang: dict(c) for lang, c in expected.items()}})
    assert "The paper&#39;s headline numbers" in html or "The paper's headline numbers" in html
    assert f"{h['fewer_comprehensive_pp']:.2f} %" in html
    # the same numbers, with their inputs, for a pipeline: stats/paper_headline.csv and summary.json
    import pandas as pd

    table = pd.read_csv(tmp_path / "run" / "report" / "stats" / "paper_headline.csv")
    mean = table[table["row"] == "mean"].set_index("dataset")
    assert mean.loc["xlinghealth/liveqa", "fewer_comprehensive_pp"] == pytest.approx(h["fewer_comprehensive_pp"])
    summary = json.loads((tmp_path / "run" / "summary.json").read_text(encoding="utf-8"))
    mine = summary["tasks"]["correctness"]["paper_headline"]
    assert mine["fewer_comprehensive_pp"] == pytest.approx(h["fewer_comprehensive_pp"])
    assert mine["inputs"]["n_reference"] == LIMIT and mine["inputs"]["languages"] == sorted(LANGS)


def test_table_a11_gives_mean_and_sd_over_temperatures_with_the_papers_auc(data_dir: Path, tmp_path: Path) -> None:
    from xlingmed.metrics.classification import binary_metrics

    items = load_items("liveqa", data_dir, LANGS, limit=LIMIT)[0]
    index = sorted(((it.question.strip(), it) for it in items), key=lambda qi: -len(qi[0]))

    def policy(prompt: str, attempt: int, payload: dict[str, Any]) -> Reply:  # right at τ=0; yes to all at τ=1
        item = next(it for q, it in index if q in prompt)
        return ok("Yes" if payload["temperature"] == 1 or item.reference.strip() in prompt else "No")

    policy.with_payload = True  # type: ignore[attr-defined]

    with FaultServer(policy) as server:
        _cli(["run", "--benchmark", "xlinghealth/liveqa", "--data-dir", str(data_dir), "--languages", "en,es",
              "--tasks", "verifiability", "--model", "openai/m", "--base-url", server.url, "--no-logprobs",
              "--temperatures", "0,1", "--limit", str(LIMIT), "--out", str(tmp_path / "run"),
              "--no-report"])  # fmt: skip
    v = json.loads((tmp_path / "run" / "summary.json").read_text(encoding="utf-8"))["tasks"]["verifiability"]
    for lang in ("en", "es"):
        t0, t1 = (v["languages"][lang]["temperatures"][t] for t in ("0", "1"))
        assert (t0["auc_hard_labels"], t1["auc_hard_labels"]) == (1.0, 0.5)  # = macro recall
        assert t0["auc_hard_labels"] == t0["macro_recall"] and t0["auc_p_yes"] is None
        assert v["languages"][lang]["sd_over_temperatures"]["auc_hard_labels"] == pytest.approx(0.35355, abs=1e-4)
    row = next(r for r in v["table_a11"] if r["lang"] == "en")
    assert row["AUC (hard labels, paper)"] == "0.750 ± 0.354" and row["n_temperatures"] == 2
    csv_text = (tmp_path / "run" / "verifiability_table_a11.csv").read_text(encoding="utf-8")
    assert "0.750 ± 0.354" in csv_text
    m = binary_metrics([1, 0, 1, 0], [1, 0, 0, 0], [0.9, 0.2, 0.6, 0.4])
    # summary.json → auc is the paper's (from the readings), whether or not logprobs came back
    assert (m["auc_hard_labels"], m["auc_p_yes"], m["auc"], m["auc_source"]) == (0.75, 1.0, 0.75, "hard_labels")


@pytest.mark.parametrize("phrasing", ["English word (as asked)", "English word with a reason", "the item's language"])
def test_the_medalpaca_parser_reads_english_only_and_never_guesses(
    data_dir: Path, tmp_path: Path, phrasing: str
) -> None:
    """MedAlpaca's sets are English and case-sensitive (spec §5.6): a yes or no in another language is unparsed,
    counted per language, never read as a value."""
    v = _verifiability(data_dir, tmp_path / "run", YES_NO[phrasing], "medalpaca")
    english = phrasing.startswith("English")
    for lang in LANGS:
        s = v["languages"][lang]["temperatures"]["0"]
        methods = v["parsing"]["methods"][lang]
        if english or lang == "en":
            assert methods == {"medalpaca_yes": LIMIT, "medalpaca_no": 4 * LIMIT}, (lang, methods)
            assert (s["accuracy"], s["n_unparsed"]) == (1.0, 0)
        elif lang == "es":  # "Sí." is no English word; "No." is
            assert methods == {"unparsed": LIMIT, "medalpaca_no": 4 * LIMIT}, methods
            assert s["n_unparsed"] == LIMIT and s["n_scored"] == 4 * LIMIT
        else:  # 是的 / 不是, हाँ / नहीं: nothing the MedAlpaca sets know
            assert methods == {"unparsed": 5 * LIMIT} and s["n_scored"] == 0, (lang, methods)


def test_fewer_comprehensive_answers_in_a_language_read_as_worse(data_dir: Path, tmp_path: Path) -> None:
    """The direction of the paper's headline outcome: the judge calls every English answer more comprehensive
    than the expert's and no Hindi one; "more comprehensive" is higher-is-better, so Hindi's gap is −1 and worse."""

    def policy(prompt: str, attempt: int) -> Reply:
        if "Compare Answer 2 with Answer 1" not in prompt:
            return ok("Rest, fluids and a doctor's visit if it gets worse.")
        hindi = re.search("[\u0900-\u097f]", prompt.split("Answer 1:", 1)[0]) is not None
        return ok(f"{REASONING}\n{OPTION['less' if hindi else 'more']}")

    out = tmp_path / "run"
    with FaultServer(policy) as server:
        _cli(["run", "--benchmark", "xlinghealth/liveqa", "--data-dir", str(data_dir), "--languages", "en,hi",
              "--tasks", "correctness", "--model", "openai/m", "--base-url", server.url, "--judge", "openai/j",
              "--judge-base-url", server.url, "--limit", "3", "--out", str(out), "--no-report"])  # fmt: skip
    _cli(["report", str(out), "--resamples", "50"])
    import pandas as pd

    scores = pd.read_parquet(out / "scores.parquet")
    more = scores[scores["metric"] == "more_comprehensive"]
    assert set(more["higher_is_better"]) == {True}
    assert more.groupby("lang")["value"].mean().to_dict() == {"en": 1.0, "hi": 0.0}
    gaps = pd.read_csv(out / "report" / "stats" / "gaps.csv")
    row = gaps[(gaps["metric"] == "more_comprehensive") & (gaps["lang"] == "hi")].iloc[0]
    assert (row["mean_reference"], row["mean_lang"], row["gap"]) == (1.0, 0.0, -1.0) and bool(row["higher_is_better"])
