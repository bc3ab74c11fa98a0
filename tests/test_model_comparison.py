"""Model-vs-model tests and rankings (``analysis.models``) on constructed Scores of three models."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from xlingmed.analysis.models import compare_models as _compare_models
from xlingmed.output import SCORE_COLUMNS
from xlingmed.tasks.registry import task_outcomes

# the registry's tasks, handed to the statistics as the report hands them (analysis imports no task)
compare_models = partial(_compare_models, tasks=task_outcomes())


def _run(model: str, values: dict[str, list[int]]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {"item_id": f"q{i}", "lang": lang, "task": "multiple_choice", "metric": "correct", "value": float(v),
             "temperature": 0.0, "kind": "binary", "higher_is_better": True}
            for lang, vs in values.items()
            for i, v in enumerate(vs)
        ]
    ).reindex(columns=list(SCORE_COLUMNS)).assign(model=model)  # fmt: skip


def test_pairs_and_ranking_find_the_model_that_is_worse_in_one_language() -> None:
    base = [1] * 160 + [0] * 40  # 80 %
    worse = [0 if i < 30 else v for i, v in enumerate(base)]  # 30 correct answers lost: 65 %
    scores = pd.concat(
        [
            _run("openai/a", {"en": base, "hi": base}),
            _run("openai/b", {"en": base, "hi": base}),
            _run("openai/c", {"en": base, "hi": worse}),
        ]
    )
    out = compare_models(scores, ["en", "hi"], n_resamples=1000)
    pairs = {(r["lang"], r["model_a"], r["model_b"]): r for r in out["pairs"]}
    assert len(pairs) == 6  # 3 model pairs × 2 languages, one outcome
    ac = pairs[("hi", "openai/a", "openai/c")]
    assert ac["outcome"] == "accuracy" and ac["n_items"] == 200 and ac["test"] == "mcnemar"
    assert ac["difference"] == pytest.approx(-0.15) and ac["ci_high"] < 0
    assert ac["p_holm"] < 0.001
    ab = pairs[("hi", "openai/a", "openai/b")]
    assert ab["difference"] == 0.0 and ab["p"] == 1.0
    assert pairs[("en", "openai/a", "openai/c")]["p"] == 1.0
    # Holm across the six comparisons of the outcome: each adjusted p at least its raw p
    assert all(r["p_holm"] >= r["p"] for r in out["pairs"])

    ranks = {(r["lang"], r["model"]): r for r in out["ranking"]}
    assert ranks[("hi", "openai/c")]["rank"] == 3 and ranks[("hi", "openai/c")]["rank_low"] == 3
    assert ranks[("hi", "openai/a")]["rank"] == ranks[("hi", "openai/b")]["rank"] == 1  # a tie shares the rank
    assert ranks[("hi", "openai/a")]["value"] == pytest.approx(0.8)
    c = ranks[("hi", "openai/c")]
    assert c["ci_low"] < 0.65 < c["ci_high"] and c["n_items"] == 200
    assert {r["rank"] for r in out["ranking"] if r["lang"] == "en"} == {1}


def test_continuous_outcome_uses_wilcoxon_on_item_means() -> None:
    rng = np.random.default_rng(0)
    a = rng.normal(3.5, 0.5, 80)
    rows = []
    for model, shift in (("openai/a", 0.0), ("openai/b", 0.4)):
        for i, v in enumerate(a):
            for t in (0.0, 1.0):  # two temperatures: the item's mean is the unit of the test
                rows.append(
                    {"item_id": f"q{i}", "lang": "ar", "task": "rubric", "metric": "average",
                     "value": v + shift + (0.1 if t else -0.1), "temperature": t, "kind": "continuous",
                     "higher_is_better": True, "model": model}
                )  # fmt: skip
    out = compare_models(pd.DataFrame(rows), ["ar"], n_resamples=500)
    (pair,) = out["pairs"]
    assert pair["test"] == "wilcoxon" and pair["n_items"] == 80
    assert pair["difference"] == pytest.approx(0.4) and pair["p"] < 1e-6
    assert [r["rank"] for r in sorted(out["ranking"], key=lambda r: r["model"])] == [2, 1]


def test_runs_on_other_items_are_refused_and_other_settings_are_marked(tmp_path: Path) -> None:
    from xlingmed.report.compare import compatibility
    from xlingmed.report.load import RunData

    def run(name: str, model: str, benchmark: str = "xlinghealth/liveqa", sha: str = "abc", judge: str = "j",
            prompt: str = "Q?") -> RunData:  # fmt: skip
        folder = tmp_path / name
        folder.mkdir()
        line = {"task": "correctness", "item_id": "q0", "lang": "en", "prompt": [{"role": "user", "content": prompt}]}
        (folder / "samples.jsonl").write_text(json.dumps(line) + "\n", encoding="utf-8")
        return RunData(
            folder,
            {"model": model, "benchmark": benchmark, "n_items_per_language": {"en": 1}},
            {"dataset": {"sha256": sha}, "resolved": {"judge": judge, "temperatures": {"correctness": [0.0]}},
             "xlingmed_version": "0.2"},
        )  # fmt: skip

    a = run("a", "openai/a")
    assert compatibility([a, run("b", "openai/b")]) == (None, [])
    refused, _ = compatibility([a, run("c", "openai/c", benchmark="xlinghealth/healthqa")])
    assert refused is not None and "different benchmarks" in refused
    refused, _ = compatibility([a, run("d", "openai/d", sha="other")])
    assert refused is not None and "different dataset files" in refused
    _, marks = compatibility([a, run("e", "openai/e", judge="other", prompt="Question?")])
    assert any(m.startswith("judge differs (openai/a: j; openai/e: other)") for m in marks)
    assert "the prompts differ on 1 of 1 shared (task, item, language)" in marks
