"""The seven published MedArabiQ CSVs and their reader (spec medarabiq.md §1–§2)."""

from __future__ import annotations

import csv
import hashlib
import io
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from xlingmed.errors import DataError, DataNotFoundError


@dataclass(frozen=True)
class TaskFile:
    """One published CSV: its name, exact header, the columns of each language, and its published sha256."""

    file: str
    header: tuple[str, ...]
    question: dict[str, str]  # lang -> column
    answer: dict[str, str]  # lang -> column
    kind: str  # "multiple_choice" | "bias" | "open"
    sha256: str
    expected_rows: tuple[int, ...] = (100,)
    category: str | None = None


_FITB = ("Question - Arabic", "Answer - Arabic", "Question - English", "Answer - English", "Category")
_FITB_Q = {"ar": "Question - Arabic", "en": "Question - English"}
_FITB_A = {"ar": "Answer - Arabic", "en": "Answer - English"}

# Spec §1: the files at the authors' HEAD 1d3d77a (2025-06-17).
TASKS: dict[str, TaskFile] = {
    "mcq": TaskFile(
        "multiple-choice-questions.csv",
        ("Question", "Answer", "Category"),
        {"ar": "Question"},
        {"ar": "Answer"},
        "multiple_choice",
        "32512d071c9d0291421961de778105e0262997830a3df39f81c0ac99b8e00824",
        category="Category",
    ),
    "mcq_bias": TaskFile(
        "multiple-choice-withbias.csv",
        (
            "Question",
            "Answer",
            "Category",
            "Bias Category",
            "Question with Bias",
            "Bias Education",
            "One-shot Demonstration",
            "Few-shot Demonstration",
        ),
        {"ar": "Question"},
        {"ar": "Answer"},
        "bias",
        "57d17288b96424ec8cdedd386f50567e747e0b96e3f355aeda0f193292e30dd9",
        expected_rows=(100, 98),
        category="Category",
    ),
    "fitb_choices": TaskFile(
        "fill-in-the-blank-choices.csv",
        _FITB,
        _FITB_Q,
        _FITB_A,
        "multiple_choice",
        "40cb672f8335cea8018beca8e6de2295a954127c76330fe602eaae4e942e161e",
        category="Category",
    ),
    "fitb_open": TaskFile(
        "fill-in-the-blank-nochoices.csv",
        _FITB,
        _FITB_Q,
        _FITB_A,
        "open",
        "3e4603b4460f4b73c30aeb9aa7ae7e03f57156de3818fd7092a11d4ee2e3f5f3",
        category="Category",
    ),
    "qa": TaskFile(
        "patient-doctor-qa.csv",
        ("Question_description", "Answer_details"),
        {"ar": "Question_description"},
        {"ar": "Answer_details"},
        "open",
        "ab68b3b74a63b27df887a3be804c9cb5fa33767acc58613461ea3f5c129f2598",
    ),
    "qa_gec": TaskFile(
        "patient-doctor-qa-gec.csv",
        ("GEC Question description", "GEC Answer details"),
        {"ar": "GEC Question description"},
        {"ar": "GEC Answer details"},
        "open",
        "bdddcda4baebc0dc0b1ea606c68e97873a3d7ebea3fac1fcfab94e7f9b1e4cfa",
    ),
    "qa_llm": TaskFile(
        "patient-doctor-qa-llm.csv",
        ("Modified question description", "Unmodified answer"),
        {"ar": "Modified question description"},
        {"ar": "Unmodified answer"},
        "open",
        "fc2d99fcfdb84d4bbbdb0587dd78b8184f255c1711bf507510987cf547de2b36",
    ),
}

# The five prompt variants of one bias item (paper Table 2 columns), and the CSV column of each.
BIAS_CONDITIONS: dict[str, str] = {
    "original": "Question",
    "biased": "Question with Bias",
    "education": "Bias Education",
    "one_shot": "One-shot Demonstration",
    "few_shot": "Few-shot Demonstration",
}
# Bias Category codes (spec §2.2, the order (i)–(vii) of the paper's §4.1.2).
BIAS_NAMES: dict[int, str] = {
    1: "confirmation",
    2: "recency",
    3: "frequency",
    4: "cultural",
    5: "false_consensus",
    6: "status_quo",
    7: "self_diagnosis",
}
PAPER_COMPAT_ROWS = 98  # the paper's Table 2 is k/98: the bias file before rows 98-99 were added
DATA_DIR_ENV = "XLINGMED_MEDARABIQ_DIR"


# --------------------------------------------------------------------------------------------------------------
# Reading a CSV


@dataclass
class Table:
    """A parsed CSV: named columns only, one dict per data row, and what was noticed on the way."""

    path: Path
    header: list[str]
    rows: list[dict[str, str]]
    quirks: list[str]
    bom: bool
    sha256: str


