"""Multiple choice: accuracy per language, temperature and bias condition; MedArabiQ's Table 1 and Table 2
layouts and each condition against the clean question (exact McNemar) in the report."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from xlingmed.tasks.multiple_choice.summary import ConditionCell, MultipleChoiceSummary
from xlingmed.views.base import CLI, REPORT, Figure, FigureSection, View, ViewTable, from_records


class MultipleChoiceView(View[MultipleChoiceSummary]):
    """The multiple_choice task's view (``views/base.py``: the hooks a view may override), reading its
    ``MultipleChoiceSummary``."""

    summary_type = MultipleChoiceSummary

    def tables(self, summary: MultipleChoiceSummary, run: Mapping[str, Any]) -> list[ViewTable]:
        conds = summary.settings.conditions
        version = (run.get("dataset") or {}).get("version")
        rows = []
        for lang, per_t in summary.languages.items():
            for t in per_t:
                cs = summary.cells(lang, t)
                frac = ["–" if cs[c].n == 0 else f"{cs[c].accuracy_pct} ({cs[c].n_correct}/{cs[c].n})" for c in conds]
                o = cs["original"] if "original" in cs else next(iter(cs.values()))
                rows.append([lang, _tau(t, run), *frac, f"{o.n_invalid}/{o.n}", str(o.n_errors)])
        title = f"{run['benchmark']}: accuracy % (invalid = wrong) — {run['model']}"
        title += f"; {version}" if version else ""
        first = ViewTable(title, ["lang", "τ", *conds, "invalid (orig.)", "errors"], rows, where=(CLI,))
        if (run.get("dataset") or {}).get("tasks_apart"):  # an import of several tasks: one row per task × language
            first = _per_task(summary, run)
        out = [
            first,
            from_records("Accuracy (MedArabiQ Table 1 layout)", summary.table1, "Invalid answers count as wrong."),
        ]
        if summary.table2 is not None:
            out.append(from_records("Accuracy per bias condition (MedArabiQ Table 2 layout): % (correct/n)",
                                    summary.table2))  # fmt: skip
            tests = []
            for lang, per_t in summary.languages.items():
                for t in per_t:
                    for cond, c in summary.cells(lang, t).items():
                        test = c.mcnemar_vs_original
                        if test is not None:
                            tests.append({
                                "lang": lang, "temperature": float(t), "condition": cond,
                                "delta_vs_original_pp": c.delta_vs_original_pp, "n_pairs": test.n,
                                "only_original_correct": test.a_only, "only_condition_correct": test.b_only,
                                "p_mcnemar": test.p,
                            })  # fmt: skip
            out.append(from_records("Each condition against the unbiased question, same items (exact McNemar)", tests))
        return out

    def losses(self, summary: MultipleChoiceSummary, languages: Sequence[str]) -> list[dict[str, Any]]:
        def cells(lg: str) -> list[ConditionCell]:
            return [c for t in summary.languages[lg] for c in summary.cells(lg, t).values()]

        return [
            {
                "what": "multiple choice: invalid answers (counted wrong)",
                "cells": [sum(c.n_invalid for c in cells(lg)) for lg in languages],
            },
            {
                "what": "multiple choice: failed requests",
                "cells": [sum(c.n_errors for c in cells(lg)) for lg in languages],
            },
        ]

    def figures(self, summary: MultipleChoiceSummary, run: Mapping[str, Any], table: Any) -> FigureSection:
        from xlingmed.tasks.multiple_choice.figures import bias_conditions
        from xlingmed.views.figures import headline_bars

        model, bench, langs = run.get("model", "?"), run.get("benchmark", "?"), run["languages"]
        rows = [{**r, "note": f"{r['numerator']}/{r['denominator']}"} for r in summary.table1]
        shown = [Figure("multiple_choice", headline_bars(rows, "accuracy %", f"{model}: {bench}", ymax=100),
                        "multiple-choice accuracy")]  # fmt: skip
        title = "Multiple choice (MedArabiQ Table 1)"
        if len(summary.settings.conditions) > 1:
            png = bias_conditions(summary, langs, f"{model}: {bench}, accuracy per condition")
            shown.append(Figure("bias_conditions", png, "accuracy per bias condition"))
            title = "Multiple choice (MedArabiQ Table 1, Table 2, Fig. 4a)"
        return FigureSection(title, shown)


def _per_task(summary: MultipleChoiceSummary, run: Mapping[str, Any]) -> ViewTable:
    """One row per source task and language (an import whose tasks are kept apart): accuracy % (correct/n) and
    invalid answers, from each cell's ``per_category``; no row pools two tasks."""
    rows = []
    for lang, per_t in summary.languages.items():
        for t in per_t:
            cell = summary.cells(lang, t)
            original = cell["original"] if "original" in cell else next(iter(cell.values()))
            for task, acc in original.per_category.items():
                share = "–" if acc.n == 0 else f"{acc.accuracy_pct} ({acc.n_correct}/{acc.n})"
                rows.append([task, lang, _tau(t, run), share, f"{acc.n_invalid}/{acc.n}"])
    rows.sort(key=lambda r: (r[0], r[1] != "en"))
    title = f"{run['benchmark']}: accuracy % per task and language (invalid = wrong) — {run['model']}"
    return ViewTable(title, ["task", "lang", "τ", "accuracy", "invalid"], rows, where=(CLI, REPORT), left=2)


def _tau(t: str, run: Mapping[str, Any]) -> str:
    """The temperature as the table shows it: ``not logged`` for an import whose source logged none (its cells are
    filed under 0; ``manifest.json`` keeps ``null``)."""
    imported = run.get("imported") or {}
    if imported and (imported.get("settings") or {}).get("temperature") is None:
        return "not logged"
    return t
