"""SQLite files from others are data, never code (issue 60).

An SQLite file carries more than rows: views (an endless recursive query behind a name xlingmed reads, which hung
``annotate export`` while a temporary file grew at 45 MB/s), triggers, and a path that may be a symbolic link to
another database (xlingmed then created or altered a database elsewhere). So a database xlingmed did not write is:

- never opened through a symbolic link (``refuse_link``);
- opened read-only where it is only read (``open_foreign``: ``mode=ro``, its schema untrusted);
- checked to hold real tables with the expected columns, and no triggers, before any query (``check_tables``);
- queried under a deadline (``guard``: SQLite's progress handler interrupts a statement that runs too long).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable, Mapping
from pathlib import Path

from xlingmed.errors import DataError

MAX_STATEMENT_S = 20.0  # one statement over a file from others; a real table of a million rows scans in seconds


def refuse_link(path: Path, what: str) -> None:
    """Raise where ``path`` (or its WAL/journal companion) is a symbolic link.

    Raises:
        DataError: a link; xlingmed would open, create or alter whatever it points to.
    """
    for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm"), Path(f"{path}-journal")):
        if p.is_symlink():
            raise DataError(f"{what} is a symbolic link ({p} → {p.readlink()}); xlingmed opens only plain files",
                            file=str(path))  # fmt: skip


def guard(db: sqlite3.Connection, seconds: float = MAX_STATEMENT_S) -> Deadline:
    """Untrusted schema off (no SQL functions with side effects inside views or triggers) and a deadline on every
    statement: ``deadline.renew()`` before each; a statement past it is interrupted (``sqlite3.OperationalError``
    "interrupted", which ``interrupted`` turns into a ``DataError``)."""
    db.execute("PRAGMA trusted_schema=OFF")
    deadline = Deadline(seconds)
    db.set_progress_handler(deadline.expired, 10_000)
    return deadline


class Deadline:
    """A statement's time limit, checked by SQLite every 10,000 virtual-machine steps."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.until = time.monotonic() + seconds

    def renew(self) -> None:
        self.until = time.monotonic() + self.seconds

    def expired(self) -> int:
        return 1 if time.monotonic() > self.until else 0


def open_foreign(path: Path, what: str, seconds: float = MAX_STATEMENT_S) -> tuple[sqlite3.Connection, Deadline]:
    """A read-only connection to a database someone else wrote, guarded (module doc).

    Raises:
        DataError: a symbolic link, or not an SQLite database.
    """
    refuse_link(path, what)
    try:
        db = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True, timeout=10.0)
        deadline = guard(db, seconds)
        db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as exc:
        raise DataError(f"{what} is not a readable SQLite database ({exc})", file=str(path)) from None
    return db, deadline


def check_tables(db: sqlite3.Connection, path: Path, what: str, tables: Mapping[str, Iterable[str]]) -> None:
    """Every table of ``tables`` is a real table (not a view) with at least those columns, and the file has no
    trigger, before anything else is read from it.

    Raises:
        DataError: a missing table or column, a view in a table's place, or a trigger.
    """
    try:
        kinds = dict(db.execute("SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view')").fetchall())
        triggers = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")]
    except sqlite3.DatabaseError as exc:
        raise DataError(f"{what}: cannot read its schema ({exc})", file=str(path)) from None
    if triggers:
        raise DataError(f"{what} holds triggers ({', '.join(map(repr, triggers[:3]))}); xlingmed never writes them",
                        file=str(path))  # fmt: skip
    for table, columns in tables.items():
        if kinds.get(table) != "table":
            found = f"a {kinds[table]}" if table in kinds else "missing"
            raise DataError(f"{what}: {table!r} must be a table; it is {found}", file=str(path))
        have = {r[1] for r in db.execute(f'PRAGMA table_info("{table}")')}
        missing = [c for c in columns if c not in have]
        if missing:
            raise DataError(f"{what}: table {table!r} lacks column(s) {', '.join(missing)}", file=str(path))


def interrupted(exc: sqlite3.Error, path: Path, what: str) -> DataError | None:
    """The ``DataError`` for a statement the deadline interrupted, else ``None``."""
    if isinstance(exc, sqlite3.OperationalError) and "interrupt" in str(exc):
        return DataError(f"{what}: a query ran past {MAX_STATEMENT_S:g} s and was stopped (a hostile or damaged "
                         "file?)", file=str(path))  # fmt: skip
    return None
