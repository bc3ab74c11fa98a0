"""Consistency: XLingEval Table A9 (mean over τ and the change against English) and the questions skipped."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from xlingmed.tasks.consistency.summary import ConsistencySummary
from xlingmed.views.base import Figure, FigureSection, View, ViewTable, encoder_note


class ConsistencyView(View[ConsistencySummary]):
    """The consistency task's view (``views/base.py``: the hooks a view may override), reading its
    ``ConsistencySummary``."""

    summary_type = ConsistencySummary

    def tables(self, summary: ConsistencySummary, run: Mapping[str, Any]) -> list[ViewTable]:
        langs = run["languages"]
        a9 = summary.table_a9
        src = f"translator {summary.settings['translator']}" if a9.mode == "paper" else "original text"
        title = (
            f"Consistency ({run['model']}, K={summary.settings['samples']}, mode {a9.mode}: {src}); "
            "mean over τ / change vs en"
        )
        rows = [[label, *[a9.metrics[col][lang].cell or "–" for lang in langs]] for col, label in a9.columns.items()]
        skipped = [
            sum(t.skipped["missing_answer"] + t.skipped["no_letters"] for t in summary.languages[lang].values())
            for lang in langs
        ]
        rows.append(["questions skipped", *[str(n) for n in skipped]])
        return [ViewTable(title, ["metric", *langs], rows, left=1)]

    def losses(self, summary: ConsistencySummary, languages: Sequence[str]) -> list[dict[str, Any]]:
        s = summary.languages
        return [
            {
                "what": f"consistency: {what} (all τ)",
                "cells": [sum(t.skipped.get(key, 0) for t in s[lg].values()) for lg in languages],
            }
            for key, what in (
                ("missing_answer", "questions skipped: failed answer"),
                ("no_letters", "questions skipped: answer without letters"),
                ("topic_empty_or_stopwords_only", "questions without topic metrics"),
            )
        ]

    def notes(self, summary: ConsistencySummary) -> list[str]:
        """The mode and the encoders the similarities were computed with."""
        settings = summary.settings
        encoders = [encoder_note(settings.get("bertscore"), "BERTScore"),
                    encoder_note(settings.get("sim_sent"), "sim_sent")]  # fmt: skip
        return [f"Mode: {settings.get('mode')}", *(e for e in encoders if e)]

    def figures(self, summary: ConsistencySummary, run: Mapping[str, Any], table: Any) -> FigureSection:
        from xlingmed.tasks.consistency.figures import consistency_boxes, consistency_lines

        model, langs = run.get("model", "?"), run["languages"]
        shown = [Figure("consistency_lines", consistency_lines(summary, langs, f"{model}: consistency vs temperature"),
                        "consistency against temperature")]  # fmt: skip
        if table is not None:
            png = consistency_boxes(table, summary.table_a9.columns, langs, f"{model}: per-question values")
            shown.append(Figure("consistency_boxes", png, "consistency box plots"))
        return FigureSection("Consistency (paper Fig. 3, Table A9)", shown, ". ".join(self.notes(summary)) + ".")

    def forest(self, summary: ConsistencySummary, gap: Mapping[str, Any]) -> bool:
        """The forest plot shows Table A9's metrics, each question's mean over the temperatures (the paper's grain)."""
        return gap["temperature"] is None and gap["metric"] in summary.table_a9.columns

    def comparison(self, summary: ConsistencySummary, languages: Sequence[str]) -> list[tuple[str, dict[str, Any]]]:
        a9 = summary.table_a9
        return [
            (f"consistency: {a9.columns[col]}", {lg: a9.metrics[col][lg].cell for lg in languages
                                                 if lg in a9.metrics[col]})
            for col in ("bertscore_f1", "sim_sent", "sim_2gram")
            if col in a9.metrics
        ]  # fmt: skip
