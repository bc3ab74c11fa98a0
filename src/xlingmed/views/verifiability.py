"""Verifiability: macro P/R/F1, accuracy and both AUCs per language and temperature (XLingEval §5)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from xlingmed.views.base import ViewTable, fmt

COLUMNS = ("lang", "τ", "claims", "scored", "unparsed", "refused", "errors", "macro-P", "macro-R", "macro-F1",
           "accuracy", "AUC (paper)", "AUC P(yes)")  # fmt: skip


def tables(summary: Mapping[str, Any], run: Mapping[str, Any]) -> list[ViewTable]:
    rows = []
    for lang in run["languages"]:
        for t, s in summary["languages"][lang]["temperatures"].items():
            counts = [str(s[k]) for k in ("n_claims", "n_scored", "n_unparsed", "n_refused", "n_errors")]
            values = [fmt(s[k]) for k in ("macro_precision", "macro_recall", "macro_f1", "accuracy",
                                          "auc_hard_labels", "auc_p_yes")]  # fmt: skip
            rows.append([lang, t, *counts, *values])
    title = f"Verifiability ({run['model']}, parser {summary['parser']})"
    return [ViewTable(title, list(COLUMNS), rows)]


def losses(summary: Mapping[str, Any], languages: Sequence[str]) -> list[dict[str, Any]]:
    v = summary["languages"]
    return [
        {
            "what": f"verifiability: {what} (all τ)",
            "cells": [sum(t[key] for t in v[lg]["temperatures"].values()) for lg in languages],
        }
        for key, what in (("n_unparsed", "unparsed"), ("n_refused", "refused"), ("n_errors", "failed requests"))
    ]
