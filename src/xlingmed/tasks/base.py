"""What a task is: it turns Items into Samples, Samples into requests, and Completions into records.

A task never calls a backend. It declares ``stages`` (e.g. correctness: ``answer`` by the model, then
``judge`` by the judge model; consistency: ``answer`` by the model, then ``translate`` by the translator); the
runner sends each stage's requests and hands the completions of earlier stages to the next one. Then the engine
scores the task (``engine/scoring.py``): the task's ``enrich`` step, where it has one, turns the per-sample records
into its table (for consistency this is where the similarity metrics run), its registered ``scores`` the table into
Score records, and ``summarize`` the Scores into the summary.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Protocol

from pydantic import BaseModel, ConfigDict

from xlingmed.types import Completion, GenerateRequest, Item, Parsed, Sample, Score, cell, number

__all__ = [
    "Mean",
    "MeanSD",
    "Scoring",
    "Stage",
    "Summary",
    "Task",
    "TaskResult",
    "cell",
    "error_of",
    "number",
    "scores_by_item",
    "summary_json",
    "temperature_of",
]


@dataclass(frozen=True)
class Stage:
    """One round of requests: ``role`` says which model answers (the evaluated model, the judge, the translator or
    the extractor)."""

    name: str
    role: Literal["model", "judge", "translator", "extractor"]


class Summary(BaseModel):
    """Base of a task's typed summary: what its ``summarize`` returns, its view reads (``View.summary_type``) and
    ``summary.json`` holds, serialised with its fields' names as keys, in their order.

    Keys a model does not declare are ignored when a run folder is read (one a newer version wrote still shows).
    """

    model_config = ConfigDict(extra="ignore", frozen=True)


class Mean(Summary):
    """A mean over ``n`` values (``None`` where there are none): an answer metric's, a rate's."""

    mean: float | None
    n: int


class MeanSD(Summary):
    """A mean and its sample standard deviation over ``n`` values (``None`` where undefined)."""

    mean: float | None
    sd: float | None
    n: int


def summary_json(summary: Mapping[str, Any] | Summary) -> dict[str, Any]:
    """A task's summary as ``summary.json`` holds it: a typed ``Summary`` dumped to plain values, a dict as is.
    An optional field the task did not set is left out (``exclude_unset``), as its dict left the key out."""
    return summary.model_dump(exclude_unset=True) if isinstance(summary, BaseModel) else dict(summary)


@dataclass
class TaskResult:
    """What a task's own ``score(records, languages)`` returned before the engine scored every task (0.1).
    Deprecated: kept for one release so that a plugin task that still defines ``score`` runs
    (``engine/scoring.py`` calls it, with a ``DeprecationWarning``); declare ``enrich``/``tables`` instead.

    Attributes:
        rows: the task's main table, written as ``<task>.csv``.
        summary: the task's entry in ``summary.json``: its typed ``Summary``, or a dict.
        tables: further tables, written as ``<name>.csv``.
        units: the Scores of ``rows`` where ``score`` built them for its summary (the runner reuses them rather
            than build them twice): a list, or a ``score_spool.ScoreSpool`` on disk (the runner discards it once
            copied); ``None`` = the runner builds them with the task's ``scores(rows)``.
    """

    rows: Sequence[dict[str, Any]]
    summary: dict[str, Any] | Summary
    tables: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    units: Sequence[Score] | None = None


@dataclass(frozen=True)
class Scoring:
    """What a task's ``annotate`` and ``tables`` steps are handed (``engine/scoring.py``): its records as recorded,
    its rows (the records after its ``enrich`` step, or the records themselves), their Scores, the summary
    (``summarize`` of the Scores; after ``annotate``, for ``tables``), and the run's languages."""

    records: Sequence[dict[str, Any]]
    rows: Sequence[dict[str, Any]]
    units: Sequence[Score]
    summary: Any
    languages: Sequence[str]


class Task(Protocol):
    """A task (see the module docstring). Its module also defines ``scores(rows) -> list[Score]``, registered with
    the task, which turns the task's rows into the Score records every statistic reads.

    The engine scores every task alike (``engine/scoring.py``). Beside ``summarize``, a task may declare three
    optional steps, each called where the task has it:

    - ``enrich(records, languages) -> rows``: its table made from its records (a metric column added, BERTScore;
      consistency's one row per question); without it the rows are the records.
    - ``annotate(scoring: Scoring) -> summary``: the summary with what the rows say beside their Scores.
    - ``tables(scoring: Scoring) -> {name: rows}``: its further tables, each written as ``<name>.csv``.
    """

    name: ClassVar[str]
    stages: ClassVar[tuple[Stage, ...]]
    samples_by_item: ClassVar[bool]
    """``samples(items)`` is each item's samples in turn, so the engine may ask for them a part at a time (a
    part ends with an item: ``engine/plan.py``); ``False``: the task orders its samples otherwise and is asked for
    them all at once."""

    def samples(self, items: Sequence[Item]) -> list[Sample]:
        """Everything to ask about ``items``, in a stable order."""
        ...

    def request(self, stage: str, sample: Sample, prior: Mapping[str, Completion]) -> GenerateRequest | None:
        """The request of ``stage`` for ``sample``, given the completions of earlier stages; ``None`` = skip."""
        ...

    def parse(self, stage: str, sample: Sample, completion: Completion) -> Parsed | None:
        """The parsed value of one completion (``None`` for stages whose output is free text)."""
        ...

    def record(self, sample: Sample, completions: Mapping[str, Completion]) -> dict[str, Any]:
        """One flat row (the task's CSV row) for ``sample``. A task whose row reads a parsed reply declares a third
        parameter, ``parsed: Mapping[str, Parsed | None] | None = None``: the engine then hands it each stage's reply
        as ``parse`` read it (once, as ``samples.jsonl`` logs it; ``engine.scoring.record``), so the task need not
        parse again."""
        ...

    def summarize(self, units: Sequence[Score], languages: Sequence[str]) -> dict[str, Any] | Summary:
        """The task's metrics per language (and per temperature where the task sweeps it), from its Scores alone:
        a run's ``scores.parquet`` gives back its summary."""
        ...


def error_of(completions: Mapping[str, Completion]) -> str | None:
    """The first error among a sample's completions, prefixed by its stage."""
    for stage, comp in completions.items():
        if comp.error:
            return f"{stage}: {comp.error}"
    return None


def scores_by_item(units: Iterable[Score]) -> dict[tuple[str, float | None], dict[str, dict[str, Score]]]:
    """A task's Scores as (language, temperature) → item → metric → Score, items in the order of the Scores: the
    shape a per-language summary reads when each answer has several Scores (the rubric's dimensions, BERTScore
    P/R/F1)."""
    out: dict[tuple[str, float | None], dict[str, dict[str, Score]]] = defaultdict(dict)
    for sc in units:
        out[(sc.lang, sc.temperature)].setdefault(sc.item_id, {})[sc.metric] = sc
    return out


def temperature_of(row: Mapping[str, Any]) -> float | None:
    t = number(row.get("temperature"))
    return None if t is None else float(t)
