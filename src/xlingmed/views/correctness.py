"""Correctness: judge labels per language with the change against English (XLingEval Table 1)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from xlingmed.views.base import ANNOTATION_FIELDS, Annotation, ViewTable, read_table


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


def annotation(run_dir: Path) -> Annotation | None:
    """The judge's four labels (XLingEval App. C: its experts checked 10 % of each label), from
    ``correctness.csv``; judge calls that failed are left out (nothing to check)."""
    from xlingmed.judges.correctness import LABEL_NAMES, LABELS

    path = run_dir / "correctness.csv"
    if not path.is_file():
        return None
    rows = read_table(path, (*ANNOTATION_FIELDS[1:], "error"))
    judged = [{**r, "id": f"{r['item_id']}:{r['lang']}"} for r in rows if not r["error"] and r["label"] in LABELS]
    return Annotation(path, judged, list(LABELS), dict(LABEL_NAMES))
