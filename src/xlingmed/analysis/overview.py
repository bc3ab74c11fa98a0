"""Every outcome per language, straight from the Scores: the mean over the scored units and how many could not
be scored (a failed request, an unread reply), so unequal losses between languages are visible beside the means.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import pandas as pd

from xlingmed.analysis.records import SPREAD, Record


@dataclass(frozen=True, eq=False)
class OutcomeRow(Record):
    """One outcome (a task's metric, ``metric[condition]`` for a prompt condition) at one temperature (``τ``, ``–``
    for none), and per language its cell ``mean (n)`` (``+k not scored``; ``–`` where nothing was scored)."""

    task: str
    metric: str
    tau: str = field(metadata={"column": "τ"})
    cells: Mapping[str, str] = field(default_factory=dict, metadata=SPREAD)  # language → its cell, in order


def by_language(scores: pd.DataFrame, languages: Sequence[str]) -> list[OutcomeRow]:
    """One row per (task, metric with its condition, temperature): per language ``mean (n)``, with
    ``+k not scored`` when some were lost.

    Args:
        scores: the run's Scores (``analysis.run.read_scores``).
        languages: the columns, in order.
    """
    if scores.empty:
        return []
    df = scores.assign(
        metric_name=[
            m if not isinstance(c, str) else f"{m}[{c}]"
            for m, c in zip(scores["metric"], scores["condition"], strict=True)
        ],
        temp_key=scores["temperature"].fillna(-1.0),
    )
    out = []
    for (task, metric, temp), g in df.groupby(["task", "metric_name", "temp_key"], sort=False):
        cells: dict[str, str] = {}
        for lang in languages:
            sub = g[g["lang"] == lang]
            scored = sub["value"].dropna()
            lost = len(sub) - len(scored)
            cell = "–" if scored.empty else f"{scored.mean():.4f} ({len(scored)})"
            cells[lang] = cell + (f" +{lost} not scored" if lost else "")
        out.append(OutcomeRow(str(task), str(metric), "–" if temp == -1.0 else f"{float(str(temp)):g}", cells))
    return out