def read_medarabiq_csv(path: str | os.PathLike[str], header: Sequence[str]) -> Table:
    """Read one MedArabiQ CSV by the reader contract of spec §2.

    Args:
        path: the CSV file.
        header: the exact expected column names (order free); unnamed columns that are empty in every row are
            dropped (the bias file's trailing comma, the GEC file's ``,,,,``).

    Returns:
        A ``Table`` whose rows map each expected column to its raw cell text (not stripped).

    Raises:
        DataError: not UTF-8, a missing or unexpected column, an unnamed column with values, a row with another
            number of fields, or an empty cell; the message names the file, the row (as a spreadsheet shows it:
            header = row 1, so data row k is row k + 2; the CSV line is given too, as quoted fields span lines)
            and the column.
    """
    path = Path(path)
    raw = path.read_bytes()
    bom = raw.startswith(b"\xef\xbb\xbf")
    records = _csv_records(raw, path)
    if not records:
        raise DataError("empty file (no header)", file=str(path))
    head = [h.strip() for h in records[0][1]]
    data = records[1:]
    quirks: list[str] = [] if bom else ["no UTF-8 BOM"]
    for k, (line, rec) in enumerate(data):
        if len(rec) != len(head):
            raise DataError(
                f"{len(rec)} fields where the header has {len(head)} (CSV line {line})", file=str(path), row=k + 2
            )
    keep = _named_columns(head, data, path)
    if len(keep) < len(head):
        quirks.append(f"dropped {len(head) - len(keep)} unnamed empty column(s)")
    names = [head[j] for j in keep]
    missing = [h for h in header if h not in names]
    unexpected = [h for h in names if h not in header]
    if missing or unexpected or len(set(names)) != len(names):
        raise DataError(
            f"header {names} is not the published one {list(header)}"
            + (f"; missing {missing}" if missing else "")
            + (f"; unexpected {unexpected}" if unexpected else ""),
            file=str(path),
            row=None,
        )
    rows: list[dict[str, str]] = []
    for k, (line, rec) in enumerate(data):
        row = {head[j]: rec[j] for j in keep}
        for col, value in row.items():
            if not value.strip():
                raise DataError(f"empty cell (CSV line {line})", file=str(path), row=k + 2, column=col)
        rows.append(row)
    quirks += _cell_quirks(rows)
    return Table(path, names, rows, quirks, bom, hashlib.sha256(raw).hexdigest())


def _named_columns(head: list[str], data: list[tuple[int, list[str]]], path: Path) -> list[int]:
    """The positions of the named columns; ``DataError`` for an unnamed column that holds a value."""
    keep: list[int] = []
    for j, name in enumerate(head):
        if name:
            keep.append(j)
            continue
        filled = [k for k, (_, rec) in enumerate(data) if rec[j].strip()]
        if filled:
            raise DataError(
                f"unnamed column {j + 1} has values (first at data row {filled[0]})", file=str(path), column=f"#{j + 1}"
            )
    return keep


def _csv_records(raw: bytes, path: Path) -> list[tuple[int, list[str]]]:
    """The file's records (header first) with the CSV line each ends on; ``DataError`` where it is not UTF-8 or
    not CSV."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DataError(
            f"not UTF-8 (byte 0x{raw[exc.start]:02x} at line {line}, offset {exc.start}): {exc.reason}", file=str(path)
        ) from None
    records: list[tuple[int, list[str]]] = []
    # newline="": line ends inside quoted fields (bare LF, lone CR) stay data, as with open(..., newline="")
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        for rec in reader:
            records.append((reader.line_num, rec))
    except csv.Error as exc:
        raise DataError(f"CSV syntax error near line {reader.line_num}: {exc}", file=str(path)) from None
    return records


def _cell_quirks(rows: list[dict[str, str]]) -> list[str]:
    """The cells' quirks, counted: carriage returns inside fields, padding whitespace, zero-width spaces."""
    quirks = []
    crlf_inside = sum(v.count("\r") for r in rows for v in r.values())
    if crlf_inside:
        quirks.append(f"{crlf_inside} carriage return(s) inside fields")
    padded = sum(1 for r in rows for v in r.values() if v != v.strip())
    if padded:
        quirks.append(f"{padded} cell(s) with leading/trailing whitespace (stripped in prompts and gold)")
    zw = sum(v.count("\u200b") for r in rows for v in r.values())
    if zw:
        quirks.append(f"{zw} zero-width space(s)")
    return quirks


def data_file(task: str, data_dir: str | os.PathLike[str] | None) -> Path:
    """The CSV of ``task`` in ``data_dir`` (else ``$XLINGMED_MEDARABIQ_DIR``, else ``$XLINGMED_DATA_DIR``).

    Raises:
        DataNotFoundError: no folder given, or the file is not in it. MedArabiQ is never downloaded: its licence
            forbids redistribution.
    """
    spec = TASKS[task]
    folder = data_dir or os.environ.get(DATA_DIR_ENV) or os.environ.get("XLINGMED_DATA_DIR")
    if not folder:
        raise DataNotFoundError(
            f"MedArabiQ ({spec.file}) is not redistributable and is never downloaded: pass --data-dir with your "
            f"own copy of the published CSVs (or set {DATA_DIR_ENV})"
        )
    path = Path(folder) / spec.file
    if not path.is_file():
        raise DataNotFoundError(f"{path} not found: --data-dir must hold the published MedArabiQ file {spec.file}")
    return path
