"""Every task's view over a run: the command line, the report, the verdicts and ``annotate`` call these and name
no task. Each task's ``View`` comes from its registry entry (``TaskSpec.view``); a task without one, or one not
registered here (a run folder of a plugin that is not installed), is shown by the default ``View``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from xlingmed.tasks.registry import task_specs
from xlingmed.views.base import Annotation, Comparison, FigureSection, View, ViewTable

_DEFAULT: View[Any] = View()


def view_of(task: str) -> View[Any]:
    """The view of ``task`` (the default ``View`` for a task without one, or one not registered here)."""
    spec = task_specs().get(task)
    return spec.view if spec is not None and spec.view is not None else _DEFAULT


def tables_of(run: Mapping[str, Any], where: str) -> list[ViewTable]:
    """The tables of every task of a run's summary shown at ``where`` (``cli`` or ``report``), tasks in the
    run's order."""
    out: list[ViewTable] = []
    for task, summary in run.get("tasks", {}).items():
        named = {**summary, "task": summary.get("task", task)}  # the default view titles its table with it
        view = view_of(task)
        out += [t for t in view.tables(view.read(named), run) if where in t.where]
    return out


def losses_of(run: Mapping[str, Any], languages: Sequence[str]) -> list[dict[str, Any]]:
    """What each task could not score, per language: rows ``{"what": …, "cells": [count per language]}``."""
    out: list[dict[str, Any]] = []
    for task, summary in run.get("tasks", {}).items():
        view = view_of(task)
        out += view.losses(view.read(summary), languages)
    return out


def verdict_notes_of(run: Mapping[str, Any]) -> list[str]:
    """The sentences every task of a run adds to its verdict paragraph, tasks in order."""
    out: list[str] = []
    for task, summary in run.get("tasks", {}).items():
        view = view_of(task)
        out += view.verdict_notes(view.read(summary))
    return out


def annotatable(run_dir: Path, tasks: Sequence[str]) -> dict[str, Annotation]:
    """Task → its judge decisions, for each of ``tasks`` whose view has some in ``run_dir``, in the order given."""
    out: dict[str, Annotation] = {}
    for task in tasks:
        found = view_of(task).annotation(Path(run_dir))
        if found is not None:
            out[task] = found
    return out


def figures_of_tasks(run: Mapping[str, Any], tables: Mapping[str, Any]) -> list[FigureSection]:
    """Every task's own figures, tasks in the run's order; ``tables``: task → its frame."""
    out: list[FigureSection] = []
    for task, summary in run.get("tasks", {}).items():
        view = view_of(task)
        section = view.figures(view.read(summary), run, tables.get(task))
        if section is not None and section.figures:
            out.append(section)
    return out


def comparison_rows(task: str, summary: Mapping[str, Any], languages: Sequence[str]) -> Comparison:
    """``task``'s rows in a several-model comparison (none for a view without them)."""
    view = view_of(task)
    return list(view.comparison(view.read(summary), languages))


def notes_of(run: Mapping[str, Any]) -> list[str]:
    """The settings every task of a run states in the report header, in order, each once."""
    out: list[str] = []
    for task, summary in run.get("tasks", {}).items():
        view = view_of(task)
        out += [n for n in view.notes(view.read(summary)) if n not in out]
    return out


def forest_keeps(task: str, summary: Mapping[str, Any], gap: Mapping[str, Any]) -> bool:
    """Whether ``task``'s view puts ``gap`` (an ``analysis`` gap record) in the forest plot."""
    view = view_of(task)
    return view.forest(view.read(summary), gap)


def headline_of(task: str, summaries: Sequence[tuple[str, str, Mapping[str, Any]]]) -> dict[str, Any] | None:
    """``task``'s numbers over several runs, from (benchmark, model, its summary) of each (``View.headline``)."""
    view = view_of(task)
    return view.headline([(bench, model, view.read(s)) for bench, model, s in summaries])
