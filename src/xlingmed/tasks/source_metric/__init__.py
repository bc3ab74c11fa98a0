"""Another tool's own per-sample metric, imported under its own name (``xlingmed import`` of a log whose metric
is not 0/1): ``task.py`` scores the imported rows, ``summary.py`` types its summary, ``view.py`` shows it."""

from __future__ import annotations

import math

from xlingmed.tasks.registry import NoOptions, PrimaryOutcome, TaskSpec, register_task
from xlingmed.tasks.source_metric.task import NAME, SourceMetricTask, build, from_imported, scores
from xlingmed.tasks.source_metric.view import SourceMetricView

__all__ = ["SourceMetricTask", "SourceMetricView", "build", "from_imported", "scores"]

register_task(
    TaskSpec(
        NAME, NoOptions, build, "another tool's own per-sample metric, as imported (xlingmed import)", scores,
        view=SourceMetricView(), requires=("logged_outcome",), from_imported=from_imported,
        # no default margin: a metric's range is its own (an F1, a 0-100 score); --margin logged_metric=δ gives one
        primary=PrimaryOutcome("logged_metric", "value", math.nan, unit="units of the logged metric"),
    )
)  # fmt: skip
