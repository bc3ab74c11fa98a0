"""Typed rows of the disparity statistics (issue 63): what ``analysis.run.analyse_run`` returns, the report shows
and ``stats/*.csv`` holds, one frozen record per row.

A ``Record`` is a frozen dataclass whose CSV row (``row()``) is its fields in order: a field marked ``SPREAD``
(a record or a mapping, or ``None``) gives its own columns in its place, so a row keyed by outcome reads
``criterion, metric, temperature`` first and a test's counts per language (``excluded_missing_in_<lang>``, whose
names depend on the run) stay columns. Like ``verdict_record.Verdict``, a record is also a read-only mapping of
its row (``gap["ci_low"]``), so that a reader written for the rows reads a record unchanged; new code reads the
attributes.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from typing import Any, TypeVar

SPREAD = {"spread": True}
"""A field's metadata: its value's columns (a record's or a mapping's) in its place, none when it is ``None``
(``{"spread": True, "prefix": "judge_only_"}``: each column's name prefixed). ``{"column": "τ"}``: a field whose
column has another name than the field."""

R = TypeVar("R", bound="Record")


@dataclass(frozen=True, eq=False)
class Record(Mapping[str, Any]):
    """A frozen table row; ``row()`` is its CSV row (module doc)."""

    def absent(self) -> frozenset[str]:
        """Fields that are no column of this row (a variant of the record that lacks them); none by default."""
        return frozenset()

    @cached_property
    def _row(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        absent = self.absent()
        for f in fields(self):
            if f.name in absent:
                continue
            value = getattr(self, f.name)
            if f.metadata.get("spread"):
                if value is not None:
                    prefix = f.metadata.get("prefix", "")
                    spread = value.row() if isinstance(value, Record) else value
                    out.update({f"{prefix}{k}": v for k, v in spread.items()})
            else:
                out[f.metadata.get("column", f.name)] = value
        return out

    def row(self) -> dict[str, Any]:
        """The CSV row: the fields in order (``SPREAD`` ones as their own columns); ``None`` is an empty cell."""
        return dict(self._row)

    def __getitem__(self, key: str) -> Any:
        return self._row[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._row)

    def __len__(self) -> int:
        return len(self._row)


@dataclass(frozen=True, eq=False)
class StatKey(Record):
    """Which values a statistic is over: the task (``criterion``), its metric (``metric[condition]`` for a prompt
    condition) and the temperature (``None``: the mean over temperatures, or none swept)."""

    criterion: str
    metric: str
    temperature: float | None


@dataclass(frozen=True)
class Tables:
    """Named tables of records (a subclass's fields, each a list of records): ``tables()`` names them as their
    ``stats/*.csv`` files, in the order of the fields; ``tables_["name"]`` reads one."""

    def tables(self) -> dict[str, Sequence[Record]]:
        """Table name → its records, in the order of the fields."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def __getitem__(self, name: str) -> Sequence[Record]:
        return self.tables()[name]


def without_nan(record: R) -> R:
    """``record`` with every NaN float field as ``None`` (a degenerate input, as the tables report it)."""
    changed = {
        f.name: None
        for f in fields(record)
        if isinstance(getattr(record, f.name), float) and math.isnan(getattr(record, f.name))
    }
    return replace(record, **changed) if changed else record


def rows_of(records: Sequence[Record]) -> list[dict[str, Any]]:
    """The CSV rows of ``records`` (``output.write_csv``, ``report.sections.table``)."""
    return [r.row() for r in records]


__all__ = ["SPREAD", "Record", "StatKey", "Tables", "field", "rows_of", "without_nan"]
