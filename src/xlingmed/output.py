"""The run folder: ``manifest.json``, ``samples.jsonl``, ``summary.json`` and one CSV per task.

Every file is written to a temporary name in the same folder and renamed into place, so a crash never leaves
a half-written file; and a run folder is filled in a hidden sibling folder that is renamed into place only when
every file is there (``staged_dir``), so a crash never leaves half a run folder either. Files are written only
once a run has finished.
"""

from __future__ import annotations

import csv
import glob
import json
import math
import os
import pickle
import shutil
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from xlingmed.cells import safe
from xlingmed.chunk_file import ChunkFile
from xlingmed.filemodes import file_mode_for, make_dirs, publish
from xlingmed.score_spool import SCORE_COLUMNS as _SCORE_COLUMNS
from xlingmed.score_spool import ScoreSpool


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
    make_dirs(path.parent)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    data = text.encode("utf-8") if isinstance(text, str) else text
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, file_mode_for(path.parent))  # mkstemp's 0600, unless the folder is shared (filemodes.py)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@contextmanager
def atomic_file(path: Path, mode: str = "w", **kwargs: Any) -> Iterator[Any]:
    """An open temporary file beside ``path`` (utf-8 in text mode), fsynced and renamed to ``path`` when the block
    ends without an exception, removed when it raises."""
    make_dirs(path.parent)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        encoding = None if "b" in mode else "utf-8"
        with os.fdopen(fd, mode, encoding=encoding, **kwargs) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, file_mode_for(path.parent))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _close_quietly(fh: Any) -> None:
    """Close a spool being thrown away: on a full disk its buffered rows cannot be flushed, and must not keep the
    file from being removed."""
    if fh.closed:
        return
    try:
        fh.close()
    except OSError:
        with suppress(OSError, ValueError):
            os.close(fh.fileno())


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
        _close_quietly(self._fh)
        self.path.unlink(missing_ok=True)


class RecordSpool(ChunkFile[dict[str, Any]]):
    """A task's records (one flat dict per sample), kept on disk as they arrive and read back in order: the driver
    holds one chunk, never a whole plan's rows and reply texts. ``extend`` appends a chunk; iterating reads the
    chunks back one at a time (``len`` and indexing work too, so the engine scores a task from it as its ``records``).
    The file is hidden beside the run folder (``beside``: a task's ``ScoreSpool`` goes there too) and removed by
    ``discard``."""

    suffix = ".records"

    def extend(self, rows: Iterable[dict[str, Any]]) -> None:
        self._write_rows(list(rows))

    def _encode(self, rows: list[dict[str, Any]]) -> bytes:
        return pickle.dumps(rows, protocol=pickle.HIGHEST_PROTOCOL)

    def _decode(self, data: bytes) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = pickle.loads(data)  # our own file, written by this process
        return rows


