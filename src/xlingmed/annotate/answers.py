"""The annotators' answers: SQLite in WAL mode, one row per (annotator, item), committed the moment it is given.

An answer is ``agree`` (with the judge's reasoning and label) or ``disagree`` with the label the annotator gives
and a short reason (XLingEval App. C, Fig. A1). Changing an answer replaces it; nothing else is ever deleted.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xlingmed.errors import ConfigError, DataError
from xlingmed.filemodes import private_file
from xlingmed.sqlite_guard import check_tables, guard, interrupted, open_foreign, refuse_link

_SCHEMA = """
CREATE TABLE IF NOT EXISTS answers (
    annotator TEXT NOT NULL,
    item      TEXT NOT NULL,
    verdict   TEXT NOT NULL CHECK (verdict IN ('agree', 'disagree')),
    label     TEXT NOT NULL,
    reason    TEXT NOT NULL DEFAULT '',
    updated   REAL NOT NULL,
    PRIMARY KEY (annotator, item)
)
"""
MAX_REASON_CHARS = 2000


@dataclass(frozen=True)
class Answer:
    """One annotator's answer on one item: ``label`` is the judge's when they agree, theirs when not."""

    annotator: str
    item: str
    verdict: str
    label: str
    reason: str = ""


class SqliteStore:
    """A store of a person's work in one SQLite file: WAL mode, every commit fsynced (``synchronous=FULL``), one
    connection per call (safe from several threads). Subclasses give the table's ``SCHEMA``, ``TABLE`` and
    ``COLUMNS``.

    The file may come from someone else (a shared annotation set): it is never opened through a link, its table
    must be a real table with the expected columns, with no trigger beside it, and every statement runs under a
    deadline (``sqlite_guard``); ``read`` opens it read-only, for commands that only read it."""

    SCHEMA = ""
    TABLE = ""
    COLUMNS: tuple[str, ...] = ()

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        refuse_link(self.path, f"{self.TABLE} database {self.path}")
        private_file(self.path)  # the annotators' work beside the replies they judged: owner-only (filemodes.py)
        with closing(self._connect()) as db, db:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(self.SCHEMA)
            check_tables(db, self.path, f"{self.TABLE} database {self.path}", {self.TABLE: self.COLUMNS})

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=30.0)
        guard(db)
        db.execute("PRAGMA synchronous=FULL")  # an answer is a person's work: fsync every commit
        return db

    @classmethod
    def read(cls, path: Path, sql: str) -> list[tuple[Any, ...]]:
        """The rows ``sql`` selects from the file at ``path``, opened read-only; ``[]`` where there is no file.

        Raises:
            DataError: a link, not a database of this kind (a view in the table's place, a trigger, a missing
                column), or a query stopped by its deadline.
        """
        path = Path(path)
        if not path.exists() and not path.is_symlink():
            return []
        what = f"{cls.TABLE} database {path}"
        db, _ = open_foreign(path, what)
        try:
            check_tables(db, path, what, {cls.TABLE: cls.COLUMNS})
            return db.execute(sql).fetchall()
        except sqlite3.DatabaseError as exc:
            raise interrupted(exc, path, what) or DataError(f"{what}: {exc}", file=str(path)) from None
        finally:
            db.close()


class AnswerStore(SqliteStore):
    """``answers.sqlite`` of an annotation set. Safe to open from several threads (one connection each call)."""

    SCHEMA = _SCHEMA
    TABLE = "answers"
    COLUMNS = ("annotator", "item", "verdict", "label", "reason")

    def save(self, answer: Answer, *, labels: list[str], judge_label: str) -> None:
        """Store ``answer`` (replacing that annotator's earlier one on the item), committed before returning.

        Raises:
            ConfigError: an unknown verdict or label, a disagreement without a label different from the judge's,
                or a reason longer than ``MAX_REASON_CHARS``.
        """
        self.save_many([(answer, judge_label)], labels=labels)

    def save_many(self, answers: Sequence[tuple[Answer, str]], *, labels: list[str]) -> None:
        """Store every (answer, the judge's label of its item) as ``save`` stores one, in one transaction: all of
        them or, where one fails its checks, none (``annotate import``).

        Raises:
            ConfigError: as ``save``, for the first answer that fails (nothing is stored).
        """
        rows = [_checked(answer, labels, judge_label) for answer, judge_label in answers]
        with closing(self._connect()) as db, db:  # committed (and fsynced) when the block ends
            db.executemany(
                "INSERT OR REPLACE INTO answers (annotator, item, verdict, label, reason, updated) "
                "VALUES (?,?,?,?,?,?)",
                rows,
            )

    def of(self, annotator: str) -> dict[str, Answer]:
        """One annotator's answers, by item id."""
        with closing(self._connect()) as db:
            rows = db.execute(
                "SELECT annotator, item, verdict, label, reason FROM answers WHERE annotator = ?", (annotator,)
            ).fetchall()
        return {r[1]: Answer(*r) for r in rows}

    def all(self) -> list[Answer]:
        with closing(self._connect()) as db:
            rows = db.execute(_ALL).fetchall()
        return [Answer(*r) for r in rows]

    @classmethod
    def read_all(cls, path: Path) -> list[Answer]:
        """Every answer of the ``answers.sqlite`` at ``path``, read-only (``SqliteStore.read``); texts only.

        Raises:
            DataError: see ``SqliteStore.read``; a row whose fields are not texts.
        """
        rows = cls.read(path, _ALL)
        if any(not all(isinstance(v, str) for v in r) for r in rows):
            raise DataError("a row of answers holds a field that is not text", file=str(path))
        return [Answer(*r) for r in rows]


_ALL = "SELECT annotator, item, verdict, label, reason FROM answers ORDER BY item"


def _checked(answer: Answer, labels: list[str], judge_label: str) -> tuple[str, str, str, str, str, float]:
    """The row ``AnswerStore.save`` writes for ``answer``: the judge's label where the annotator agrees.

    Raises:
        ConfigError: an unknown verdict or label, a disagreement with the judge's own label, a long reason.
    """
    if answer.verdict not in ("agree", "disagree"):
        raise ConfigError(f"verdict must be agree or disagree, got {answer.verdict!r}")
    label = judge_label if answer.verdict == "agree" else answer.label
    if label not in labels:
        raise ConfigError(f"unknown label {label!r}; labels: {', '.join(labels)}")
    if answer.verdict == "disagree" and label == judge_label:
        raise ConfigError("a disagreement needs a label other than the judge's")
    if len(answer.reason) > MAX_REASON_CHARS:
        raise ConfigError(f"reason longer than {MAX_REASON_CHARS} characters")
    return answer.annotator, answer.item, answer.verdict, label, answer.reason.strip(), time.time()
