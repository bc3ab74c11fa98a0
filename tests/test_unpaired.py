"""Paired statistics only where a set is parallel: unpaired gaps and verdicts on MMedBench-like sets, said beside
every number, and the verdicts on human-translated items beside all items when a set mixes translations."""

from __future__ import annotations

import math
from functools import partial
from pathlib import Path

import hub_fixtures as fx
import pandas as pd
import pytest
from fault_server import FaultServer, Reply, ok
from scipy import stats

from xlingmed.analysis.gaps import gap_unpaired
from xlingmed.analysis.verdict_record import VerdictOptions
from xlingmed.analysis.verdicts import noninferiority as _noninferiority
from xlingmed.config import make_config
from xlingmed.report import build_report
from xlingmed.runner import evaluate
from xlingmed.tasks.registry import task_outcomes

# the registry's tasks, handed to the statistics as the report hands them (analysis imports no task)
noninferiority = partial(_noninferiority, tasks=task_outcomes())


def _scores(values: dict[str, list[float]]) -> pd.DataFrame:
    rows = [
        {"item_id": f"{lang}-{k}", "lang": lang, "task": "multiple_choice", "metric": "correct", "value": v,
         "condition": None, "unit": "", "kind": "binary", "higher_is_better": True, "temperature": 0.0}
        for lang, vs in values.items() for k, v in enumerate(vs)
    ]  # fmt: skip
    return pd.DataFrame(rows)


def test_unpaired_gap_compares_each_languages_own_items() -> None:
    values = _scores({"en": [1, 0, 1, 1], "zh": [0, 0, 1]})[["item_id", "lang", "value"]]
    row = gap_unpaired(values, "zh", "en", kind="binary", n_resamples=2000, seed=0)
    assert (row["design"], row["n_items"], row["n_reference"], row["test"]) == ("unpaired", 3, 4, "fisher_exact")
    assert row["gap"] == pytest.approx(1 / 3 - 3 / 4)
    assert row["p"] == pytest.approx(stats.fisher_exact([[1, 2], [3, 1]]).pvalue)
    assert row["effect_size"] == pytest.approx(2 * math.asin(math.sqrt(1 / 3)) - 2 * math.asin(math.sqrt(3 / 4)))
    assert row["ci_low"] < row["gap"] < row["ci_high"]


def test_unpaired_verdict_resamples_each_language_and_says_so() -> None:
    scores = _scores({"en": [1.0] * 30, "zh": [1.0] * 25 + [0.0] * 5})
    rows = noninferiority(scores, ["en", "zh"], margins={"accuracy": 0.05},
                          options=VerdictOptions(n_resamples=2000, parallel=False))
    (row,) = rows
    assert (row["design"], row["n_items"], row["n_reference"]) == ("unpaired", 30, 30)
    assert row["difference"] == pytest.approx(-5 / 30) and row["verdict"] == "inferior"
    assert row["reason"].startswith("unpaired (different questions per language); upper bound")
    # the same scores read as paired find no item in both languages (their ids differ): nothing to pair
    (paired,) = noninferiority(scores, ["en", "zh"], options=VerdictOptions(n_resamples=200))
    assert paired["n_items"] == 0 and paired["verdict"] == "inconclusive"


def _letters(prompt: str, attempt: int) -> Reply:
    """English questions answered A (right), every other language B (wrong)."""
    return ok("The answer is A." if "Which" in prompt else "The answer is B.")


def test_a_non_parallel_set_gets_unpaired_statistics_in_the_report(tmp_path: Path) -> None:
    with FaultServer(_letters) as server:
        cfg = make_config(benchmark="mmedbench", data_dir=fx.mmedbench(tmp_path / "data"), languages="en,zh",
                          model="openai/m", base_url=server.url, out=tmp_path / "run", max_tokens=8)  # fmt: skip
        result = evaluate(cfg)
    assert result.summary["dataset"]["parallel"] is False
    build_report([tmp_path / "run"], n_resamples=500)
    stats_dir = tmp_path / "run" / "report" / "stats"
    gaps = pd.read_csv(stats_dir / "gaps.csv")
    row = gaps[(gaps["metric"] == "correct") & (gaps["lang"] == "zh")].iloc[0]
    assert (row["design"], row["n_items"], row["n_reference"], row["gap"]) == ("unpaired", 2, 2, -1.0)
    assert row["p"] == pytest.approx(stats.fisher_exact([[0, 2], [2, 0]]).pvalue)
    assert (stats_dir / "paired.csv").read_text(encoding="utf-8").strip() == ""  # no pairs, no paired test
    verdicts = pd.read_csv(stats_dir / "verdicts.csv")
    assert set(verdicts["design"]) == {"unpaired"} and verdicts["reason"].str.startswith("unpaired").all()
    html = (tmp_path / "run" / "report" / "index.html").read_text(encoding="utf-8")
    assert "each language against English (unpaired: different questions per language)" in html
    assert "2 vs 2 (en)" in html


def test_mixed_translations_get_verdicts_on_human_items_too(tmp_path: Path) -> None:
    # Global-MMLU: Spanish is post-edited (the Lite languages), Amharic machine-translated
    root = fx.global_mmlu(tmp_path / "data", langs=("en", "es", "am"))
    with FaultServer(_letters) as server:
        cfg = make_config(benchmark="global-mmlu/medical", data_dir=root, languages="en,es,am", model="openai/m",
                          base_url=server.url, out=tmp_path / "run", max_tokens=8)  # fmt: skip
        evaluate(cfg)
    scores = pd.read_parquet(tmp_path / "run" / "scores.parquet")
    assert dict(scores.groupby("lang")["translation"].first()) == {"en": "original", "es": "post-edited",
                                                                    "am": "machine"}  # fmt: skip
    build_report([tmp_path / "run"], n_resamples=500)
    report = tmp_path / "run" / "report"
    every = pd.read_csv(report / "stats" / "verdicts.csv")
    human = pd.read_csv(report / "stats" / "verdicts_human_translated.csv")
    assert set(every["lang"]) == {"es", "am"} and set(human["lang"]) == {"es"}
    assert set(every["design"]) == {"paired"}
    assert "Human-translated items only:" in (report / "verdict.txt").read_text(encoding="utf-8")
