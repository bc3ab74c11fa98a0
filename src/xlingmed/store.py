"""Completion cache: SQLite in WAL mode, one row per completion (answers and permanent failures).

Each completion is committed as soon as it arrives, so a run killed at any point (Ctrl-C, SIGKILL) loses at most
the requests in flight, and a re-run answers everything stored from here with no backend call. Transient
failures are never stored (a re-run retries them); permanent ones (``Completion.permanent``) are.

The file carries a schema version (``PRAGMA user_version``, ``SCHEMA_VERSION``): an older file is migrated when it
is opened (every step in ``_MIGRATIONS``), a newer one is refused with a clear message, and a file that is not a
SQLite database is reported as damaged, never overwritten (``faults``).

Writes happen on a writer thread with its own connection, so the event loop never waits for the disk: ``put``
hands the row over and returns; the writer commits whatever has arrived in one transaction (group commit: one
row when traffic is light, many when it is heavy), usually within a millisecond.
"""

from __future__ import annotations

import json
import os
import queue
import random
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xlingmed.errors import DataError, EnvironmentFault
from xlingmed.faults import cache_fault
from xlingmed.filemodes import private_dir, private_file
from xlingmed.sqlite_guard import check_tables, interrupted, open_foreign
from xlingmed.types import Completion, GenerateRequest, cache_key_of

CACHE_ENV = "XLINGMED_CACHE"
SCHEMA_VERSION = 2
# version → the statements that bring a file of that version to the next one
_MIGRATIONS: dict[int, tuple[str, ...]] = {
    # 0: the unversioned file of xlingmed 0.1; an index for `xlingmed cache info` and `prune` by model and age
    0: ("CREATE INDEX IF NOT EXISTS completions_model_created ON completions (model, created)",),
    # 1: which task and stage asked (``correctness:judge``), for `xlingmed cache info`; NULL on older rows
    1: ("ALTER TABLE completions ADD COLUMN task TEXT",),
}

_SCHEMA = """
CREATE TABLE IF NOT EXISTS completions (
    key        TEXT PRIMARY KEY,
    model      TEXT NOT NULL,
    request    TEXT NOT NULL,
    completion TEXT NOT NULL,
    created    REAL NOT NULL
)
"""


def schema_version(db: sqlite3.Connection, path: Path) -> int:
    """The file's ``PRAGMA user_version`` (0: the unversioned file of 0.1, or a new file).

    Raises:
        EnvironmentFault: a version newer than this xlingmed reads.
    """
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise EnvironmentFault(
            f"the completion cache {path} was written by a newer xlingmed (schema {version}; this one reads up to "
            f"{SCHEMA_VERSION}): nothing was sent and the file is left as it is. Upgrade xlingmed (pip install -U "
            "xlingmed), or use another cache (--cache FILE or XLINGMED_CACHE)"
        )
    return version


