"""What a task's view is: everything the command line, the report, the verdicts and ``annotate`` show of a task.

A view is a module (``TaskSpec.view``) with:

- ``tables(summary, run) -> list[ViewTable]`` and ``losses(summary, languages)`` (required);
- ``verdict_notes(summary) -> list[str]`` (optional): sentences the verdict paragraph adds (a safety gap);
- ``annotation(run_dir) -> Annotation | None`` (optional): the judge's decisions a human can check, one row per
  decision, for ``xlingmed annotate build``; a task without it has nothing to annotate;
- ``figures(summary, run, table) -> FigureSection | None`` (optional): the task's own figures under one heading
  (``table``: its main CSV as a frame, or ``None``), drawn with ``views.figures``;
- ``comparison(summary, languages) -> list[(label, {lang: cell})]`` (optional): the rows a several-model report
  compares the task on;
- ``forest(summary, gap) -> bool`` (optional): whether a gap row goes in the forest plot (default: all);
- ``notes(summary) -> list[str]`` (optional): settings the report header states (encoders, modes);
- ``headline(summaries) -> dict | None`` (optional): numbers over several runs of the task (XLingEval's
  abstract); ``ONE_TEMPERATURE = True``: its gaps are shown without a temperature.

``summary`` is the task's entry in ``summary.json``; ``run`` is the whole summary (benchmark, model, judge,
languages, dataset). A ``ViewTable`` holds formatted cells; ``where`` says whether the command line, the report or
both show it (the command line shows the per-language result tables, the report its figures and the papers'
layouts). The report, the verdicts and ``annotate`` loop over a run's tasks through the functions below and name
none of them.
"""

from __future__ import annotations

import importlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CLI = "cli"
REPORT = "report"


ANNOTATION_FIELDS = ("id", "item_id", "lang", "question", "reference", "answer", "judge_reasoning", "label")


@dataclass(frozen=True)
class Annotation:
    """A task's judge decisions that people can check (``xlingmed annotate build`` samples them).

    Attributes:
        source: the run file the rows come from (its sha256 goes in the set).
        rows: one decision per row, with ``ANNOTATION_FIELDS``: ``id`` unique in the run, what the judge saw
            (``question``, ``reference``, ``answer``), its reasoning, and ``label``, one of ``labels``.
        labels: the labels an annotator chooses from, in order.
        label_names: label → how the page shows it.
    """

    source: Path
    rows: list[dict[str, Any]]
    labels: list[str]
    label_names: dict[str, str]


@dataclass(frozen=True)
class Figure:
    """One PNG: ``name`` is its file name in ``report/figures/`` (without ``.png``), ``alt`` its description."""

    name: str
    png: bytes
    alt: str


@dataclass(frozen=True)
class FigureSection:
    """A task's figures under one heading of the report, with a note (the settings they were computed with)."""

    title: str
    figures: list[Figure]
    note: str = ""


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


def verdict_notes_of(run: Mapping[str, Any]) -> list[str]:
    """The sentences every task of a run adds to its verdict paragraph (``verdict_notes``), tasks in order."""
    out: list[str] = []
    for task, summary in run.get("tasks", {}).items():
        notes = getattr(_module(task), "verdict_notes", None)
        out += notes(summary) if notes else []
    return out


def annotatable(run_dir: Path, tasks: Sequence[str]) -> dict[str, Annotation]:
    """Task → its judge decisions, for each of ``tasks`` whose view has ``annotation`` and whose file is in
    ``run_dir``, in the order given."""
    out: dict[str, Annotation] = {}
    for task in tasks:
        reader = getattr(_module(task), "annotation", None)
        found = reader(Path(run_dir)) if reader else None
        if found is not None:
            out[task] = found
    return out


def answer_prompts(run_dir: Path, task: str) -> dict[tuple[str, str], str]:
    """(item_id, lang) → the question the model was asked for ``task`` (its answer stage's last user message, read
    from ``samples.jsonl``): what an annotator reads where the task's table holds no question."""
    out: dict[tuple[str, str], str] = {}
    path = Path(run_dir) / "samples.jsonl"
    if not path.is_file():
        return out
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            if rec.get("task") != task or rec.get("stage") != "answer":
                continue
            users = [m["content"] for m in rec.get("prompt") or [] if m.get("role") == "user"]
            if users:
                out.setdefault((str(rec["item_id"]), str(rec["lang"])), str(users[-1]))
    return out


def read_table(path: Path, columns: Sequence[str]) -> list[dict[str, str]]:
    """A run's task table as strings (empty cells ``""``).

    Raises:
        DataError: a column the reader needs is missing (named, with the file).
    """
    import pandas as pd

    from xlingmed.errors import DataError

    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise DataError(f"missing column(s) {', '.join(missing)}", file=str(path))
    return [{str(k): v for k, v in r.items()} for r in table.to_dict(orient="records")]


def view_of(task: str) -> Any:
    """The view module of ``task`` (``views.generic`` for a task without one, or one not registered here)."""
    return _module(task)


def figures_of_tasks(run: Mapping[str, Any], tables: Mapping[str, Any]) -> list[FigureSection]:
    """Every task's own figures (``figures``), tasks in the run's order; ``tables``: task → its frame."""
    out: list[FigureSection] = []
    for task, summary in run.get("tasks", {}).items():
        draw = getattr(_module(task), "figures", None)
        section = draw(summary, run, tables.get(task)) if draw is not None else None
        if section is not None and section.figures:
            out.append(section)
    return out


def comparison_rows(
    task: str, summary: Mapping[str, Any], languages: Sequence[str]
) -> list[tuple[str, dict[str, Any]]]:
    """``task``'s rows in a several-model comparison (its view's ``comparison``; none without one)."""
    compare = getattr(_module(task), "comparison", None)
    return list(compare(summary, languages)) if compare else []


def notes_of(run: Mapping[str, Any]) -> list[str]:
    """The settings every task of a run states in the report header (``notes``), in order, each once."""
    out: list[str] = []
    for task, summary in run.get("tasks", {}).items():
        notes = getattr(_module(task), "notes", None)
        out += [n for n in (notes(summary) if notes else []) if n not in out]
    return out
