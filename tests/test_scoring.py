"""The engine's scoring pipeline (``engine/scoring.py``): one way to Scores for every task, the parse counts added
in one place, a task's own spool dropped once copied, and a task of 0.1 that still defines ``score`` called
through the deprecated adapter with the same result."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from xlingmed import output
from xlingmed.engine.scoring import score_task
from xlingmed.score_spool import ScoreSpool
from xlingmed.tasks.base import TaskResult
from xlingmed.tasks.correctness import CorrectnessTask
from xlingmed.tasks.multiple_choice import MultipleChoiceTask
from xlingmed.tasks.registry import get_task
from xlingmed.types import Score


def _correctness_records() -> list[dict[str, Any]]:
    return [
        {"item_id": f"q{i}", "lang": lang, "label": label, "parse_method": "paper_tail", "answer": "Rest."}
        for i, (lang, label) in enumerate([("en", "more"), ("en", "less"), ("hi", "more"), ("hi", "contradictory")])
    ]


class _Legacy(CorrectnessTask):
    """A task as a 0.1 plugin wrote it: its own ``score``, its ``TaskResult`` carrying the Scores."""

    def score(self, records: Sequence[dict[str, Any]], languages: Sequence[str]) -> TaskResult:
        rows = self.enrich(records, languages)
        units = get_task("correctness").scores(rows)  # type: ignore[misc]
        return TaskResult(rows=rows, summary=self.summarize(units, languages), tables={"extra": []}, units=units)


def test_a_task_that_still_defines_score_runs_through_the_adapter_with_a_warning() -> None:
    spec, records, langs = get_task("correctness"), _correctness_records(), ["en", "hi"]
    new: list[Score] = []
    scored = score_task(CorrectnessTask(), spec, records, langs, new)
    old: list[Score] = []
    with pytest.warns(DeprecationWarning, match="defines score"):
        legacy = score_task(_Legacy(), spec, records, langs, old)
    assert old == new and legacy.summary == scored.summary and list(legacy.rows) == list(scored.rows)
    assert legacy.tables == {"extra": []} and scored.tables == {}
    assert "parsing" in scored.summary  # correctness reads a label: its parse methods are counted
    assert "parsing" in score_task(CorrectnessTask(), spec, records, langs, [], count_parsing=True).summary
    assert "parsing" not in score_task(CorrectnessTask(), spec, records, langs, [], count_parsing=False).summary


def test_a_spooled_task_s_scores_are_copied_into_the_run_s_and_its_own_spool_dropped(tmp_path: Path) -> None:
    records = output.RecordSpool(tmp_path / "run")
    records.extend(
        {"item_id": f"i{k}", "lang": "ar", "temperature": 0.0, "condition": "original", "category": "c",
         "bias": None, "gold": "A", "prediction": "A" if k % 2 else "B", "parse_method": "letter", "valid": True,
         "correct": bool(k % 2), "error": None}
        for k in range(4)
    )  # fmt: skip
    into = ScoreSpool(tmp_path / "run")
    try:
        task = MultipleChoiceTask(template={"system": "", "user": ""})
        scored = score_task(task, get_task("multiple_choice"), records, ["ar"], into)
        assert len(into) == 4 and {s.metric for s in into} == {"correct"}
        assert sorted(scored.tables) == ["multiple_choice_table1"]
        assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".scores")] == [into.path.name]
    finally:
        into.discard()
        records.discard()
