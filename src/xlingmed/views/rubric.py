"""The LLM-as-judge rubric: the four dimensions and their average, 1–5 (MedArabiQ Table J1)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from xlingmed.views.base import CLI, ViewTable, from_records

DIMENSIONS = ("average", "similarity", "relevance", "factuality", "safety")


def tables(summary: Mapping[str, Any], run: Mapping[str, Any]) -> list[ViewTable]:
    rows = []
    for row in summary["table_j1"]:
        cell = summary["languages"][row["lang"]][f"{row['temperature']:g}"]
        rows.append([row["lang"], f"{row['temperature']:g}", *[row[k] or "–" for k in DIMENSIONS],
                     f"{cell['n_unparsed']} (+{cell['n_partial']} partial)", str(cell["n_errors"])])  # fmt: skip
    title = f"{run['benchmark']}: judge rubric 1–5, mean ± sd ({run['judge']})"
    return [
        ViewTable(title, ["lang", "τ", *DIMENSIONS, "unparsed", "errors"], rows, where=(CLI,)),
        from_records("LLM-as-judge rubric, 1–5 (MedArabiQ Table J1 layout)", summary["table_j1"]),
    ]


def losses(summary: Mapping[str, Any], languages: Sequence[str]) -> list[dict[str, Any]]:
    r = summary["languages"]
    return [
        {"what": f"rubric: {what}", "cells": [sum(t[key] for t in r[lg].values()) for lg in languages]}
        for key, what in (
            ("n_unparsed", "judge replies unparsed"),
            ("n_partial", "judge replies partly parsed"),
            ("n_errors", "not judged (failed request)"),
        )
    ]
