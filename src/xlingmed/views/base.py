"""What a task's view is: everything the command line, the report, the verdicts and ``annotate`` show of a task.

A view is an object of a ``View`` subclass, given to the task's registry entry (``TaskSpec.view``) and kept in the
task's own package (``tasks/<name>/view.py``). ``View`` declares every hook the command line, the report, the
verdicts and ``annotate`` call, each with a default, so that a view overrides only what it shows and mypy checks
every call; nothing probes a view with ``getattr``. The default ``tables`` is a generic table of the summary's
per-language numbers (what a plugin task without a view of its own shows).

``summary`` is the task's entry in ``summary.json``; ``run`` is the whole summary (benchmark, model, judge,
languages, dataset). A ``ViewTable`` holds formatted cells; ``where`` says whether the command line, the report or
both show it (the command line shows the per-language result tables, the report its figures and the papers'
layouts). The report, the verdicts and ``annotate`` loop over a run's tasks through ``tasks.run_views`` and name
none of them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar, cast

from pydantic import BaseModel, ValidationError

CLI = "cli"
REPORT = "report"


ANNOTATION_FIELDS = ("id", "item_id", "lang", "question", "reference", "answer", "judge_reasoning", "label")


@dataclass(frozen=True)
class Annotation:
    """A task's judge decisions that people can check (``xlingmed annotate build`` samples them).

    Attributes:
        source: the run file the rows come from (its sha256 goes in the set).
        rows: one decision per row, with ``ANNOTATION_FIELDS``: ``id`` unique in the run, what the judge saw
            (``question``, ``reference``, ``answer``), its reasoning, and ``label``, one of ``labels``; a row that
            checks a part of its question's outcome also has ``weight``, the part's share of it (HealthBench: a
            criterion's points over the conversation's positive points).
        labels: the labels an annotator chooses from, in order.
        label_names: label → how the page shows it.
        label_column: the column of the task's rows a label is (``label``; safety: ``harm``): a human's label put
            there is scored by the task as the judge's was (judge-corrected verdicts).
    """

    source: Path
    rows: list[dict[str, Any]]
    labels: list[str]
    label_names: dict[str, str]
    label_column: str = "label"


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


def encoder_note(settings: Mapping[str, Any] | None, what: str) -> str:
    """One line naming an encoder as it was resolved (model, layer, idf, rescaling) and where each came from."""
    if not settings:
        return ""
    parts = [f"{what}: {settings.get('model')}"]
    if settings.get("layer") is not None:
        parts.append(f"layer {settings['layer']}")
    if "idf" in settings:
        parts.append("idf" if settings["idf"] else "no idf")
    if "rescale_with_baseline" in settings:
        parts.append("rescaled with baseline" if settings["rescale_with_baseline"] else "no rescaling")
    source = settings.get("source") or {}
    where = "; ".join(f"{k}: {v}" for k, v in source.items())
    return ", ".join(parts) + (f" ({where})" if where else "")


def read_table(path: Path, columns: Sequence[str]) -> list[dict[str, str]]:
    """A run's task table as strings (empty cells ``""``).

    Raises:
        DataError: a column the reader needs is missing (named, with the file).
    """
    import pandas as pd

    from xlingmed.cells import restore_frame
    from xlingmed.errors import DataError

    table = restore_frame(pd.read_csv(path, dtype=str, keep_default_na=False))
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise DataError(f"missing column(s) {', '.join(missing)}", file=str(path))
    return [{str(k): v for k, v in r.items()} for r in table.to_dict(orient="records")]


Comparison = list[tuple[str, dict[str, Any]]]
"""A task's rows in a several-model comparison: (row label, language → value)."""


S = TypeVar("S")
"""What a view's hooks are given as the task's summary: its typed ``Summary`` model, or the dict of
``summary.json`` for a view without one."""


class View(Generic[S]):
    """A task's view (the module docstring). Every method has a default; a task's view overrides what it shows.

    Attributes:
        one_temperature: the task's gaps are shown without a temperature (XLingEval judges one answer per
            question for correctness).
        summary_type: the task's typed summary, a pydantic model (``tasks.base.Summary``): ``read`` validates
            the task's entry of ``summary.json`` into it before a hook sees it, so a hook reads attributes that
            mypy checks, not dict keys; ``None``: hooks are given the entry as a dict.
    """

    one_temperature: bool = False
    summary_type: type[BaseModel] | None = None

    def read(self, summary: Mapping[str, Any]) -> S:
        """The task's entry of ``summary.json`` as the hooks take it (see ``summary_type``).

        Raises:
            DataError: the entry lacks what the summary model needs (a run folder of another version), naming
                the field.
        """
        if self.summary_type is None:
            return cast(S, summary)
        try:
            return cast(S, self.summary_type.model_validate(dict(summary)))
        except ValidationError as exc:
            from xlingmed.errors import DataError

            where = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()[:3])
            raise DataError(f"summary.json: a {self.summary_type.__name__} cannot be read from it ({where})") from exc

    def tables(self, summary: S, run: Mapping[str, Any]) -> list[ViewTable]:
        """The task's tables: by default its summary's per-language numbers as they are (one row per language)."""
        data: Mapping[str, Any] = summary.model_dump() if isinstance(summary, BaseModel) else cast(Any, summary)
        per_lang = data.get("languages") or {}
        keys = list(dict.fromkeys(k for c in per_lang.values() if isinstance(c, dict) for k in c
                                  if not isinstance(c[k], dict | list)))  # fmt: skip
        rows = [[lang, *[fmt(c.get(k)) for k in keys]] for lang, c in per_lang.items() if isinstance(c, dict)]
        return [ViewTable(f"{data.get('task', 'task')} ({run.get('model')})", ["lang", *keys], rows)] if rows else []

    def losses(self, summary: S, languages: Sequence[str]) -> list[dict[str, Any]]:
        """What the task could not score, per language: rows ``{"what": …, "cells": [count per language]}``."""
        return []

    def verdict_notes(self, summary: S) -> list[str]:
        """Sentences the verdict paragraph adds (a safety gap)."""
        return []

    def annotation(self, run_dir: Path) -> Annotation | None:
        """The judge's decisions a human can check, one row per decision, for ``xlingmed annotate build``;
        ``None``: nothing to annotate (no judge, or its file is not in ``run_dir``)."""
        return None

    def figures(self, summary: S, run: Mapping[str, Any], table: Any) -> FigureSection | None:
        """The task's own figures under one heading (``table``: its main CSV as a pandas frame, or ``None``),
        drawn with ``views.figures``."""
        return None

    def comparison(self, summary: S, languages: Sequence[str]) -> Comparison:
        """The rows a several-model report compares the task on."""
        return []

    def forest(self, summary: S, gap: Mapping[str, Any]) -> bool:
        """Whether a gap row (``analysis`` gap record) goes in the forest plot."""
        return True

    def notes(self, summary: S) -> list[str]:
        """Settings the report header states (encoders, modes)."""
        return []

    def headline(self, summaries: Sequence[tuple[str, str, S]]) -> dict[str, Any] | None:
        """Numbers over several runs of the task, from (benchmark, model, task summary) of each (XLingEval's
        abstract); ``None``: none."""
        return None
