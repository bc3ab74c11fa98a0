"""MultiMed-X as its authors publish their samples (astridesa/Med-CoReasoner, ``MultiMed-X/``): one spreadsheet per
task and language, ``liveqa/liveqa_<lang>_<n>.xlsx`` (columns ``EN`` and the language's code, ``jp`` for Japanese)
and ``bionli/bionli_<lang>_<n>.xlsx`` (the same and ``gold_label``), read as the hub's one table (``id``, ``lang``,
``task``, ``text``, ``label``, ``EN``) so that ``multimed-x`` and ``multimed-x/nli`` load them as they are
(issue 61). Rows are numbered in file order (``qa-jp-001``…): the same number is the same question in every
language's file, as the authors pair them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from xlingmed.benchmarks.base import LoadRequest
from xlingmed.caps import check_input_file
from xlingmed.errors import DataError

_FILE = re.compile(r"^(liveqa|bionli)_([A-Za-z]{2,3})_\d+\.xlsx$")
_TASK = {"liveqa": "qa", "bionli": "nli"}
_PREFIX = {"liveqa": "qa", "bionli": "bionli"}  # the hub's ids: qa-ja-001, bionli-ja-001


def authors_folder(request: LoadRequest) -> Path | None:
    """``--data-dir`` (or its ``MultiMed-X/``) where it holds the authors' ``liveqa/`` or ``bionli/`` files."""
    if request.data_dir is None:
        return None
    for folder in (Path(request.data_dir), Path(request.data_dir) / "MultiMed-X"):
        if any(_FILE.match(p.name) for sub in ("liveqa", "bionli") for p in (folder / sub).glob("*.xlsx")):
            return folder
    return None


def authors_table(folder: Path) -> pd.DataFrame:
    """Every sample spreadsheet under ``folder`` as the hub's table.

    Raises:
        DataError: a spreadsheet that does not read, or lacks its language's column or ``EN`` (named).
    """
    frames = []
    for path in sorted(p for sub in ("liveqa", "bionli") for p in (folder / sub).glob("*.xlsx")):
        found = _FILE.match(path.name)
        if found is None:
            continue
        kind, code = found.group(1), found.group(2).lower()
        check_input_file(path)
        try:
            sheet = pd.read_excel(path, dtype=object)
        except Exception as exc:  # openpyxl raises many types for a corrupt file
            raise DataError(f"cannot read as xlsx ({type(exc).__name__}: {str(exc)[:80]})", file=str(path)) from None
        missing = [c for c in (code, "EN") if c not in sheet.columns]
        if missing:
            raise DataError(f"no column(s) {missing}; columns: {list(sheet.columns)}", file=str(path))
        frames.append(pd.DataFrame({
            "id": [f"{_PREFIX[kind]}-{code}-{k:03d}" for k in range(1, len(sheet) + 1)], "lang": code,
            "task": _TASK[kind],
            "text": sheet[code], "label": sheet.get("gold_label"), "EN": sheet["EN"],
        }))  # fmt: skip
    if not frames:
        raise DataError("no liveqa_<lang>_<n>.xlsx or bionli_<lang>_<n>.xlsx here", file=str(folder))
    return pd.concat(frames, ignore_index=True)
