"""Verifiability: macro P/R/F1, accuracy and both AUCs per language and temperature (XLingEval §5)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from xlingmed.tasks.verifiability.summary import VerifiabilitySummary
from xlingmed.views.base import Figure, FigureSection, View, ViewTable, fmt

COLUMNS = ("lang", "τ", "claims", "scored", "unparsed", "refused", "errors", "macro-P", "macro-R", "macro-F1",
           "accuracy", "AUC (paper)", "AUC P(yes)")  # fmt: skip


class VerifiabilityView(View[VerifiabilitySummary]):
    """The verifiability task's view (``views/base.py``: the hooks a view may override), reading its
    ``VerifiabilitySummary``."""

    summary_type = VerifiabilitySummary

    def tables(self, summary: VerifiabilitySummary, run: Mapping[str, Any]) -> list[ViewTable]:
        rows = []
        for lang in run["languages"]:
            for t, s in summary.languages[lang].temperatures.items():
                counts = [str(c) for c in (s.n_claims, s.n_scored, s.n_unparsed, s.n_refused, s.n_errors)]
                values = [fmt(v) for v in (s.macro_precision, s.macro_recall, s.macro_f1, s.accuracy,
                                           s.auc_hard_labels, s.auc_p_yes)]  # fmt: skip
                rows.append([lang, t, *counts, *values])
        title = f"Verifiability ({run['model']}, parser {summary.parser})"
        return [ViewTable(title, list(COLUMNS), rows)]

    def losses(self, summary: VerifiabilitySummary, languages: Sequence[str]) -> list[dict[str, Any]]:
        v = summary.languages
        return [
            {"what": "verifiability: unparsed (all τ)",
             "cells": [sum(t.n_unparsed for t in v[lg].temperatures.values()) for lg in languages]},
            {"what": "verifiability: refused (all τ)",
             "cells": [sum(t.n_refused for t in v[lg].temperatures.values()) for lg in languages]},
            {"what": "verifiability: failed requests (all τ)",
             "cells": [sum(t.n_errors for t in v[lg].temperatures.values()) for lg in languages]},
        ]  # fmt: skip

    def figures(self, summary: VerifiabilitySummary, run: Mapping[str, Any], table: Any) -> FigureSection:
        from xlingmed.tasks.verifiability.figures import verifiability_heatmaps

        png = verifiability_heatmaps(summary, run["languages"], f"{run.get('model', '?')}: verifiability")
        return FigureSection(
            "Verifiability (paper Fig. 4, A3)", [Figure("verifiability", png, "verifiability heatmaps")]
        )

    def comparison(self, summary: VerifiabilitySummary, languages: Sequence[str]) -> list[tuple[str, dict[str, Any]]]:
        v = summary.languages
        return [("verifiability: macro-F1 (mean over τ)",
                 {lg: v[lg].mean_over_temperatures.get("macro_f1") for lg in languages if lg in v})]  # fmt: skip
