"""Benchmark files that construction writes: Items in, ``qa:``/``mcq:`` rows out (``benchmarks/custom.py`` reads
them back), with provenance columns beside the fields, and a JSON record of how the file was made beside it.

A file is JSON Lines (``.jsonl``), CSV (``.csv``) or Parquet (``.parquet``), chosen by its extension; lists and
mappings (``negatives``, ``options``) are JSON text in CSV cells. Every file is written whole through a temporary
file and renamed into place: an interrupted command never leaves half a file.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from xlingmed import output
from xlingmed.errors import ConfigError
from xlingmed.types import Item

FORMATS = (".jsonl", ".csv", ".parquet")
TEXT_FIELDS = ("question", "reference", "negatives", "options")


def kind_of(items: Sequence[Item]) -> str:
    """``mcq`` when the items have options, else ``qa``."""
    return "mcq" if any(it.choices for it in items) else "qa"


def item_texts(item: Item) -> dict[str, Any]:
    """The texts of ``item`` a task reads, by field: ``question`` (a multiple-choice item's stem, without its
    options), ``reference`` (open questions), ``negatives`` (list) and ``options`` (label → text). Option labels
    and the answer key are not texts: they are never translated or transformed. Negatives the loader picked from
    other questions' references (a file without a negatives column) are left out: a reader of the new file picks
    them again, in the new language."""
    if item.choices:
        stem = str(item.meta.get("stem") or item.question)
        return {"question": stem, "options": {c.label: c.text for c in item.choices}}
    out: dict[str, Any] = {"question": item.question, "reference": item.reference}
    if item.negatives and "negatives_from" not in item.meta:  # shipped negatives; picked ones are picked again
        out["negatives"] = list(item.negatives)
    return out


def texts_of(value: Any) -> list[str]:
    """The non-blank texts of a field's value (a text, a list, or a label → text mapping)."""
    if isinstance(value, dict):
        return [str(v) for v in value.values() if str(v).strip()]
    if isinstance(value, list | tuple):
        return [str(v) for v in value if str(v).strip()]
    return [str(value)] if value is not None and str(value).strip() else []


def map_texts(value: Any, fn: Callable[[str], str | None]) -> Any:
    """``value`` with each non-blank text replaced by ``fn(text)`` (labels and blanks kept); ``None`` when ``fn``
    failed (returned ``None``) on any of its texts."""

    def one(v: Any) -> str | None:
        return str(v) if not str(v).strip() else fn(str(v))

    if isinstance(value, dict):
        out = {k: one(v) for k, v in value.items()}
        return None if any(v is None for v in out.values()) else out
    if isinstance(value, list | tuple):
        lst = [one(v) for v in value]
        return None if any(v is None for v in lst) else lst
    if value is None:
        return None
    return one(value)


def benchmark_row(item: Item, lang: str, texts: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """One file row: ``item_id``, ``lang``, the texts, ``answer`` (the gold letter, multiple choice),
    ``category`` when known, then ``extra`` (provenance)."""
    row: dict[str, Any] = {"item_id": item.item_id, "lang": lang, "question": texts["question"]}
    if item.choices:
        row["options"] = texts["options"]
        row["answer"] = item.gold_label
    else:
        row["reference"] = texts["reference"]
        if "negatives" in texts:
            row["negatives"] = texts["negatives"]
    if item.meta.get("category"):
        row["category"] = item.meta["category"]
    row.update(extra)
    return row


def check_out_path(path: Path) -> None:
    """Raises ConfigError when ``path`` has no known extension or its folder cannot be written."""
    if path.suffix.lower() not in FORMATS:
        raise ConfigError(f"--out {path}: the file must end in {', '.join(FORMATS)}")
    if path.is_dir():
        raise ConfigError(f"--out {path} is a folder; name a file")


def write_benchmark_file(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    """Write ``rows`` to ``path`` in the format of its extension (atomically)."""
    check_out_path(path)
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        output.write_jsonl(path, rows)
        return
    flat = [{k: _cell(v) for k, v in r.items()} for r in rows]
    if suffix == ".csv":  # a benchmark file: read as input by xlingmed and other tools, so its text is kept as is
        output.write_csv(path, flat, spreadsheet_safe=False)
        return
    import pandas as pd

    buf = io.BytesIO()
    pd.DataFrame(flat).to_parquet(buf, index=False)
    output.write_atomic(path, buf.getvalue())


def _cell(value: Any) -> Any:
    if isinstance(value, dict | list | tuple):
        return json.dumps(value, ensure_ascii=False)
    return value


def record_path(path: Path, what: str) -> Path:
    """The JSON record beside a constructed file: ``liveqa_ar.jsonl`` → ``liveqa_ar.translation.json``."""
    return path.with_name(f"{path.stem}.{what}.json")
