"""See into the completion cache, check it, prune it, share it: what ``xlingmed cache`` does.

``info`` (file, size, schema, rows per model and task, oldest and newest), ``verify`` (SQLite's integrity check,
then every row decodes into a request and a completion), ``prune`` (rows of models matching a glob and/or older
than a number of days; a dry run counts them), ``export`` (a portable JSON Lines file, gzip when it ends in
``.gz``: one row per completion with its key, so an import answers the same requests) and ``import_file`` (an
export or another cache file; a key already held keeps its stored completion and a different one is counted, never
silently replaced). inspect_ai's ``inspect cache list/clear/prune`` are the model; every operation opens the file
through ``store.CompletionCache`` (so the schema is checked and migrated) and takes SQLite's locks, so it is safe
while runs use the same file.
"""

from __future__ import annotations

import gzip
import json
import sqlite3
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xlingmed.errors import ConfigError, DataError
from xlingmed.faults import damaged_cache
from xlingmed.filemodes import describe_mode
from xlingmed.store import SCHEMA_VERSION, CompletionCache, ImportCounts
from xlingmed.types import Completion, cache_key_of

DAY_S = 86_400.0


@contextmanager
def _opened(path: Path) -> Iterator[CompletionCache]:
    """The cache at ``path``, which must exist (an inspection never creates one)."""
    if not Path(path).is_file():
        raise ConfigError(f"no completion cache at {path}")
    cache = CompletionCache(path)
    try:
        yield cache
    finally:
        cache.close()


def info(path: Path) -> dict[str, Any]:
    """What the cache holds.

    Returns:
        {"file", "bytes" (the file and its WAL), "mode" (``0600 (owner only)``: who may read the prompts and
        replies it holds), "schema", "rows", "by_model_task": [{"model", "task" (``None``
        for rows written before 0.2), "rows", "oldest", "newest"} (ISO 8601, UTC)]}.

    Raises:
        ConfigError: no file at ``path``. EnvironmentFault: damaged, or from a newer xlingmed.
    """
    with _opened(path) as cache:
        db = cache.connection
        groups = db.execute(
            "SELECT model, task, COUNT(*), MIN(created), MAX(created) FROM completions GROUP BY model, task "
            "ORDER BY model, task"
        ).fetchall()
    size = sum(Path(f"{path}{s}").stat().st_size for s in ("", "-wal") if Path(f"{path}{s}").exists())
    return {
        "file": str(path),
        "bytes": size,
        "mode": describe_mode(Path(path)),
        "schema": SCHEMA_VERSION,
        "rows": sum(g[2] for g in groups),
        "by_model_task": [
            {"model": m, "task": t, "rows": n, "oldest": _iso(lo), "newest": _iso(hi)} for m, t, n, lo, hi in groups
        ],
    }


@dataclass(frozen=True)
class Verified:
    """What ``verify`` found: SQLite's integrity check (``"ok"`` or its first problems), the rows read, and the
    keys of rows that do not decode (at most ten named, all counted)."""

    integrity: str
    rows: int
    bad_rows: int
    bad_keys: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return self.integrity == "ok" and self.bad_rows == 0


def verify(path: Path) -> Verified:
    """SQLite's ``PRAGMA integrity_check``, then every row's request and completion decoded.

    Raises:
        ConfigError: no file at ``path``. EnvironmentFault: not a SQLite database, or from a newer xlingmed.
    """
    with _opened(path) as cache:
        db = cache.connection
        try:
            problems = [row[0] for row in db.execute("PRAGMA integrity_check(10)")]
        except sqlite3.DatabaseError as exc:
            raise damaged_cache(Path(path), exc) from exc
        rows = bad = 0
        bad_keys: list[str] = []
        for key, request, completion in db.execute("SELECT key, request, completion FROM completions"):
            rows += 1
            try:
                json.loads(request)
                Completion.from_json(json.loads(completion))
            except (ValueError, TypeError, KeyError, AttributeError):
                bad += 1
                if len(bad_keys) < 10:
                    bad_keys.append(str(key))
    return Verified("; ".join(problems), rows, bad, tuple(bad_keys))


def prune(path: Path, *, model: str | None = None, older_than_days: float | None = None, dry_run: bool = False) -> int:
    """Delete the rows of models matching the glob ``model`` (``openai/*``) and/or older than ``older_than_days``
    (both must hold when both are given); with ``dry_run`` only count them. Returns the rows (to be) deleted.

    Raises:
        ConfigError: neither filter given, a negative age, or no file at ``path``.
    """
    if model is None and older_than_days is None:
        raise ConfigError("cache prune needs --model PATTERN and/or --older-than DAYS (nothing is pruned by default)")
    if older_than_days is not None and older_than_days < 0:
        raise ConfigError(f"--older-than {older_than_days}: a number of days ≥ 0")
    where: list[str] = []
    args: list[str | float] = []
    if model is not None:
        where.append("model GLOB ?")
        args.append(model)
    if older_than_days is not None:
        where.append("created < ?")
        args.append(time.time() - older_than_days * DAY_S)
    clause = " AND ".join(where)
    with _opened(path) as cache:
        db = cache.connection
        if dry_run:
            return int(db.execute(f"SELECT COUNT(*) FROM completions WHERE {clause}", args).fetchone()[0])
        with db:
            return int(db.execute(f"DELETE FROM completions WHERE {clause}", args).rowcount)


