"""Correctness: judge labels per language with the change against English (XLingEval Table 1)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from xlingmed.views.base import ViewTable


def tables(summary: Mapping[str, Any], run: Mapping[str, Any]) -> list[ViewTable]:
    langs = run["languages"]
    rows = []
    for lab in summary["labels"]:
        cells = []
        for lang in langs:
            s = summary["languages"][lang]
            change = (s.get("change_vs_en_pp") or {}).get(lab)
            cells.append(f"{s['counts'][lab]}" + ("" if change is None or lang == "en" else f" ({change:+.1f}pp)"))
        rows.append([summary["label_names"][lab], *cells])
    rows.append(["errors", *[str(summary["languages"][lang]["n_errors"]) for lang in langs]])
    return [ViewTable(f"Correctness: judge labels per language ({run['judge']})", ["label", *langs], rows, left=1)]


def losses(summary: Mapping[str, Any], languages: Sequence[str]) -> list[dict[str, Any]]:
    c = summary["languages"]
    return [
        {"what": "correctness: failed requests", "cells": [c[lg]["n_errors"] for lg in languages]},
        {"what": "correctness: judge named no option", "cells": [c[lg]["counts"]["no_response"] for lg in languages]},
    ]
