"""Consistency (XLingEval §3.2, §4; spec xlingeval.md §3): K answers per question and temperature, and how
alike they are. ``task.py`` asks and scores, ``options.py`` holds the ``-T`` options and the builder."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from xlingmed.tasks.base import number, temperature_of
from xlingmed.tasks.consistency.options import ConsistencyOptions, build
from xlingmed.tasks.consistency.summary import TABLE_A9, metric_columns
from xlingmed.tasks.consistency.task import (
    METRIC_GROUPS,
    MODES,
    SYSTEM,
    TOPIC_FITS,
    ConsistencyTask,
    sample_seed,
)
from xlingmed.tasks.registry import TaskSpec, register_task
from xlingmed.types import Score

__all__ = [
    "METRIC_GROUPS",
    "MODES",
    "SYSTEM",
    "TABLE_A9",
    "TOPIC_FITS",
    "ConsistencyOptions",
    "ConsistencyTask",
    "build",
    "metric_columns",
    "sample_seed",
    "scores",
]


# Columns of consistency.csv that are not metrics.
NOT_METRICS = {"item_id", "lang", "temperature", "mode", "n_samples", "skipped", "topic_skipped"}


def scores(rows: Sequence[Mapping[str, Any]]) -> list[Score]:
    """Per question and temperature: every similarity metric (continuous, higher = more consistent); the sd
    columns are descriptive and not scored."""
    out = []
    for r in rows:
        for metric, raw in r.items():
            if metric in NOT_METRICS or metric.endswith("_sd"):
                continue
            out.append(
                Score(
                    item_id=str(r["item_id"]), lang=str(r["lang"]), task="consistency", metric=metric,
                    value=number(raw), temperature=temperature_of(r),
                )
            )  # fmt: skip
    return out


register_task(
    TaskSpec(
        "consistency",
        ConsistencyOptions,
        build,
        "XLingEval §3.2: K answers per τ, how alike they are",
        scores,
        mean_over_temperatures=True,
        view="xlingmed.views.consistency",
    )
)