def export(path: Path, file: Path, *, model: str | None = None) -> int:
    """Write the cache's rows (of models matching ``model``, or all) to ``file`` as JSON Lines (gzip for
    ``.gz``): ``{"key", "model", "task", "created", "request", "completion"}`` per line, the last two as objects.
    The file appears whole or not at all. Returns the rows written."""
    from xlingmed.output import atomic_file

    with _opened(path) as cache:
        rows = cache.connection.execute(
            "SELECT key, model, task, created, request, completion FROM completions"
            + (" WHERE model GLOB ?" if model else "")
            + " ORDER BY created, key",
            (model,) if model else (),
        )
        n = 0
        with atomic_file(Path(file), "wb") as raw:
            out: Any = gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) if str(file).endswith(".gz") else raw
            for key, m, task, created, request, completion in rows:
                line = {"key": key, "model": m, "task": task, "created": created,
                        "request": json.loads(request), "completion": json.loads(completion)}  # fmt: skip
                out.write((json.dumps(line, ensure_ascii=False) + "\n").encode("utf-8"))
                n += 1
            if out is not raw:
                out.close()
    return n


def import_file(path: Path, file: Path) -> ImportCounts:
    """Add the completions of ``file`` (an ``export``, or another cache file) that the cache at ``path`` lacks.

    A key the cache already holds keeps its stored completion: counted ``same`` when the text and error are the
    same, ``differing`` otherwise (the caller says so). The cache is created when it does not exist.

    Raises:
        DataError: a line of an export that is not a row (the file and line named).
        EnvironmentFault: a cache file that is damaged or from a newer xlingmed.
    """
    file = Path(file)
    if not file.is_file():
        raise ConfigError(f"no file to import at {file}")
    cache = CompletionCache(path)
    try:
        if _is_sqlite(file):
            return cache.import_from(file)
        return _import_jsonl(cache, file)
    finally:
        cache.close()


def _import_jsonl(cache: CompletionCache, file: Path) -> ImportCounts:
    try:
        return _import_lines(cache, file)
    except (UnicodeDecodeError, EOFError, gzip.BadGzipFile, zlib.error) as exc:
        raise DataError(f"not a cache export (not UTF-8 JSON Lines, or a damaged .gz: {exc})", file=str(file)) from None


def _import_lines(cache: CompletionCache, file: Path) -> ImportCounts:
    db = cache.connection
    added = same = differing = rejected = 0
    opener = gzip.open if file.suffix == ".gz" else open
    with opener(file, "rt", encoding="utf-8") as fh, db:
        for number, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                key, completion = str(row["key"]), row["completion"]
                Completion.from_json(completion)
                request = json.dumps(row["request"], ensure_ascii=False)
                values = (key, str(row["model"]), request, json.dumps(completion, ensure_ascii=False),
                          float(row["created"]), row.get("task"))  # fmt: skip
            except (ValueError, TypeError, KeyError, RecursionError, AttributeError) as exc:
                raise DataError(f"not a cache export row ({type(exc).__name__}: {str(exc)[:80]})", file=str(file),
                                row=number) from None  # fmt: skip
            if not isinstance(row["request"], dict) or cache_key_of(str(row["model"]), row["request"]) != key:
                rejected += 1  # a key that is not its request's: a poisoned export would answer other requests
                continue
            held = db.execute("SELECT completion FROM completions WHERE key = ?", (key,)).fetchone()
            if held is None:
                db.execute("INSERT INTO completions (key, model, request, completion, created, task) "
                           "VALUES (?,?,?,?,?,?)", values)  # fmt: skip
                added += 1
                continue
            mine = json.loads(held[0])
            if (mine.get("text"), mine.get("error")) == (completion.get("text"), completion.get("error")):
                same += 1
            else:
                differing += 1
    return ImportCounts(added=added, same=same, differing=differing, rejected=rejected)


def _is_sqlite(file: Path) -> bool:
    with open(file, "rb") as fh:
        return fh.read(16) == b"SQLite format 3\x00"


def _iso(t: float | None) -> str | None:
    if t is None:
        return None
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


__all__ = ["Verified", "export", "import_file", "info", "prune", "verify"]
