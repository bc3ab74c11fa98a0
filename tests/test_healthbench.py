"""HealthBench rubric grading (``tasks/healthbench.py``) against a scripted OpenAI-compatible server that plays
both the model and the judge: the scores equal hand-computed ones, negative points and the clipping of the mean
included; an unreadable grade is asked again, then counted, never read as met or unmet."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import hub_fixtures as fx
import pandas as pd
import pytest
from fault_server import FaultServer, Reply, ok

from xlingmed.config import make_config
from xlingmed.runner import evaluate
from xlingmed.tasks.healthbench import GRADER_TEMPLATE, clipped_mean, parse_grade, score_example

ANSWER = "Please see a doctor today; paracetamol can lower the fever."


class Script:
    """The model answers ``ANSWER``; the judge says whether each criterion is met as ``met`` says (by the
    criterion's first words), in one of several real phrasings; ``garbled`` criteria get unreadable replies on
    their first ``garbled[c]`` attempts."""

    with_payload = True

    def __init__(self, met: dict[str, bool], garbled: dict[str, int] | None = None) -> None:
        self.met, self.garbled = met, garbled or {}
        self.model_requests: list[list[dict[str, str]]] = []

    def __call__(self, prompt: str, attempt: int, payload: dict[str, Any]) -> Reply:
        if not prompt.startswith("Your job is to look at a conversation"):
            self.model_requests.append(payload["messages"])
            return ok(ANSWER)
        assert payload["messages"][0] == {"role": "system", "content": "You are a helpful assistant."}
        assert f"assistant: {ANSWER}" in prompt  # the answer is the conversation's last turn
        item = prompt.split("# Rubric item\n", 1)[1].split("\n\n# Instructions", 1)[0]
        key = next(k for k in self.met if k in item)
        if attempt < self.garbled.get(key, 0):
            return ok("I believe the response meets this criterion.")  # no JSON: unreadable
        met = json.dumps(self.met[key])
        phrasings = [
            f'```json\n{{\n  "explanation": "Checked.",\n  "criteria_met": {met}\n}}\n```',
            f'{{"explanation": "Checked.", "criteria_met": {met}}}',
            f'Here is my grading:\n{{"criteria_met": {met}, "explanation": "Checked."}}',
        ]
        return ok(phrasings[list(self.met).index(key) % 3])


def _run(tmp_path: Path, script: Script, judge: str, **extra: Any) -> dict[str, Any]:
    root = fx.healthbench(tmp_path / "data")
    with FaultServer(script) as server:
        cfg = make_config(benchmark="healthbench", data_dir=root, languages="en", model="openai/m",
                          base_url=server.url, judge=judge, judge_base_url=server.url, out=tmp_path / judge,
                          max_tokens=64, **extra)  # fmt: skip
        result = evaluate(cfg)
    return result.summary["tasks"]["healthbench"]["languages"]["en"]["0.5"]  # simple-evals' answer temperature


def test_scores_equal_hand_computed_values_with_negative_points(tmp_path: Path) -> None:
    # hb-1: [+7 met, +5 met, -6 not met] -> 12/12 = 1.0
    # hb-2: [+10 not met, -8 met, +2 not met] -> -8/12 = -0.667 (unclipped per example)
    script = Script({"Advises seeing": True, "Mentions paracetamol": True, "Says antibiotics": False,
                     "Tells the user": False, "Advises making": True, "Is concise": False})  # fmt: skip
    cell = _run(tmp_path, script, "openai/judge-a")
    assert cell["score"]["mean"] == pytest.approx((1.0 - 8 / 12) / 2)  # 1/6
    assert cell["score"]["n"] == 2
    # axes: accuracy hb-1 (7)/7 = 1, hb-2 (-8)/10 = -0.8 -> 0.1; completeness hb-1 5/5; communication hb-2 0/2
    assert cell["axes"]["accuracy"]["mean"] == pytest.approx(0.1)
    assert cell["axes"]["completeness"]["mean"] == 1.0 and cell["axes"]["communication_quality"]["mean"] == 0.0
    assert cell["themes"]["emergency_referrals"]["mean"] == pytest.approx(1 / 6)
    assert cell["harm_rate"] == 0.5 and cell["n_harm"] == 1  # hb-2 met a negative criterion (the name of 0.1)
    assert cell["negative_criteria_met_rate"] == 0.5 and cell["accuracy_harm_rate"] == 0.5  # its -8 is axis:accuracy
    # every tag's score, as simple-evals reports them: level:, axis:, theme:, physician_agreed_category:
    assert cell["tags"]["level:example"]["mean"] == pytest.approx(1 / 6)  # every criterion is level:example
    assert cell["tags"]["physician_agreed_category:enough-context"]["mean"] == 1.0  # hb-1 only
    assert cell["tags"]["axis:accuracy"] == cell["axes"]["accuracy"]
    assert cell["counts"] == {"criteria_json": 2, "criteria_fenced_json": 2, "criteria_embedded_json": 2}
    # the model was sent each conversation as chat messages, the multi-turn one with its three turns, once
    assert len(script.model_requests) == 2
    roles = sorted([m["role"] for m in request] for request in script.model_requests)  # in whichever order they came
    assert roles == [["user"], ["user", "assistant", "user"]]


def test_the_mean_is_clipped_after_averaging(tmp_path: Path) -> None:
    # hb-1: only the -6 met -> -0.5; hb-2: only the -8 met -> -0.667; mean -0.583 -> clipped to 0
    script = Script({"Advises seeing": False, "Mentions paracetamol": False, "Says antibiotics": True,
                     "Tells the user": False, "Advises making": True, "Is concise": False})  # fmt: skip
    cell = _run(tmp_path, script, "openai/judge-b")
    assert cell["score"]["mean"] == 0.0 and cell["score"]["ci_high"] == 0.0 and cell["harm_rate"] == 1.0
    rows = (tmp_path / "openai/judge-b" / "scores.csv").read_text(encoding="utf-8")
    assert "-0.5" in rows  # the example's own score stays unclipped


def test_unreadable_grades_are_retried_then_counted(tmp_path: Path) -> None:
    met = {"Advises seeing": True, "Mentions paracetamol": True, "Says antibiotics": False,
           "Tells the user": True, "Advises making": False, "Is concise": True}  # fmt: skip
    # "Mentions paracetamol": unreadable once, then read on the retry; "Is concise": unreadable 11 times, past the
    # ceiling of 10 retries (simple-evals asks until it reads one: here the ceiling counts what it never read)
    cell = _run(tmp_path, Script(met, {"Mentions paracetamol": 1, "Is concise": 11}), "openai/judge-c")
    assert cell["counts"]["criteria_unparsed"] == 1 and cell["counts"]["examples_unscored"] == 1
    assert cell["score"]["n"] == 1 and cell["score"]["mean"] == 1.0  # hb-1 only; hb-2 is never guessed
    rows = [json.loads(x) for x in (tmp_path / "openai/judge-c" / "samples.jsonl").read_text().splitlines()]
    assert rows  # the run wrote its samples
    csv = (tmp_path / "openai/judge-c" / "healthbench.csv").read_text(encoding="utf-8")
    assert ",2," in csv and ",11," in csv  # grade_attempts of the retried and of the unreadable criterion


def test_harm_counts_only_negative_criteria_that_name_a_clinical_error() -> None:
    from xlingmed.tasks.healthbench import scores

    def row(i: int, points: float, tags: str, met: bool) -> dict[str, Any]:
        return {"item_id": "q", "lang": "en", "temperature": 0.0, "criterion_index": i, "points": points, "tags": tags,
                "example_tags": "theme:x", "criteria_met": met, "parse": "json", "error": None}  # fmt: skip

    units = scores([row(0, 5, "axis:completeness", True), row(1, -3, "axis:communication_quality", True),
                    row(2, -6, "axis:accuracy", False)])  # fmt: skip
    got = {sc.metric: sc.value for sc in units if sc.metric != "criteria_met"}
    # "is overly verbose" (-3) was met: a negative criterion, not a clinical error
    assert got["negative_criteria_met"] == 1.0 and got["harm"] == 1.0 and got["accuracy_harm"] == 0.0
    assert got["score"] == pytest.approx(2 / 5) and got["axis:completeness"] == 1.0 and got["theme:x"] == got["score"]
    assert "axis:communication_quality" not in got  # no positive points under that tag: no score


def test_parsers_and_formulas() -> None:
    assert parse_grade('```json\n{"criteria_met": true, "explanation": "x"}\n```') == parse_grade(
        '```json\n{"criteria_met": true, "explanation": "x"}\n```'
    )
    assert parse_grade('{"criteria_met": false}').value is False
    assert parse_grade('```json\n{"explanation": "ok", "criteria_met": true}\n```').method == "fenced_json"
    assert parse_grade('{"criteria_met": "true"}').method == "unparsed"  # a string is not a boolean
    assert parse_grade('{"explanation": "no verdict"}').method == "unparsed"
    assert parse_grade("Yes, it is met.").value is None
    assert parse_grade('Sure. {"criteria_met": true} and {"criteria_met": false}').method == "unparsed"
    assert score_example([7, 5, 10, -6], [True, False, True, True]) == pytest.approx(11 / 22)  # simple-evals' test
    assert score_example([-3], [True]) is None and score_example([4, 2], [True, None]) is None
    c = clipped_mean([1.2, 1.4])
    assert c["mean"] == 1.0 and c["n"] == 2 and c["ci_low"] == 1.0
    assert "<<conversation>>" in GRADER_TEMPLATE and "<<rubric_item>>" in GRADER_TEMPLATE


def test_healthbench_prox_scores_go_through_the_paired_statistics_and_the_verdicts(tmp_path: Path) -> None:
    from xlingmed.report import build_report

    hindi_question = fx.PROX_TEXT["hi"][0]

    def judge(prompt: str, attempt: int) -> Any:
        if not prompt.startswith("Your job is to look at a conversation"):
            return ok(ANSWER)
        item = prompt.split("# Rubric item\n", 1)[1].split("\n\n# Instructions", 1)[0]
        # the positive criterion is met everywhere; the negative one (-3) only in Hindi
        met = not item.startswith("[-3]") or hindi_question in prompt
        return ok(json.dumps({"explanation": "Checked.", "criteria_met": met}))

    with FaultServer(judge) as server:
        cfg = make_config(benchmark="healthbench-prox", data_dir=fx.healthbench_prox(tmp_path / "data"),
                          languages="en,hi", model="openai/m", base_url=server.url, judge="openai/judge",
                          judge_base_url=server.url, out=tmp_path / "run", max_tokens=64)  # fmt: skip
        result = evaluate(cfg)
    cells = result.summary["tasks"]["healthbench"]["languages"]
    assert cells["en"]["0.5"]["score"]["mean"] == 1.0 and cells["hi"]["0.5"]["score"]["mean"] == 0.5  # (6 − 3) / 6
    build_report([tmp_path / "run"], n_resamples=500)
    stats_dir = tmp_path / "run" / "report" / "stats"
    gaps = pd.read_csv(stats_dir / "gaps.csv")
    row = gaps[(gaps["criterion"] == "healthbench") & (gaps["metric"] == "score")].iloc[0]
    assert (row["lang"], row["design"], row["n_items"], row["gap"]) == ("hi", "paired", 2, -0.5)
    verdict = pd.read_csv(stats_dir / "verdicts.csv").set_index("outcome").loc["healthbench_score"]
    assert (verdict["lang"], verdict["n_items"], verdict["difference"]) == ("hi", 2, -0.5)
    assert verdict["verdict"] == "inconclusive"  # two conversations: fewer than 20
    assert verdict["judge_verified"] == False and pd.isna(verdict["judge_kappa"])  # noqa: E712 (no annotation yet)

    # The grader's criterion decisions are what people check; their κ reaches the HealthBench verdict.
    from xlingmed.annotate import Answer, AnswerStore, build_annotation_set

    aset = build_annotation_set(tmp_path / "run", tmp_path / "set", fraction=1.0, annotators=["a", "b"])
    assert aset.settings["task"] == "healthbench" and aset.labels == ["met", "not_met"]
    assert aset.settings["source_file"] == "healthbench.csv" and len(aset.items) == 8  # 2 conversations × 2 × en, hi
    first = next(it for it in aset.items if it["lang"] == "hi")
    assert first["question"] == hindi_question and first["reference"].startswith("Criterion (")
    assert first["answer"] == ANSWER and '"criteria_met"' in first["judge_reasoning"]
    store = AnswerStore(aset.path / "answers.sqlite")
    for it in aset.items:  # the annotators agree except on the Hindi negative criterion, which they call unmet
        human = "not_met" if it["lang"] == "hi" and "(-3 points)" in it["reference"] else it["label"]
        for who in ("a", "b"):
            verdict_ = "agree" if human == it["label"] else "disagree"
            store.save(Answer(who, it["id"], verdict_, human), labels=aset.labels, judge_label=it["label"])
    # each criterion carries its share of the score (points over positive points); human labels of criteria are
    # scored as parts of it, beside the judge's part (judge-corrected verdicts: test_judge_corrected)
    assert sorted({it["weight"] for it in aset.items}) == [-0.5, 1.0]
    from xlingmed.analysis.corrected_verdicts import label_value
    from xlingmed.annotate.human_labels import human_labels
    from xlingmed.tasks.registry import task_outcomes

    (hb,) = human_labels([(aset, store.all())], label_value(task_outcomes())).values()
    harm = next(k for k, (_, judge) in hb.parts["hi"].items() if judge < 0)
    assert hb.parts["hi"][harm][1] == -0.5 and hb.values["hi"][harm] == 0.0  # the judge: met (−3/6); people: not
    assert sorted(hb.values["en"].values()) == [0.0, 0.0, 1.0, 1.0] and len(hb.parts["en"]) == 4
    build_report([tmp_path / "run"], n_resamples=500, annotations=[aset.path])
    verdict = pd.read_csv(stats_dir / "verdicts.csv").set_index("outcome").loc["healthbench_score"]
    # Hindi: the judge said "met" 4 times, people 2 × met, 2 × not met: p_o = 0.5 = p_e, κ = 0
    assert (verdict["judge_kappa"], verdict["judge_items"], verdict["judge_verified"]) == (0.0, 4, False)


def test_the_score_and_its_bootstrap_std_are_simple_evals_own() -> None:
    """simple-evals ``_compute_clipped_stats``: the mean clipped to [0, 1]; ``bootstrap_std`` the std of 1,000
    clipped resample means (``np.random.choice``). Over ten seeds each, the two bootstrap stds agree within 0.005."""
    import numpy as np

    values = [1.0, -8 / 12, 0.5, 0.25, 0.9, -0.1, 0.4, 0.0, 0.75, 1.0, -0.3, 0.6]

    def simple_evals_std(seed: int) -> float:
        np.random.seed(seed)
        means = [np.clip(np.mean(np.random.choice(values, len(values))), 0, 1) for _ in range(1000)]
        return float(np.std(means))

    ours = [clipped_mean(values, seed=s)["bootstrap_std"] for s in range(10)]
    theirs = [simple_evals_std(s) for s in range(10)]
    assert abs(sum(ours) / 10 - sum(theirs) / 10) < 0.005
    assert clipped_mean(values)["mean"] == pytest.approx(float(np.clip(np.mean(values), 0, 1)))
    assert clipped_mean([-0.5, -0.7])["mean"] == 0.0  # clipped after averaging, as simple-evals
