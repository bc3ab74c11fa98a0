"""A task's records scored: the one pipeline every task goes through, owned by the engine (issue 63, part 2).

records → the task's rows (its declared ``enrich`` step where it has one: BERTScore, answer metrics,
consistency's questions) → Scores (``TaskSpec.scores``; on disk, a chunk of rows at a time, where
``TaskSpec.spool``) → the summary (the task's ``summarize``, from the Scores alone; then its ``annotate`` where it
adds what the rows say beside their Scores) → its further tables (the task's ``tables``, where it has them).
A run (``engine/run.py``) and an imported run (``importers/run_folder.py``) both call ``score_task``, so both are
scored, counted and written alike.
"""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Iterable, Mapping, MutableSequence, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, cast

from xlingmed.parsing.methods import parse_counts, reply_methods
from xlingmed.score_spool import ScoreSpool, spooled_scores
from xlingmed.tasks.base import Scoring, summary_json
from xlingmed.types import Completion, Parsed, Sample, Score

if TYPE_CHECKING:
    from xlingmed.tasks.base import Task
    from xlingmed.tasks.registry import TaskSpec

__all__ = ["Scored", "record", "score_task", "with_translation"]


@dataclass
class Scored:
    """One task scored.

    Attributes:
        rows: the task's main table (``<task>.csv``): its records, or the rows its ``enrich`` made of them.
        summary: the task's block in ``summary.json`` (its summary dumped; ``parsing`` added where counted).
        tables: its further tables, written as ``<name>.csv``.
    """

    rows: Sequence[dict[str, Any]]
    summary: dict[str, Any]
    tables: dict[str, list[dict[str, Any]]]


def with_translation(scores: Iterable[Score], made: Mapping[tuple[str, str], str]) -> Iterable[Score]:
    """The Scores with each item's translation provenance ((item_id, lang) → how its text was made), so that the
    report can restrict a statistic to human-translated items; unchanged when no item has one. Lazy: one Score at
    a time."""
    if not made:
        return scores
    return (replace(s, translation=made.get((s.item_id, s.lang))) for s in scores)


def record(
    task: Task, sample: Sample, completions: Mapping[str, Completion], parsed: Mapping[str, Parsed | None]
) -> dict[str, Any]:
    """``task``'s row for ``sample``, handed the replies as the engine parsed them once (stage → ``Parsed``, as
    ``samples.jsonl`` logs them) where its ``record`` takes ``parsed``; a task that does not parses again itself."""
    if _takes_parsed(type(task)):
        row: dict[str, Any] = cast(Any, task).record(sample, completions, parsed=parsed)
        return row
    return task.record(sample, completions)


@functools.cache
def _takes_parsed(kind: type) -> bool:
    try:
        return "parsed" in inspect.signature(kind.record).parameters  # type: ignore[attr-defined]
    except (TypeError, ValueError):  # no signature to read (a builtin): called as the protocol says
        return False


def score_task(
    task: Task,
    spec: TaskSpec,
    records: Sequence[dict[str, Any]],
    languages: Sequence[str],
    into: ScoreSpool | MutableSequence[Score],
    *,
    count_parsing: bool | None = None,
    made: Mapping[tuple[str, str], str] | None = None,
) -> Scored:
    """Score ``task``'s ``records`` (a run's ``output.RecordSpool``, or rows read back) over ``languages``; its
    Scores are appended to ``into`` (the run's ``scores.parquet`` spine), with ``made``'s translation provenance.

    ``count_parsing``: add the summary's ``parsing`` block (how replies were read, per language × method);
    ``None`` = where the task reads a choice or label (``spec.parses``). An imported run counts it for every task.
    A task's own on-disk spool of Scores is discarded once copied into ``into``.

    Raises:
        whatever the task's steps raise (an encoder that fails to load, a bad row).
    """
    rows, units, summary, tables = _pipeline(task, spec, records, languages)
    try:
        into.extend(with_translation(units, made or {}))
        block = summary_json(summary)
        if spec.parses if count_parsing is None else count_parsing:  # every parse visible, with the >5 % warnings
            block["parsing"] = parse_counts(reply_methods(units), languages)
    finally:
        if isinstance(units, ScoreSpool) and units is not into:  # the task's own spool: copied, then dropped
            units.discard()
    return Scored(rows=rows, summary=block, tables=tables)


def _pipeline(
    task: Task, spec: TaskSpec, records: Sequence[dict[str, Any]], languages: Sequence[str]
) -> tuple[Sequence[dict[str, Any]], Sequence[Score], Any, dict[str, list[dict[str, Any]]]]:
    """rows, Scores, summary and further tables of ``records``: the task's declared steps, or (a task of 0.1 that
    still defines ``score``) what its ``score`` returns."""
    if getattr(task, "score", None) is not None:
        return _legacy(task, spec, records, languages)
    enrich = getattr(task, "enrich", None)
    rows = enrich(records, languages) if enrich is not None else records
    units = _scores(spec, rows)
    try:
        summary = task.summarize(units, languages)
        annotate = getattr(task, "annotate", None)
        if annotate is not None:  # what the summary adds from the rows beside their Scores (MC's extractor)
            summary = annotate(Scoring(records, rows, units, summary, languages))
        finish = getattr(task, "tables", None)
        tables = finish(Scoring(records, rows, units, summary, languages)) if finish is not None else {}
    except BaseException:
        if isinstance(units, ScoreSpool):
            units.discard()
        raise
    return rows, units, summary, tables


def _scores(spec: TaskSpec, rows: Sequence[dict[str, Any]]) -> Sequence[Score]:
    """The Scores of ``rows``: ``spec.scores`` (none for a task that scores nothing itself); a chunk of rows at a
    time into a spool on disk where ``spec.spool`` and the rows are a run's record spool."""
    if spec.scores is None:
        return []
    return spooled_scores(rows, spec.scores) if spec.spool else spec.scores(rows)


def _legacy(
    task: Any, spec: TaskSpec, records: Sequence[dict[str, Any]], languages: Sequence[str]
) -> tuple[Sequence[dict[str, Any]], Sequence[Score], Any, dict[str, list[dict[str, Any]]]]:
    """A task that still defines ``score(records, languages) -> TaskResult`` (a plugin written for 0.1): called
    as it was, its ``units`` reused where it built them. Deprecated: declare ``enrich``/``tables`` instead."""
    warnings.warn(
        f"task {spec.name!r} defines score(records, languages): the engine now scores every task; declare "
        "enrich()/tables() instead (docs/extending.md). score() is called for one more release",
        DeprecationWarning,
        stacklevel=4,
    )
    result = task.score(records, languages)
    units = result.units if result.units is not None else _scores(spec, result.rows)
    return result.rows, units, result.summary, dict(result.tables)
