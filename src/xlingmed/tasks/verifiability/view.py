"""Verifiability: macro P/R/F1, accuracy and both AUCs per language and temperature (XLingEval §5)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from xlingmed.views.base import Figure, FigureSection, View, ViewTable, fmt

COLUMNS = ("lang", "τ", "claims", "scored", "unparsed", "refused", "errors", "macro-P", "macro-R", "macro-F1",
           "accuracy", "AUC (paper)", "AUC P(yes)")  # fmt: skip


class VerifiabilityView(View[Mapping[str, Any]]):
    """The verifiability task's view (``views/base.py``: the hooks a view may override)."""

    def tables(self, summary: Mapping[str, Any], run: Mapping[str, Any]) -> list[ViewTable]:
        rows = []
        for lang in run["languages"]:
            for t, s in summary["languages"][lang]["temperatures"].items():
                counts = [str(s[k]) for k in ("n_claims", "n_scored", "n_unparsed", "n_refused", "n_errors")]
                values = [fmt(s[k]) for k in ("macro_precision", "macro_recall", "macro_f1", "accuracy",
                                              "auc_hard_labels", "auc_p_yes")]  # fmt: skip
                rows.append([lang, t, *counts, *values])
        title = f"Verifiability ({run['model']}, parser {summary['parser']})"
        return [ViewTable(title, list(COLUMNS), rows)]

    def losses(self, summary: Mapping[str, Any], languages: Sequence[str]) -> list[dict[str, Any]]:
        v = summary["languages"]
        return [
            {
                "what": f"verifiability: {what} (all τ)",
                "cells": [sum(t[key] for t in v[lg]["temperatures"].values()) for lg in languages],
            }
            for key, what in (("n_unparsed", "unparsed"), ("n_refused", "refused"), ("n_errors", "failed requests"))
        ]

    def figures(self, summary: Mapping[str, Any], run: Mapping[str, Any], table: Any) -> FigureSection:
        from xlingmed.views.figures import verifiability_heatmaps

        png = verifiability_heatmaps(summary, run["languages"], f"{run.get('model', '?')}: verifiability")
        return FigureSection(
            "Verifiability (paper Fig. 4, A3)", [Figure("verifiability", png, "verifiability heatmaps")]
        )

    def comparison(self, summary: Mapping[str, Any], languages: Sequence[str]) -> list[tuple[str, dict[str, Any]]]:
        v = summary["languages"]
        return [("verifiability: macro-F1 (mean over τ)",
                 {lg: v[lg]["mean_over_temperatures"]["macro_f1"] for lg in languages if lg in v})]  # fmt: skip
