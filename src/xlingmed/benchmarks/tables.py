"""Reading a user's table (CSV, TSV, JSON Lines, JSON, Parquet) into a frame of strings, with errors that name
the file, the row as a spreadsheet shows it, and the column; and the cell readers of spreadsheets (``cell_text``,
``int_cell``)."""

from __future__ import annotations

import codecs
import csv
import io
import re
import warnings
from pathlib import Path
from typing import Any

import pandas as pd

from xlingmed.errors import DataError, DataNotFoundError

MAX_CELL_CHARS = 200_000  # ≈ 50k tokens: longer than any question, usually an unclosed quote swallowing rows


def read_table(path: Path) -> pd.DataFrame:
    """Read CSV, JSONL, JSON or Parquet into a frame of strings (empty cells as ``""``).

    Raises:
        DataNotFoundError: no such file.
        DataError: an unknown extension or a file that does not parse (named).
    """
    if not path.is_file():
        raise DataNotFoundError(f"{path}: no such file")
    suffix = path.suffix.lower()
    try:
        if suffix in (".csv", ".tsv"):
            df = _read_delimited(decode_text(path.read_bytes(), path), "\t" if suffix == ".tsv" else ",", path)
        elif suffix in (".jsonl", ".ndjson"):
            df = pd.read_json(path, lines=True, dtype=False)
        elif suffix == ".json":
            df = pd.read_json(path, dtype=False)
        elif suffix == ".parquet":
            df = pd.read_parquet(path)
        else:
            raise DataError("unknown file type (expected .csv, .tsv, .jsonl, .json or .parquet)", file=str(path))
    except (ValueError, UnicodeDecodeError, OSError, pd.errors.ParserError) as exc:
        if isinstance(exc, DataError):
            raise
        raise _parser_error(exc, path) from None
    _check_cell_sizes(df, path)
    return df


def _read_delimited(text: str, sep: str, path: Path) -> pd.DataFrame:
    """CSV/TSV as strings. ``index_col=False``: when every row has one field more than the header (an unquoted
    comma in the last column), pandas would silently make the first column the index and shift the others; this
    names the first such row instead."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", pd.errors.ParserWarning)
        df = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False, sep=sep, index_col=False)
    if any(issubclass(w.category, pd.errors.ParserWarning) for w in caught):
        reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep)
        width = len(next(reader, []))
        for rec in reader:
            if len(rec) > width:
                raise DataError(
                    f"{len(rec)} fields where the header has {width} (an unquoted comma? quote cells that hold one)",
                    file=str(path),
                    row=reader.line_num,
                )
    return df


def _parser_error(exc: Exception, path: Path) -> DataError:
    """pandas' tokenizer messages, with their 0-based "row" or 1-based "line" turned into a spreadsheet row."""
    text = str(exc)
    if m := re.search(r"EOF inside string starting at row (\d+)", text):
        return DataError("unclosed quote: the cell never ends", file=str(path), row=int(m.group(1)) + 1)
    if m := re.search(r"Expected (\d+) fields in line (\d+), saw (\d+)", text):
        return DataError(
            f"{m.group(3)} fields where the header has {m.group(1)} (an unquoted comma?)",
            file=str(path),
            row=int(m.group(2)),
        )
    return DataError(f"cannot read: {text}", file=str(path))


def decode_text(raw: bytes, path: Path) -> str:
    """UTF-8 with or without a BOM, or UTF-16 with a BOM (Excel's "Unicode text").

    Raises:
        DataError: bytes that are not UTF-8; names the line (= spreadsheet row when no cell spans lines).
    """
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError:
            raise DataError("starts with a UTF-16 byte-order mark but is not valid UTF-16", file=str(path)) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DataError(
            f"not UTF-8 (byte 0x{raw[exc.start]:02x} at line {line}); save the file as UTF-8", file=str(path), row=line
        ) from None


def _check_cell_sizes(df: pd.DataFrame, path: Path) -> None:
    for col in df.columns:
        lengths = df[col].map(lambda v: len(v) if isinstance(v, str) else 0)
        if len(lengths) and lengths.max() > MAX_CELL_CHARS:
            k = int(lengths.to_numpy().argmax())
            raise DataError(
                f"cell of {int(lengths.iloc[k]):,} characters (limit {MAX_CELL_CHARS:,}): likely a broken quote "
                "or a pasted document",
                file=str(path),
                row=k + 2,
                column=str(col),
            )


def cell_text(value: Any) -> str:
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return ""
    return str(value)


def int_cell(value: Any, *, path: str, sheet: str, row: int, column: str) -> int:
    try:
        as_float = float(value)
    except (TypeError, ValueError):
        as_float = float("nan")
    if pd.isna(as_float) or as_float != int(as_float):
        raise DataError(f"expected an integer, found {value!r}", file=path, sheet=sheet, row=row, column=column)
    return int(as_float)
