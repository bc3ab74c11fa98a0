"""The run folder: ``manifest.json``, ``samples.jsonl``, ``summary.json`` and one CSV per task.

Every file is written to a temporary name in the same folder and renamed into place, so a crash never leaves
a half-written file; and a run folder is filled in a hidden sibling folder that is renamed into place only when
every file is there (``staged_dir``), so a crash never leaves half a run folder either. Files are written only
once a run has finished.
"""

from __future__ import annotations

import csv
import glob
import io
import json
import math
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
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


class JsonlSpool:
    """JSON lines written as a run goes (so memory does not grow with the run), to a hidden file beside the run
    folder; ``move_to`` puts it in place at the end, ``discard`` removes it."""

    def __init__(self, beside: Path) -> None:
        beside = Path(beside)
        beside.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=f".{beside.name}.spool-", suffix=".jsonl", dir=beside.parent)
        self.path = Path(name)
        self._fh = os.fdopen(fd, "w", encoding="utf-8")

    def write(self, row: dict[str, Any]) -> None:
        self._fh.write(json.dumps(_jsonable(row), ensure_ascii=False) + "\n")

    def move_to(self, path: Path) -> None:
        self._fh.flush()
        os.fsync(self._fh.fileno())
        self._fh.close()
        os.replace(self.path, path)

    def discard(self) -> None:
        if not self._fh.closed:
            self._fh.close()
        self.path.unlink(missing_ok=True)


class SqliteSpool:
    """A hidden SQLite file beside the run folder (``path``), filled by the caller while the run goes;
    ``move_to`` puts it in place at the end (after its connections are closed), ``discard`` removes it and its
    WAL files."""

    def __init__(self, beside: Path) -> None:
        beside = Path(beside)
        beside.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=f".{beside.name}.spool-", suffix=".sqlite", dir=beside.parent)
        os.close(fd)
        os.unlink(name)  # SQLite creates it; an empty file would also do, but this leaves nothing if unused
        self.path = Path(name)

    def move_to(self, path: Path) -> None:
        if self.path.exists():
            os.replace(self.path, path)

    def discard(self) -> None:
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)


def check_run_dir(path: Path) -> None:
    """A run may write ``path`` only if it is absent, empty, or an earlier run folder (it is replaced whole).

    Hidden leftovers of a killed run of the same folder (``.NAME.spool-*``, ``.NAME.partial-*``) are removed.

    Raises:
        ConfigError: ``path`` is a file, or a folder with other content (nothing is deleted).
    """
    from xlingmed.errors import ConfigError

    path = Path(path)
    # leftovers of a run of this folder that was killed: its spool, its staged folder (one run per folder at a time)
    for kind in ("spool", "partial", "old"):
        for stale in path.parent.glob(f".{glob.escape(path.name)}.{kind}-*"):
            if stale.is_dir():
                shutil.rmtree(stale, ignore_errors=True)
            else:
                stale.unlink(missing_ok=True)
    if not path.exists():
        return
    if not path.is_dir():
        raise ConfigError(f"--out {path}: is a file, not a run folder")
    if any(path.iterdir()) and not (path / "manifest.json").is_file():
        raise ConfigError(f"--out {path}: folder exists and is not an xlingmed run folder; choose another --out")


@contextmanager
def staged_dir(path: Path) -> Iterator[Path]:
    """Yield an empty hidden folder beside ``path``; on success it replaces ``path`` (and whatever was there).

    On an exception the staged folder is removed and ``path`` is left as it was. A kill between the two renames
    leaves ``path`` absent (its old content stays in a hidden ``.NAME.old-*`` folder), never half-written.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    staged = Path(tempfile.mkdtemp(prefix=f".{path.name}.partial-", dir=path.parent))
    try:
        yield staged
    except BaseException:
        shutil.rmtree(staged, ignore_errors=True)
        raise
    old = None
    if path.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{path.name}.old-", dir=path.parent))
        os.replace(path, old / path.name)
    os.replace(staged, path)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


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


SCORE_COLUMNS = (
    "item_id", "lang", "task", "metric", "value", "temperature", "condition", "unit", "kind", "higher_is_better",
    "parse_method", "answer", "target", "probability", "group",
)  # fmt: skip


def write_scores(folder: Path, scores: Sequence[Any]) -> list[str]:
    """``scores.parquet`` and ``scores.csv`` (the same records; ``types.Score``) in ``folder``; returns the names.

    Parquet keeps the types (a missing value is null, temperatures are floats); the CSV is for eyes and
    spreadsheets."""
    import pandas as pd

    df = pd.DataFrame([s.to_json() for s in scores], columns=list(SCORE_COLUMNS))
    df = df.astype({"value": "float64", "temperature": "float64", "higher_is_better": "bool", "probability": "float64"})
    buf = io.BytesIO()
    df.to_parquet(buf, index=False)
    write_atomic(folder / "scores.parquet", buf.getvalue())
    write_csv(folder / "scores.csv", [s.to_json() for s in scores])
    return ["scores.parquet", "scores.csv"]