class SqliteSpool:
    """A hidden SQLite file beside the run folder (``path``), filled by the caller while the run goes;
    ``move_to`` puts it in place at the end (after its connections are closed), ``discard`` removes it and its
    WAL files."""

    def __init__(self, beside: Path) -> None:
        beside = Path(beside)
        beside.parent.mkdir(parents=True, exist_ok=True)
        # mkstemp's file is owner-only, and SQLite gives its -wal/-shm files the same mode; SQLite takes an empty
        # file for a new database
        fd, name = tempfile.mkstemp(prefix=f".{beside.name}.spool-", suffix=".sqlite", dir=beside.parent)
        os.close(fd)
        self.path = Path(name)

    def move_to(self, path: Path) -> None:
        if self.path.exists() and self.path.stat().st_size:
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
def staged_dir(path: Path, private: bool = False) -> Iterator[Path]:
    """Yield an empty hidden folder beside ``path``; on success it replaces ``path`` (and whatever was there).

    The staged folder is owner-only (0700, its files 0600) while it is filled; renamed into place, it takes the
    umask's modes, or stays owner-only when ``private`` (``--private``; ``filemodes.publish``). On an exception
    the staged folder is removed and ``path`` is left as it was. A kill between the two renames leaves ``path``
    absent (its old content stays in a hidden ``.NAME.old-*`` folder), never half-written.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    staged = Path(tempfile.mkdtemp(prefix=f".{path.name}.partial-", dir=path.parent))  # 0700
    try:
        yield staged
        publish(staged, private)
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


def write_csv(path: Path, rows: Iterable[dict[str, Any]], *, spreadsheet_safe: bool = True) -> None:
    """``rows`` as a CSV (columns in order of first appearance; ``None`` is an empty cell; a text cell beginning
    with ``= + - @``, a tab, a CR or ``'`` is prefixed with ``'``: ``cells.safe``), streamed to a temporary file and
    renamed into place. ``rows`` is read twice (a list or a ``RecordSpool``). ``spreadsheet_safe=False`` writes
    text as it is: a data file other programs read as input (a benchmark file ``construct`` writes), not a table
    for eyes."""
    if not isinstance(rows, Sequence):
        rows = list(rows)
    fields: list[str] = []
    seen: set[str] = set()
    for r in rows:
        for k in r:
            if k not in seen:
                seen.add(k)
                fields.append(k)
    with atomic_file(path, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=fields)
        writer.writeheader()
        for r in rows:
            # a text cell a spreadsheet would run as a formula is quoted (cells.py; read back by cells.restore)
            writer.writerow({k: ("" if v is None else safe(v) if spreadsheet_safe else v) for k, v in r.items()})


SCORE_COLUMNS = _SCORE_COLUMNS  # the columns of scores.parquet and scores.csv: ``types.Score``'s fields


def write_scores(folder: Path, scores: Iterable[Any]) -> list[str]:
    """``scores.parquet`` and ``scores.csv`` (the same records; ``types.Score``) in ``folder``; returns the names.

    Parquet keeps the types (a missing value is null, temperatures are floats); the CSV is for eyes and
    spreadsheets. Both are streamed from a ``ScoreSpool`` (``scores`` itself, or one filled from it), a batch of
    rows at a time: a million Scores are never a million Python objects at once."""
    spool = scores if isinstance(scores, ScoreSpool) else None
    if spool is None:
        spool = ScoreSpool(folder)
        spool.extend(scores)
    try:
        with atomic_file(folder / "scores.parquet", "wb") as fh:
            spool.write_parquet(fh)
        with atomic_file(folder / "scores.csv", "w", newline="") as fh:
            spool.write_csv(fh)
    finally:
        if spool is not scores:
            spool.discard()
    return ["scores.parquet", "scores.csv"]


def write_run(
    out: Path,
    *,
    samples: JsonlSpool | Iterable[dict[str, Any]],
    tables: Mapping[str, Iterable[dict[str, Any]]],
    scores: Iterable[Any],
    summary: dict[str, Any],
    manifest: dict[str, Any],
    private: bool = False,
    spools: Mapping[str, SqliteSpool] | None = None,
) -> list[str]:
    """The one writer of a run folder, for a run and for an import alike: ``samples.jsonl`` (a spool moved in, or
    lines written), one CSV per table (``<name>.csv``), ``scores.parquet`` (and ``scores.csv``), ``summary.json``,
    ``manifest.json``, and any further ``spools`` (file name → spool, moved in where it holds a file), all staged
    and renamed into place at once (``staged_dir``): a reader never sees half a run folder.

    Returns:
        The file names written, in that order (``samples.jsonl``, ``summary.json``, ``manifest.json`` first).
    """
    names = ["samples.jsonl", "summary.json", "manifest.json"]
    with staged_dir(out, private=private) as staging:
        if isinstance(samples, JsonlSpool):
            samples.move_to(staging / names[0])
        else:
            write_jsonl(staging / names[0], samples)
        for name, spool in (spools or {}).items():
            if spool.path.exists():
                spool.move_to(staging / name)
                names.append(name)
        for name, rows in tables.items():
            write_csv(staging / f"{name}.csv", rows)
            names.append(f"{name}.csv")
        names += write_scores(staging, scores)
        write_json(staging / names[1], summary)
        write_json(staging / names[2], manifest)
    return names
