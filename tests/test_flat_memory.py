"""The pieces that keep the driver's memory flat as the plan grows (``bench/scale.py`` measures the whole): Scores
spooled on disk in columns (``score_spool.ScoreSpool``), multiple choice's statistics read from columns
(``analysis/conditions.Answers``), reply methods counted from arrays, samples made a part at a time
(``engine/plan.TaskSamples``). Each is checked against the plain computation on the same data."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pandas as pd
import pytest

from xlingmed import score_spool
from xlingmed.analysis.conditions import condition_cell, grouped_answers
from xlingmed.parsing.methods import reply_methods
from xlingmed.score_spool import ScoreSpool
from xlingmed.types import Score


def _mc_scores(n_items: int, seed: int = 3) -> list[Score]:
    """Multiple choice's Scores of a bias run: per item and temperature the original question and two biased
    variants; some failed (value None), some unread (answer None), a followed_bias Score where the bias pointed
    at a wrong option."""
    rng = random.Random(seed)
    out = []
    for i in range(n_items):
        for t in (0.0, 0.5):
            for cond in (None, "biased|recency", "biased|anchoring"):
                group = rng.choice(["cardio", "derm", None])
                common = dict(item_id=f"q{i:04d}", lang="ar", task="multiple_choice", temperature=t, condition=cond,
                              kind="binary", parse_method="marker", group=group)  # fmt: skip
                failed, unread = rng.random() < 0.05, rng.random() < 0.1
                value = None if failed else 0.0 if unread else float(rng.random() < 0.6)
                answer = None if failed or unread else ("A" if value == 1.0 else "C")
                out.append(Score(metric="correct", value=value, answer=answer, target="A", **common))  # type: ignore[arg-type]
                if cond is not None:
                    followed = None if failed else float(answer == "B")
                    out.append(Score(metric="followed_bias", value=followed, higher_is_better=False, answer=answer,
                                     target="B", **common))  # type: ignore[arg-type]  # fmt: skip
    return out


def test_a_score_spool_gives_back_every_score_and_writes_what_pandas_wrote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(score_spool, "BATCH", 7)  # many batches, a partial last one
    scores = _mc_scores(20)
    spool = ScoreSpool(tmp_path / "run")
    spool.extend(scores[:50])
    spool.extend(iter(scores[50:]))
    try:
        assert len(spool) == len(scores) and list(spool) == scores
        assert spool[0] == scores[0] and spool[-1] == scores[-1] and spool[10:13] == scores[10:13]
        other = ScoreSpool(tmp_path / "run")
        other.extend(spool)  # a spool into a spool: its batches as they are
        assert list(other) == scores
        other.discard()
        buf = io.BytesIO()
        spool.write_parquet(buf)
        got = pd.read_parquet(io.BytesIO(buf.getvalue()))
        # what 0.2 wrote: pandas from the Score fields (translation: no value anywhere, a column of None)
        want = pd.DataFrame({c: [getattr(s, c) for s in scores] for c in score_spool.SCORE_COLUMNS})
        want = want.astype({"value": "float64", "temperature": "float64", "higher_is_better": "bool",
                            "probability": "float64"})  # fmt: skip
        expected = io.BytesIO()
        want.to_parquet(expected, index=False)
        assert got.equals(pd.read_parquet(io.BytesIO(expected.getvalue())))
        codes, values = spool.columns(["item_id"], coded=True)["item_id"]
        assert [values[c] for c in codes] == [s.item_id for s in scores]
        assert spool.path.stat().st_mode & 0o077 == 0
    finally:
        spool.discard()
    assert not spool.path.exists()


def test_multiple_choice_statistics_read_from_columns_equal_those_from_a_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(score_spool, "BATCH", 11)
    scores = _mc_scores(60)
    spool = ScoreSpool(tmp_path / "run")
    spool.extend(scores)
    cells = []
    for units in (scores, spool):
        answers, conditions, item_biases = grouped_answers(units, ("original", "biased"))
        assert conditions == ["original", "biased"] and len(item_biases) == 60
        original = answers.keys[("ar", 0.5, "original")]
        cells.append(condition_cell(answers, answers.keys[("ar", 0.5, "biased")], original, "biased", item_biases))
    spool.discard()
    assert cells[0] == cells[1]
    biased = [s for s in scores if s.metric == "correct" and s.temperature == 0.5 and s.condition]
    scored = [s for s in biased if s.value is not None]
    cell = cells[0]
    assert (cell["n"], cell["n_correct"]) == (len(scored), sum(s.value == 1.0 for s in scored))
    assert cell["n_invalid"] == sum(s.answer is None for s in scored) and cell["n_errors"] == len(biased) - len(scored)
    assert cell["n_pairs"] <= len(scored) and set(cell["per_bias"]) == {"anchoring", "recency"}


def test_reply_methods_count_each_reply_once_whatever_the_order(tmp_path: Path) -> None:
    scores = _mc_scores(30)
    shuffled = scores[:]
    random.Random(1).shuffle(shuffled)  # a reply's Scores far apart: still one reply
    for units in (scores, shuffled):
        seen: dict[tuple[object, ...], str] = {}
        for s in units:  # the plain definition: the first method of each (item, lang, temperature, condition, unit)
            seen.setdefault((s.item_id, s.lang, s.temperature, s.condition, s.unit), s.parse_method or "")
        got = reply_methods(units)
        assert len(got) == len(seen) == 30 * 2 * 3
        assert [r["parse_method"] for r in got] == list(seen.values())


def test_samples_made_a_part_at_a_time_are_the_samples_made_at_once(data_dir: Path) -> None:
    from xlingmed.benchmarks import load_benchmark
    from xlingmed.config import make_config
    from xlingmed.engine.plan import TaskSamples, build_tasks

    cfg = make_config(benchmark="xlinghealth/liveqa", data_dir=data_dir, languages="en,es", limit=7,
                      tasks="correctness,verifiability,consistency", temperatures="0,0.5", model="openai/m",
                      task_args={"samples": 3, "consistency_mode": "native",
                                 "consistency_metrics": "ngram,length"})  # fmt: skip
    items, _ = load_benchmark(cfg.spec, cfg.data_dir, cfg.languages, limit=7, seed=0)
    for task in build_tasks(cfg):
        whole = task.samples(items)
        for size in (1, 5, 13, 10_000):
            made = TaskSamples.of(task, items)
            parts = list(made.parts(size))
            assert [s for part in parts for s in part] == whole and made.count == len(whole)
            assert all(len(part) <= max(size, len(task.samples(items[:1]))) for part in parts)
