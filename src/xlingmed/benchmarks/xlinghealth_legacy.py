"""XLingHealth's previous layout (one sheet per language; spec xlingeval.md §1.2), turned into the long one."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pandas as pd

from xlingmed.benchmarks.tables import cell_text, int_cell
from xlingmed.errors import DataError
from xlingmed.languages import get_language


def legacy_to_long(path: Path, sheets: dict[str, pd.DataFrame], languages: tuple[str, ...]) -> pd.DataFrame:
    """Turn the one-sheet-per-language layout into the long layout (spec §1.2)."""
    long: pd.DataFrame | None = None
    for code in languages:
        name = get_language(code).name
        if name not in sheets:
            continue
        df = sheets[name]
        qcol, acol = ("question", "answer") if code == "en" else ("question_translated", "answer_translated")
        need = ["id", qcol, acol]
        absent = [c for c in need if c not in df.columns]
        if "label" not in df.columns and "neg_sample" not in df.columns:
            absent.append("label or neg_sample")
        if absent:
            raise DataError(f"missing column(s) {', '.join(absent)}", file=str(path), sheet=name)
        rows = legacy_rows(df, qcol=qcol, acol=acol, path=str(path), sheet=name)
        part = pd.DataFrame(rows, columns=["id", "label", f"question_{name}", f"answer_{name}"])
        if long is None:
            long = part
            continue
        if list(part["id"]) != list(long["id"]) or list(part["label"]) != list(long["label"]):
            raise DataError("ids or labels differ from the English sheet", file=str(path), sheet=name)
        long[f"question_{name}"] = part[f"question_{name}"].to_numpy()
        long[f"answer_{name}"] = part[f"answer_{name}"].to_numpy()
    assert long is not None
    return long


def legacy_rows(df: pd.DataFrame, *, qcol: str, acol: str, path: str, sheet: str) -> list[list[Any]]:
    records = df.to_dict("records")
    out: list[list[Any]] = []
    if "label" in df.columns:  # HealthQA: a positive row, then its negatives
        qid: int | None = None
        question = ""
        for pos, rec in enumerate(records):
            label = int_cell(rec["label"], path=path, sheet=sheet, row=pos + 2, column="label")
            if label == 1:
                qid = int_cell(rec["id"], path=path, sheet=sheet, row=pos + 2, column="id")
                question = cell_text(rec[qcol])
            elif qid is None:
                raise DataError("a negative row comes before any positive row", file=path, sheet=sheet, row=pos + 2)
            out.append([qid, label, question, rec[acol]])
        return out
    by_id = {}
    for pos, rec in enumerate(records):
        by_id[int_cell(rec["id"], path=path, sheet=sheet, row=pos + 2, column="id")] = rec
    for pos, rec in enumerate(records):
        qid = int_cell(rec["id"], path=path, sheet=sheet, row=pos + 2, column="id")
        out.append([qid, 1, rec[qcol], rec[acol]])
        try:
            negs = ast.literal_eval(str(rec["neg_sample"]))
            negs = [int(n) for n in negs]
        except (ValueError, SyntaxError, TypeError):
            raise DataError(
                f"neg_sample must be a list of ids, found {rec['neg_sample']!r}",
                file=path,
                sheet=sheet,
                row=pos + 2,
                column="neg_sample",
            ) from None
        for neg in negs:
            if neg not in by_id:
                raise DataError(
                    f"neg_sample id {neg} is not an id of this sheet",
                    file=path,
                    sheet=sheet,
                    row=pos + 2,
                    column="neg_sample",
                )
            out.append([qid, 0, rec[qcol], by_id[neg][acol]])
    return out
