"""Multiple choice: accuracy per language, temperature and bias condition; MedArabiQ's Table 1 and Table 2
layouts and each condition against the clean question (exact McNemar) in the report."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from xlingmed.views.base import CLI, Figure, FigureSection, View, ViewTable, from_records


class MultipleChoiceView(View[Mapping[str, Any]]):
    """The multiple_choice task's view (``views/base.py``: the hooks a view may override)."""

    def tables(self, summary: Mapping[str, Any], run: Mapping[str, Any]) -> list[ViewTable]:
        conds = summary["settings"]["conditions"]
        version = (run.get("dataset") or {}).get("version", "?")
        rows = []
        for lang, per_t in summary["languages"].items():
            for t, cell in per_t.items():
                cs = cell.get("conditions", {"original": cell})
                frac = [
                    "–" if cs[c]["n"] == 0 else f"{cs[c]['accuracy_pct']} ({cs[c]['n_correct']}/{cs[c]['n']})"
                    for c in conds
                ]
                o = cs["original"] if "original" in cs else next(iter(cs.values()))
                rows.append([lang, t, *frac, f"{o['n_invalid']}/{o['n']}", str(o["n_errors"])])
        title = f"{run['benchmark']}: accuracy % (invalid = wrong) — {run['model']}; {version}"
        out = [
            ViewTable(title, ["lang", "τ", *conds, "invalid (orig.)", "errors"], rows, where=(CLI,)),
            from_records("Accuracy (MedArabiQ Table 1 layout)", summary["table1"], "Invalid answers count as wrong."),
        ]
        if "table2" in summary:
            out.append(from_records("Accuracy per bias condition (MedArabiQ Table 2 layout): % (correct/n)",
                                    summary["table2"]))  # fmt: skip
            tests = []
            for lang, per_t in summary["languages"].items():
                for t, cell in per_t.items():
                    for cond, c in cell["conditions"].items():
                        test = c.get("mcnemar_vs_original")
                        if test:
                            tests.append({
                                "lang": lang, "temperature": float(t), "condition": cond,
                                "delta_vs_original_pp": c["delta_vs_original_pp"], "n_pairs": test["n"],
                                "only_original_correct": test["a_only"], "only_condition_correct": test["b_only"],
                                "p_mcnemar": test["p"],
                            })  # fmt: skip
            out.append(from_records("Each condition against the unbiased question, same items (exact McNemar)", tests))
        return out

    def losses(self, summary: Mapping[str, Any], languages: Sequence[str]) -> list[dict[str, Any]]:
        m = summary["languages"]

        def total(lg: str, key: str) -> int:
            cells = [c for t in m[lg].values() for c in (t["conditions"].values() if "conditions" in t else [t])]
            return sum(int(c[key]) for c in cells)

        return [
            {
                "what": "multiple choice: invalid answers (counted wrong)",
                "cells": [total(lg, "n_invalid") for lg in languages],
            },
            {"what": "multiple choice: failed requests", "cells": [total(lg, "n_errors") for lg in languages]},
        ]

    def figures(self, summary: Mapping[str, Any], run: Mapping[str, Any], table: Any) -> FigureSection:
        from xlingmed.views.figures import bias_conditions, headline_bars

        model, bench, langs = run.get("model", "?"), run.get("benchmark", "?"), run["languages"]
        rows = [{**r, "note": f"{r['numerator']}/{r['denominator']}"} for r in summary["table1"]]
        shown = [Figure("multiple_choice", headline_bars(rows, "accuracy %", f"{model}: {bench}", ymax=100),
                        "multiple-choice accuracy")]  # fmt: skip
        title = "Multiple choice (MedArabiQ Table 1)"
        if len(summary["settings"]["conditions"]) > 1:
            png = bias_conditions(summary, langs, f"{model}: {bench}, accuracy per condition")
            shown.append(Figure("bias_conditions", png, "accuracy per bias condition"))
            title = "Multiple choice (MedArabiQ Table 1, Table 2, Fig. 4a)"
        return FigureSection(title, shown)
