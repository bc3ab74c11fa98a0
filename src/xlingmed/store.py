"""Completion cache: SQLite in WAL mode, one row per completion (answers and permanent failures).

Each completion is committed as soon as it arrives (before the event loop turns again), so a run killed at any
point (Ctrl-C, SIGKILL) loses at most the requests in flight, and a re-run answers everything stored from here
with no backend call. Transient failures are never stored (a re-run retries them); permanent ones
(``Completion.permanent``) are.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import time
from pathlib import Path

from xlingmed.types import Completion, GenerateRequest

CACHE_ENV = "XLINGMED_CACHE"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS completions (
    key        TEXT PRIMARY KEY,
    model      TEXT NOT NULL,
    request    TEXT NOT NULL,
    completion TEXT NOT NULL,
    created    REAL NOT NULL
)
"""


def default_cache_path() -> Path:
    """``$XLINGMED_CACHE`` if set, else ``<user cache dir>/xlingmed/completions.sqlite``."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("xlingmed")) / "completions.sqlite"


class CompletionCache:
    """Maps ``GenerateRequest.cache_key(model_id)`` to a stored ``Completion``.

    Used from one thread (the event loop's). ``put`` inserts at once and commits before the event loop turns
    again (group commit: the completions that arrive in one turn share one transaction, which costs a fraction of
    one commit each); outside an event loop it commits immediately. A kill can only lose completions received in
    the current turn, which are as good as in flight: the resumed run asks for them again.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, timeout=30.0)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(_SCHEMA)
        self._db.commit()
        self._commit_scheduled = False

    @classmethod
    def open_readonly(cls, path: str | os.PathLike[str]) -> CompletionCache | None:
        """The cache at ``path`` for lookups only (dry runs); ``None`` when there is none yet. Creates nothing."""
        if not Path(path).is_file():
            return None
        self = cls.__new__(cls)
        self.path = Path(path)
        self._db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, timeout=30.0)
        try:
            self._db.execute("SELECT 1 FROM completions LIMIT 1")
        except sqlite3.DatabaseError:
            self._db.close()
            return None
        return self

    def get(self, key: str) -> Completion | None:
        row = self._db.execute("SELECT completion FROM completions WHERE key = ?", (key,)).fetchone()
        return None if row is None else Completion.from_json(json.loads(row[0]))

    def put(self, key: str, model_id: str, request: GenerateRequest, completion: Completion) -> None:
        if not completion.ok and not completion.permanent:
            return
        self._db.execute(
            "INSERT OR REPLACE INTO completions (key, model, request, completion, created) VALUES (?,?,?,?,?)",
            (
                key,
                model_id,
                json.dumps(request.to_json(), ensure_ascii=False),
                json.dumps(completion.to_json(), ensure_ascii=False),
                time.time(),
            ),
        )
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.commit()
            return
        if not self._commit_scheduled:
            self._commit_scheduled = True
            loop.call_soon(self.commit)

    def commit(self) -> None:
        """Commit what ``put`` inserted (called by the event loop, by ``close`` and by readers)."""
        self._commit_scheduled = False
        if self._db.in_transaction:
            self._db.commit()

    def __len__(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM completions").fetchone()[0])

    def close(self) -> None:
        self.commit()
        self._db.close()
