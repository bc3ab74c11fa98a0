"""What a task's view is: ``tables(summary, run) -> list[ViewTable]`` and ``losses(summary, languages)``.

``summary`` is the task's entry in ``summary.json``; ``run`` is the whole summary (benchmark, model, judge,
languages, dataset). A ``ViewTable`` holds formatted cells; ``where`` says whether the command line, the report or
both show it (the command line shows the per-language result tables, the report its figures and the papers'
layouts).
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

CLI = "cli"
REPORT = "report"


@dataclass(frozen=True)
class ViewTable:
    """A titled table of formatted cells.

    Attributes:
        title: the table's caption.
        columns: column headers.
        rows: one list of cells (strings) per row.
        note: a line under the table (the report shows it).
        where: ``("cli",)``, ``("report",)`` or both.
        left: how many leading columns are left-aligned (labels); the others are numbers, right-aligned.
    """

    title: str
    columns: list[str]
    rows: list[list[str]] = field(default_factory=list)
    note: str = ""
    where: tuple[str, ...] = (CLI,)
    left: int = 0


def fmt(v: Any, digits: int = 3) -> str:
    return "–" if v is None else (f"{v:.{digits}f}" if isinstance(v, float) else str(v))


def cell(v: Any, digits: int = 4) -> str:
    """A report cell: ``–`` for missing, yes/no, small floats in scientific notation (p-values)."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "–"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return f"{v:.2e}" if (v != 0 and abs(v) < 1e-3) else f"{v:.{digits}f}"
    return str(v)


def from_records(title: str, records: Sequence[Mapping[str, Any]], note: str = "") -> ViewTable:
    """A report table of ``records`` (flat dicts) with their keys as columns; ``temperature`` shown as ``τ``."""
    columns = list(records[0]) if records else []
    rows = [[tau(r.get(c)) if c == "temperature" else cell(r.get(c)) for c in columns] for r in records]
    return ViewTable(title, columns, rows, note, where=(REPORT,))


def tau(t: Any) -> str:
    return "mean over τ" if t is None or (isinstance(t, float) and math.isnan(t)) else f"{float(t):g}"


def _module(task: str) -> Any:
    from xlingmed.tasks.registry import task_specs

    spec = task_specs().get(task)
    path = spec.view if spec is not None and spec.view else "xlingmed.views.generic"
    return importlib.import_module(path)


def tables_of(run: Mapping[str, Any], where: str) -> list[ViewTable]:
    """The tables of every task of a run's summary shown at ``where`` (``cli`` or ``report``), tasks in the
    run's order."""
    out: list[ViewTable] = []
    for task, summary in run.get("tasks", {}).items():
        named = {**summary, "task": summary.get("task", task)}  # the generic view titles its table with it
        out += [t for t in _module(task).tables(named, run) if where in t.where]
    return out


def losses_of(run: Mapping[str, Any], languages: Sequence[str]) -> list[dict[str, Any]]:
    """What each task could not score, per language: rows ``{"what": …, "cells": [count per language]}``."""
    out: list[dict[str, Any]] = []
    for task, summary in run.get("tasks", {}).items():
        out += _module(task).losses(summary, languages)
    return out
