"""The LLM-as-judge rubric: the four dimensions and their average, 1–5 (MedArabiQ Table J1)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from xlingmed.tasks.rubric.summary import RubricSummary
from xlingmed.views.base import CLI, Annotation, View, ViewTable, from_records, read_table

DIMENSIONS = ("average", "similarity", "relevance", "factuality", "safety")


class RubricView(View[RubricSummary]):
    """The rubric task's view (``views/base.py``: the hooks a view may override), reading its ``RubricSummary``."""

    summary_type = RubricSummary

    def tables(self, summary: RubricSummary, run: Mapping[str, Any]) -> list[ViewTable]:
        rows = []
        for row in summary.table_j1:
            cell = summary.languages[row["lang"]][f"{row['temperature']:g}"]
            rows.append([row["lang"], f"{row['temperature']:g}", *[row[k] or "–" for k in DIMENSIONS],
                         f"{cell.n_unparsed} (+{cell.n_partial} partial)", str(cell.n_errors)])  # fmt: skip
        title = f"{run['benchmark']}: judge rubric 1–5, mean ± sd ({run['judge']})"
        return [
            ViewTable(title, ["lang", "τ", *DIMENSIONS, "unparsed", "errors"], rows, where=(CLI,)),
            from_records("LLM-as-judge rubric, 1–5 (MedArabiQ Table J1 layout)", summary.table_j1),
        ]

    def losses(self, summary: RubricSummary, languages: Sequence[str]) -> list[dict[str, Any]]:
        r = summary.languages
        return [
            {"what": "rubric: judge replies unparsed",
             "cells": [sum(t.n_unparsed for t in r[lg].values()) for lg in languages]},
            {"what": "rubric: judge replies partly parsed",
             "cells": [sum(t.n_partial for t in r[lg].values()) for lg in languages]},
            {"what": "rubric: not judged (failed request)",
             "cells": [sum(t.n_errors for t in r[lg].values()) for lg in languages]},
        ]  # fmt: skip

    def annotation(self, run_dir: Path) -> Annotation | None:
        """The judge's mean score over the four dimensions (MedArabiQ App. J), rounded half up to 1–5: the label an
        annotator agrees with or corrects; the reasoning shown is the judge's whole reply, with the four scores."""
        path = run_dir / "rubric.csv"
        if not path.is_file():
            return None
        columns = (
            "item_id",
            "lang",
            "temperature",
            "question",
            "reference",
            "response",
            "judge_reply",
            "average",
            "error",
        )
        judged = []
        for r in read_table(path, columns):
            if r["error"] or not r["average"]:
                continue
            judged.append({
                "id": f"{r['item_id']}:{r['lang']}:{r['temperature']}", "item_id": r["item_id"], "lang": r["lang"],
                "question": r["question"], "reference": r["reference"], "answer": r["response"],
                "judge_reasoning": r["judge_reply"], "label": _label(r["average"]),
            })  # fmt: skip
        names = {str(k): f"{k} (rubric mean, 1 = worst, 5 = best)" for k in range(1, 6)}
        return Annotation(path, judged, list(names), names)


def _label(average: str) -> str:
    """A rubric mean rounded half up to the nearest whole point, 1–5: the label an annotator checks."""
    return str(min(5, max(1, math.floor(float(average) + 0.5))))