def default_cache_path() -> Path:
    """``$XLINGMED_CACHE`` if set, else ``<user cache dir>/xlingmed/completions.sqlite``."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("xlingmed")) / "completions.sqlite"


@dataclass(frozen=True)
class ImportCounts:
    """What ``CompletionCache.import_from`` did: rows added, rows already held identically, rows already held
    with another text or error (kept as they were)."""

    added: int
    same: int
    differing: int
    rejected: int = 0  # rows whose key is not their request's, or that are no completion: not imported

    def __add__(self, other: ImportCounts) -> ImportCounts:
        return ImportCounts(self.added + other.added, self.same + other.same, self.differing + other.differing,
                            self.rejected + other.rejected)  # fmt: skip


def _row_is_sound(key: Any, model: Any, request: Any, completion: Any, created: Any) -> bool:
    """A cache row from someone else's file that is what it claims: its key is its model and request's key, its
    completion reads as one, its time is a number."""
    if not all(isinstance(v, str) for v in (key, model, request, completion)):
        return False
    try:
        request_json = json.loads(request)
        Completion.from_json(json.loads(completion))
        float(created)
    except (ValueError, TypeError, KeyError, RecursionError, AttributeError):
        return False
    return isinstance(request_json, dict) and cache_key_of(model, request_json) == key


def _same_answer(held: str, other: str) -> bool:
    mine, theirs = json.loads(held), json.loads(other)
    return bool((mine.get("text"), mine.get("error")) == (theirs.get("text"), theirs.get("error")))


class CompletionCache:
    """Maps ``GenerateRequest.cache_key(model_id)`` to a stored ``Completion``.

    ``get`` and ``put`` are called from one thread (the event loop's); a completion is visible to ``get`` as soon
    as ``put`` returns, before the writer thread has committed it. ``flush`` waits until everything put so far is
    committed; ``close`` flushes.

    Raises (``put``, ``flush``, ``close``):
        sqlite3.Error: the writer thread could not store a row (disk full, read-only file); raised once, on the
            next call.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        try:
            if self.path == default_cache_path():  # <user cache dir>/xlingmed: nobody else's business
                private_dir(self.path.parent)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            private_file(self.path)  # every prompt and reply: owner-only, and so its -wal/-shm (filemodes.py)
            self._db = self._open()
        except (sqlite3.Error, OSError) as exc:
            raise cache_fault(self.path, exc, kept="nothing was sent") from exc
        self._pending: dict[str, Completion] = {}  # put but not yet committed
        self._lock = threading.Lock()
        self._queue: queue.SimpleQueue[tuple[str, str, str, str, float, str | None, Completion] | None] = (
            queue.SimpleQueue()
        )
        self._error: BaseException | None = None
        self._writer: threading.Thread | None = None

    def _open(self, deadline_s: float = 30.0) -> sqlite3.Connection:
        """The connection, in WAL mode, migrated. Two runs opening a new file at once race for the switch to WAL,
        which SQLite answers with "database is locked" at once (its busy handler does not wait for a journal mode
        change): the open is tried again, with a short pause, until ``deadline_s``."""
        start = time.monotonic()
        while True:
            db = sqlite3.connect(self.path, timeout=30.0)
            try:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
                self._db = db
                self._migrate()
                return db
            except sqlite3.OperationalError as exc:
                db.close()
                if "locked" not in str(exc) or time.monotonic() - start > deadline_s:
                    raise
                time.sleep(0.05 + random.random() * 0.1)

    def _migrate(self) -> None:
        """Create the table, or bring an older file to ``SCHEMA_VERSION``; refuse a newer one. The steps run under
        SQLite's write lock with the version read again there, so two runs opening one old file at once migrate
        it once.

        Raises:
            EnvironmentFault: the file was written by a newer xlingmed.
        """
        if schema_version(self._db, self.path) == SCHEMA_VERSION:
            return
        level = self._db.isolation_level
        self._db.isolation_level = None  # explicit transaction: DDL included
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                version = schema_version(self._db, self.path)
                if version < SCHEMA_VERSION:
                    self._db.execute(_SCHEMA)
                    for step in range(version, SCHEMA_VERSION):
                        for statement in _MIGRATIONS[step]:
                            self._db.execute(statement)
                    self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        finally:
            self._db.isolation_level = level

    @classmethod
    def open_readonly(cls, path: str | os.PathLike[str]) -> CompletionCache | None:
        """The cache at ``path`` for lookups only (dry runs); ``None`` when there is none yet. Creates nothing."""
        if not Path(path).is_file():
            return None
        self = cls.__new__(cls)
        self.path = Path(path)
        self._db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, timeout=30.0)
        self._pending, self._queue, self._error, self._writer = {}, queue.SimpleQueue(), None, None
        self._lock = threading.Lock()
        try:
            schema_version(self._db, self.path)
            self._db.execute("SELECT 1 FROM completions LIMIT 1")
        except sqlite3.DatabaseError as exc:
            self._db.close()
            if "no such table" in str(exc):  # an empty SQLite file: nothing cached yet
                return None
            raise cache_fault(self.path, exc, kept="nothing was sent") from exc
        except EnvironmentFault:
            self._db.close()
            raise
        return self

    @property
    def connection(self) -> sqlite3.Connection:
        """The open SQLite connection, for the maintenance queries of ``cache_admin`` (everything put is
        committed first, so a query sees it)."""
        self.flush()
        return self._db

    def get(self, key: str) -> Completion | None:
        pending = self._pending.get(key)
        if pending is not None:
            return pending
        row = self._db.execute("SELECT completion FROM completions WHERE key = ?", (key,)).fetchone()
        return None if row is None else Completion.from_json(json.loads(row[0]))

    def put(
        self, key: str, model_id: str, request: GenerateRequest, completion: Completion, task: str | None = None
    ) -> None:
        """Store ``completion`` under ``key`` (unless it is a transient failure); ``task``: who asked
        (``correctness:judge``), shown by ``xlingmed cache info``."""
        self._raise_writer_error()
        if not completion.ok and not completion.permanent:
            return
        if self._writer is None:
            self._writer = threading.Thread(target=self._write_loop, name="xlingmed-cache-writer", daemon=True)
            self._writer.start()
        with self._lock:
            self._pending[key] = completion
        self._queue.put(
            (
                key,
                model_id,
                json.dumps(request.to_json(), ensure_ascii=False),
                json.dumps(completion.to_json(), ensure_ascii=False),
                time.time(),
                task,
                completion,
            )
        )

    def _write_loop(self) -> None:
        db = sqlite3.connect(self.path, timeout=30.0)
        db.execute("PRAGMA synchronous=NORMAL")
        try:
            while True:
                first = self._queue.get()
                batch = [first]
                while True:  # everything that arrived meanwhile goes into the same transaction
                    try:
                        batch.append(self._queue.get_nowait())
                    except queue.Empty:
                        break
                rows = [b for b in batch if b is not None]
                if rows:
                    try:
                        with db:
                            db.executemany(
                                "INSERT OR REPLACE INTO completions (key, model, request, completion, created, task) "
                                "VALUES (?,?,?,?,?,?)",
                                [r[:6] for r in rows],
                            )
                    except BaseException as exc:  # surfaced on the caller's thread at its next call
                        self._error = exc
                    with self._lock:
                        for r in rows:
                            if self._pending.get(r[0]) is r[6]:  # not replaced by a newer put meanwhile
                                del self._pending[r[0]]
                for b in batch:
                    if b is None:
                        return
        finally:
            db.close()

    def _raise_writer_error(self) -> None:
        if self._error is not None:
            exc, self._error = self._error, None
            if isinstance(exc, sqlite3.Error | OSError):  # a full disk, a read-only file: one line, what was kept
                kept = "every completion committed before it is kept in the cache"
                raise cache_fault(self.path, exc, kept=kept) from exc
            raise exc

    def flush(self) -> None:
        """Wait until every ``put`` so far is committed."""
        if self._writer is not None:
            self._queue.put(None)
            self._writer.join()
            self._writer = None
        self._raise_writer_error()

    def __len__(self) -> int:
        self.flush()
        return int(self._db.execute("SELECT COUNT(*) FROM completions").fetchone()[0])

    def import_from(self, path: str | os.PathLike[str]) -> ImportCounts:
        """Copy every completion of the cache file ``path`` that this cache lacks; a key this cache already holds
        keeps its stored completion (the cache is the one source of truth), and is counted as ``same`` or, when
        its text or error differs, ``differing``. ``path`` is someone else's file: it is opened read-only, never
        through a link, its ``completions`` must be a real table, and a row whose key is not its request's is not
        imported (``rejected``): a poisoned export cannot put chosen answers under other requests' keys.

        Raises:
            FileNotFoundError: no file at ``path``.
            DataError: not a completion cache (a view, a trigger, missing columns), or a query stopped by its
                deadline (``sqlite_guard``).
            EnvironmentFault: a cache written by a newer xlingmed.
        """
        self.flush()
        src = Path(path)
        if not src.is_file():
            raise FileNotFoundError(f"no completion cache at {src}")
        what = f"completion cache {src}"
        db, deadline = open_foreign(src, what)
        try:
            check_tables(db, src, what, {"completions": ("key", "model", "request", "completion", "created")})
            if int(db.execute("PRAGMA user_version").fetchone()[0]) > SCHEMA_VERSION:
                raise EnvironmentFault(f"{src} was written by a newer xlingmed: upgrade xlingmed to import it")
            columns = {row[1] for row in db.execute("PRAGMA table_info(completions)")}
            task = "task" if "task" in columns else "NULL"  # a file of 0.1 has no task column
            cursor = db.execute(f"SELECT key, model, request, completion, created, {task} FROM completions")
            counts = ImportCounts(0, 0, 0)
            while rows := cursor.fetchmany(2000):
                deadline.renew()
                counts = counts + self._import_rows(rows)
        except sqlite3.DatabaseError as exc:
            raise interrupted(exc, src, what) or DataError(f"{what}: {exc}", file=str(src)) from None
        finally:
            db.close()
        return counts

    def _import_rows(self, rows: list[tuple[Any, ...]]) -> ImportCounts:
        """Insert the rows this cache lacks whose key is their request's; count the rest (``import_from``)."""
        added = same = differing = rejected = 0
        with self._db:
            for key, model, request, completion, created, task in rows:
                if not _row_is_sound(key, model, request, completion, created):
                    rejected += 1
                    continue
                held = self._db.execute("SELECT completion FROM completions WHERE key = ?", (key,)).fetchone()
                if held is None:
                    self._db.execute(
                        "INSERT INTO completions (key, model, request, completion, created, task) VALUES (?,?,?,?,?,?)",
                        (key, model, request, completion, float(created), task if isinstance(task, str) else None),
                    )
                    added += 1
                elif _same_answer(held[0], completion):
                    same += 1
                else:
                    differing += 1
        return ImportCounts(added, same, differing, rejected)

    def close(self) -> None:
        try:
            self.flush()
        finally:
            self._db.close()
