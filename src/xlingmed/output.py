"""The run folder: ``manifest.json``, ``samples.jsonl``, ``summary.json`` and one CSV per task.

Every file is written to a temporary name in the same folder and renamed into place, so a crash never leaves
a half-written file; files are written only once a run has finished.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any


def _jsonable(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    return value


def write_atomic(path: Path, text: str | bytes) -> None:
    """Write ``text`` (utf-8, or raw bytes) to ``path`` through a temporary file and ``os.replace``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    data = text.encode("utf-8") if isinstance(text, str) else text
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def dumps(obj: Any) -> str:
    return json.dumps(_jsonable(obj), ensure_ascii=False, indent=2) + "\n"


def write_json(path: Path, obj: Any) -> None:
    write_atomic(path, dumps(obj))


def write_jsonl(path: Path, rows: Iterable[dict[str, Any]]) -> None:
    write_atomic(path, "".join(json.dumps(_jsonable(r), ensure_ascii=False) + "\n" for r in rows))


def write_csv(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    buf = io.StringIO()
    fields: list[str] = []
    for r in rows:
        fields.extend(k for k in r if k not in fields)
    writer = csv.DictWriter(buf, fieldnames=fields)
    writer.writeheader()
    for r in rows:
        writer.writerow({k: ("" if v is None else v) for k, v in r.items()})
    write_atomic(path, buf.getvalue())
