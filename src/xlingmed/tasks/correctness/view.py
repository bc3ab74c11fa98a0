"""Correctness: judge labels per language with the change against English (XLingEval Table 1)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from xlingmed.tasks.correctness.summary import CorrectnessSummary
from xlingmed.views.base import ANNOTATION_FIELDS, Annotation, Figure, FigureSection, View, ViewTable, read_table


class CorrectnessView(View[CorrectnessSummary]):
    """The correctness task's view (``views/base.py``: the hooks a view may override), reading its
    ``CorrectnessSummary``."""

    summary_type = CorrectnessSummary

    one_temperature = True  # XLingEval judges one answer per question: its gaps are shown without a τ

    def tables(self, summary: CorrectnessSummary, run: Mapping[str, Any]) -> list[ViewTable]:
        langs = run["languages"]
        rows = []
        for lab in summary.labels:
            cells = []
            for lang in langs:
                s = summary.languages[lang]
                change = (s.change_vs_en_pp or {}).get(lab)
                cells.append(f"{s.counts[lab]}" + ("" if change is None or lang == "en" else f" ({change:+.1f}pp)"))
            rows.append([summary.label_names[lab], *cells])
        rows.append(["errors", *[str(summary.languages[lang].n_errors) for lang in langs]])
        return [ViewTable(f"Correctness: judge labels per language ({run['judge']})", ["label", *langs], rows, left=1)]

    def losses(self, summary: CorrectnessSummary, languages: Sequence[str]) -> list[dict[str, Any]]:
        c = summary.languages
        return [
            {"what": "correctness: failed requests", "cells": [c[lg].n_errors for lg in languages]},
            {
                "what": "correctness: judge named no option",
                "cells": [c[lg].counts["no_response"] for lg in languages],
            },
        ]

    def annotation(self, run_dir: Path) -> Annotation | None:
        """The judge's four labels (XLingEval App. C: its experts checked 10 % of each label), from
        ``correctness.csv``; judge calls that failed are left out (nothing to check)."""
        from xlingmed.tasks.correctness.judge import LABEL_NAMES, LABELS

        path = run_dir / "correctness.csv"
        if not path.is_file():
            return None
        rows = read_table(path, (*ANNOTATION_FIELDS[1:], "error"))
        judged = [{**r, "id": f"{r['item_id']}:{r['lang']}"} for r in rows if not r["error"] and r["label"] in LABELS]
        return Annotation(path, judged, list(LABELS), dict(LABEL_NAMES))

    def figures(self, summary: CorrectnessSummary, run: Mapping[str, Any], table: Any) -> FigureSection:
        from xlingmed.tasks.correctness.figures import correctness_bars

        png = correctness_bars(summary, run["languages"], f"{run.get('model', '?')}: correctness labels")
        return FigureSection(
            "Correctness (paper Table 1)", [Figure("correctness", png, "correctness labels per language")]
        )

    def comparison(self, summary: CorrectnessSummary, languages: Sequence[str]) -> list[tuple[str, dict[str, Any]]]:
        c = summary.languages
        return [("correctness: share contradictory",
                 {lg: c[lg].proportions.get("contradictory") for lg in languages if lg in c})]  # fmt: skip

    def headline(self, summaries: Sequence[tuple[str, str, CorrectnessSummary]]) -> dict[str, Any] | None:
        """XLingEval's two abstract numbers over the correctness runs with English (``analysis.paper``), from
        (benchmark, model, task summary) of each run; one dataset per benchmark (the last run of a benchmark counts
        when several models judged it)."""
        from xlingmed.analysis.paper import headline_numbers, headline_rows

        counts: dict[str, dict[str, dict[str, int]]] = {}
        models: set[str] = set()
        for bench, model, corr in summaries:
            if "en" in corr.languages and len(corr.languages) > 1:
                counts[bench] = {lg: s.counts for lg, s in corr.languages.items()}
                models.add(model)
        if not counts:
            return None
        h = headline_numbers(counts)

        def fmt(v: float | None, unit: str) -> str:
            return "–" if v is None else f"{v:.2f}{unit}"

        return {
            "fewer": fmt(h["fewer_comprehensive_pp"], " %"),
            "times": fmt(h["times_more_contradictory"], "×"),
            "datasets": ", ".join(counts),
            "models": ", ".join(sorted(models)),
            "per_dataset": [
                {"dataset": d, "fewer": fmt(v["fewer_comprehensive_pp"], " pp"),
                 "times": fmt(v["times_more_contradictory"], "×")}
                for d, v in h["per_dataset"].items()
            ],
            "dropped": [f"{name} left out of the {'× mean' if key.startswith('times') else 'mean'}: {why}"
                        for key, per in h["dropped"].items() for name, why in per.items()],
            "rows": headline_rows(h),  # stats/paper_headline.csv
        }  # fmt: skip
