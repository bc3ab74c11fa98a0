"""The source_metric task's view: the source tool's metric per language, under its own name."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from xlingmed.tasks.source_metric.summary import SourceMetricSummary
from xlingmed.views.base import CLI, REPORT, View, ViewTable, fmt


class SourceMetricView(View[SourceMetricSummary]):
    """The source_metric task's view (``views/base.py``), reading its ``SourceMetricSummary``."""

    summary_type = SourceMetricSummary

    def tables(self, summary: SourceMetricSummary, run: Mapping[str, Any]) -> list[ViewTable]:
        if summary.per_task:  # several source tasks: one row per task and language, each under its metric's name
            metrics = summary.metrics or {}
            rows = [[task, metrics.get(task, summary.metric), lang, fmt(c.mean), str(c.n), fmt(c.minimum),
                     fmt(c.maximum), str(c.n_missing)]
                    for task, per_lang in summary.per_task.items() for lang, c in per_lang.items()]  # fmt: skip
            title = f"{run.get('benchmark')}: {summary.tool}'s own metrics per task and language ({run.get('model')})"
            return [ViewTable(title, ["task", "metric", "lang", "mean", "n", "min", "max", "missing"], rows,
                              where=(CLI, REPORT), left=3)]  # fmt: skip
        rows = [[lang, fmt(c.mean), str(c.n), fmt(c.minimum), fmt(c.maximum), str(c.n_missing)]
                for lang, c in summary.languages.items()]  # fmt: skip
        title = f"{run.get('benchmark')}: {summary.tool}'s own {summary.metric}, mean per language ({run.get('model')})"
        return [ViewTable(title, ["lang", "mean", "n", "min", "max", "missing"], rows, where=(CLI, REPORT), left=1)]

    def losses(self, summary: SourceMetricSummary, languages: Sequence[str]) -> list[dict[str, Any]]:
        missing = [summary.languages[lg].n_missing if lg in summary.languages else 0 for lg in languages]
        return [{"what": f"{summary.metric}: answers the source logged without a value", "cells": missing}]
