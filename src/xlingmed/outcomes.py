"""What a task's statistics are: its primary outcome and how its Scores are compared (``TaskOutcome``), declared
by each task's registry entry and handed to ``analysis`` by the caller, so that no statistic imports a task."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from xlingmed.types import Score


@dataclass(frozen=True)
class PrimaryOutcome:
    """The outcome a deployment verdict is given on (``analysis.verdicts``: non-inferiority to English).

    Attributes:
        name: what ``xlingmed report --margin NAME=δ`` names (``accuracy``, ``contradictory``…).
        metric: the task's Score metric it is computed from.
        margin: the default non-inferiority margin δ, in the outcome's own units (a proportion 0–1, BERTScore
            × 100, rubric points 1–5).
        statistic: ``mean`` (over items, each item's mean over its temperatures) or ``macro_f1`` (of the yes/no
            readings against their truth, the claims of resampled items pooled; XLingEval's verifiability metric).
        unit: how the margin reads (``"proportion"``, ``"points of BERTScore × 100"``…).
        part: where an item's outcome is a weighted sum of parts each judged alone, the parts' Score metric
            (HealthBench: ``criteria_met``, each criterion weighted by its points over the positive points;
            simple-evals ``calculate_score``). Human labels then check parts, not items
            (``analysis.corrected_verdicts``); ``None``: the judge reads the item whole.
    """

    name: str
    metric: str
    margin: float
    statistic: Literal["mean", "macro_f1"] = "mean"
    unit: str = "proportion"
    part: str | None = None


@dataclass(frozen=True)
class TaskOutcome:
    """What the statistics need to know of one task, declared by its registry entry (``tasks.registry.TaskSpec``)
    and handed to ``analysis`` by the caller, so that no statistic imports a task.

    Attributes:
        task: the task's name, as its Scores carry it.
        primary: the outcome its deployment verdict is given on; ``None`` = no verdict.
        parses: it reads a choice or label from each reply (its readings can be compared across languages).
        judged: an LLM judge gives its outcome.
        mean_over_temperatures: statistics also compare each question's mean over the temperatures.
        scores: ``scores(rows) -> list[Score]`` (its CSV rows as Scores), for run folders older than
            ``scores.parquet``; ``None`` = it scores nothing itself.
    """

    task: str
    primary: PrimaryOutcome | None = None
    parses: bool = False
    judged: bool = False
    mean_over_temperatures: bool = False
    scores: Callable[[Sequence[Mapping[str, Any]]], list[Score]] | None = None


def apart(tasks: Mapping[str, TaskOutcome], names: Iterable[object]) -> dict[str, TaskOutcome]:
    """``tasks`` and, for each Score task name ``base[group]`` among ``names`` (an import whose source tasks are
    kept apart: ``analysis.run.read_scores``), ``base``'s outcome under that name: each source task gets its own
    statistics and verdicts, on its own items."""
    out = dict(tasks)
    for name in dict.fromkeys(str(n) for n in names):
        base, bracket, rest = name.partition("[")
        if bracket and rest.endswith("]") and base in tasks and name not in out:
            out[name] = replace(tasks[base], task=name)
    return out


def group_of(task: str) -> str | None:
    """``mmlu_anatomy`` of ``multiple_choice[mmlu_anatomy]``; ``None`` for a plain task name."""
    _, bracket, rest = task.partition("[")
    return rest[:-1] if bracket and rest.endswith("]") else None
