"""The annotators' ratings of machine translations (XLingEval App. A, Table A2): SQLite in WAL mode, one row per
(annotator, item), committed (and fsynced) the moment it is given.

A rating is two scores on the paper's five-point Likert scale (1 = strongly disagree … 5 = strongly agree), both
required: ``fluency`` ("Is the [TARGET LANGUAGE] version a good translation of the English text?") and ``meaning``
("Does the [TARGET LANGUAGE] version faithfully convey the same meaning as the English text?"). Changing a rating
replaces it; nothing else is ever deleted.
"""

from __future__ import annotations

import time
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xlingmed.annotate.answers import SqliteStore
from xlingmed.errors import ConfigError, DataError

SCALE = (1, 2, 3, 4, 5)
SCALE_NAMES = {1: "strongly disagree", 2: "disagree", 3: "neither agree nor disagree", 4: "agree", 5: "strongly agree"}
DIMENSIONS = ("fluency", "meaning")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS ratings (
    annotator TEXT NOT NULL,
    item      TEXT NOT NULL,
    fluency   INTEGER NOT NULL CHECK (fluency BETWEEN 1 AND 5),
    meaning   INTEGER NOT NULL CHECK (meaning BETWEEN 1 AND 5),
    updated   REAL NOT NULL,
    PRIMARY KEY (annotator, item)
)
"""


@dataclass(frozen=True)
class Rating:
    """One annotator's rating of one translation item: ``fluency`` and ``meaning``, each an integer 1–5."""

    annotator: str
    item: str
    fluency: int
    meaning: int


def check_score(value: Any, dimension: str) -> int:
    """``value`` as a score of the 1–5 scale: an ``int`` 1–5 or its decimal text (``"4"``, as a form sends it).

    Raises:
        ConfigError: anything else (missing, a bool, a float, out of range), naming ``dimension``.
    """
    if isinstance(value, str) and value.strip() in {str(s) for s in SCALE}:
        return int(value.strip())
    if isinstance(value, int) and not isinstance(value, bool) and value in SCALE:
        return value
    if value is None or value == "":
        raise ConfigError(f"rate {dimension}: choose 1 (strongly disagree) to 5 (strongly agree)")
    raise ConfigError(f"{dimension} must be an integer from 1 to 5, got {value!r}")


class RatingStore(SqliteStore):
    """``ratings.sqlite`` of a translation-rating set. Safe to open from several threads (one connection each
    call)."""

    SCHEMA = _SCHEMA
    TABLE = "ratings"
    COLUMNS = ("annotator", "item", "fluency", "meaning")

    def save(self, rating: Rating) -> Rating:
        """Store ``rating`` (replacing that annotator's earlier one on the item), committed before returning.

        Returns:
            the rating as stored (scores as ``int``).

        Raises:
            ConfigError: a score that is not an integer 1–5 (both are required), or an empty annotator / item.
        """
        if not rating.annotator or not rating.item:
            raise ConfigError("a rating needs an annotator and an item")
        stored = Rating(
            rating.annotator,
            rating.item,
            check_score(rating.fluency, "fluency"),
            check_score(rating.meaning, "meaning"),
        )
        with closing(self._connect()) as db, db:  # committed (and fsynced) when the block ends
            db.execute(
                "INSERT OR REPLACE INTO ratings (annotator, item, fluency, meaning, updated) VALUES (?,?,?,?,?)",
                (stored.annotator, stored.item, stored.fluency, stored.meaning, time.time()),
            )
        return stored

    def of(self, annotator: str) -> dict[str, Rating]:
        """One annotator's ratings, by item id."""
        with closing(self._connect()) as db:
            rows = db.execute(
                "SELECT annotator, item, fluency, meaning FROM ratings WHERE annotator = ?", (annotator,)
            ).fetchall()
        return {r[1]: Rating(*r) for r in rows}

    def all(self) -> list[Rating]:
        """Every rating, by item then annotator."""
        with closing(self._connect()) as db:
            rows = db.execute(_ALL).fetchall()
        return [Rating(*r) for r in rows]

    @classmethod
    def read_all(cls, path: Path) -> list[Rating]:
        """Every rating of the ``ratings.sqlite`` at ``path``, read-only (``SqliteStore.read``).

        Raises:
            DataError: see ``SqliteStore.read``; a row whose annotator or item is not text, or a score not 1–5.
        """
        rows = cls.read(path, _ALL)
        for r in rows:
            if not (isinstance(r[0], str) and isinstance(r[1], str) and all(v in (1, 2, 3, 4, 5) for v in r[2:])):
                raise DataError("a rating row is not annotator, item and two scores from 1 to 5", file=str(path))
        return [Rating(*r) for r in rows]


_ALL = "SELECT annotator, item, fluency, meaning FROM ratings ORDER BY item, annotator"
