"""The report's sections that are not figures, built from loaded runs: what each task could not score, how
replies were read, each task's own tables, XLingEval's headline numbers, the models side by side and the
judge–human agreement (XLingEval Table A7)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from xlingmed.report.load import RunData
from xlingmed.report.view_records import AgreementView, ComparisonRow, ComparisonView, LossRow, ParsingView, TableView
from xlingmed.tasks.run_views import comparison_rows, headline_of, losses_of, tables_of
from xlingmed.views.base import REPORT, cell, tau


def counts(run: RunData) -> list[LossRow]:
    """What each task could not score, per language (each task's view says what it counts)."""
    return [LossRow(what=str(r["what"]), cells=list(r["cells"])) for r in losses_of(run.summary, run.languages)]


def parsing(run: RunData) -> ParsingView:
    """How replies were read per task × method × language, and the >5 % warnings (``parsing.methods``).

    Runs written before xlingmed 0.2 have no ``parsing`` block: it is counted from the Scores of their task
    CSVs, as a run counts it."""
    from xlingmed.parsing.methods import kind_of, parse_counts, reply_methods
    from xlingmed.tasks.registry import task_specs

    langs = run.languages
    rows: list[LossRow] = []
    warnings: list[str] = []
    for name, task in run.summary.get("tasks", {}).items():
        block = task.get("parsing")
        spec = task_specs().get(name)
        if block is None and name in run.tables and spec is not None and spec.parses and spec.scores is not None:
            records = [{str(k): v for k, v in r.items()} for r in run.tables[name].to_dict("records")]
            block = parse_counts(reply_methods(spec.scores(records)), langs)
        if block is None:
            continue
        methods = sorted({m for lg in langs for m in block["methods"].get(lg, {})}, key=lambda m: (kind_of(m), m))
        for m in methods:
            cells = [block["methods"].get(lg, {}).get(m, 0) for lg in langs]
            rows.append(LossRow(what=f"{name}: {m} ({kind_of(m)})", cells=cells))
        rows.append(
            LossRow(
                what=f"{name}: share not read by a direct rule",
                cells=[
                    "–" if block["not_read_share"].get(lg) is None else f"{100 * block['not_read_share'][lg]:.1f}%"
                    for lg in langs
                ],
            )
        )
        warnings += [f"{name}: {w}" for w in block["warnings"]]
    return ParsingView(rows=rows, warnings=warnings)


def table(title: str, rows: Sequence[Mapping[str, Any]], note: str = "") -> TableView:
    """A table as the template shows it: its columns (the first row's) and each row's cells, formatted (the
    ``temperature`` column as τ); ``rows``: records (``analysis.records``) or plain rows."""
    columns = [str(c) for c in rows[0]] if rows else []
    return TableView(title=title, note=note, columns=columns,
                     rows=[[cell(r.get(c)) if c != "temperature" else tau(r.get(c)) for c in columns] for r in rows])


def headline(runs: list[RunData]) -> dict[str, Any] | None:
    """Numbers over several runs that a task's view computes (``headline``: XLingEval's abstract numbers over the
    correctness runs); the first task with one."""
    from xlingmed.tasks.registry import task_specs

    for task in task_specs():
        given = [(str(r.summary.get("benchmark")), str(r.summary.get("model")), r.summary["tasks"][task])
                 for r in runs if task in r.summary.get("tasks", {})]  # fmt: skip
        found = headline_of(task, given) if given else None
        if found is not None:
            return dict(found)
    return None


def comparison(runs: list[RunData]) -> ComparisonView | None:
    """Each task's comparison rows (its view's ``comparison``), one per run."""
    if len(runs) < 2:
        return None
    langs = list(dict.fromkeys(lg for r in runs for lg in r.languages))
    rows = []
    for r in runs:
        for task, summary in r.summary.get("tasks", {}).items():
            for metric, values in comparison_rows(task, summary, langs):
                cells = [cell(values[lg]) if values.get(lg) is not None else "–" for lg in langs]
                rows.append(ComparisonRow(metric=metric, run=r.label, cells=cells))
    return ComparisonView(languages=langs, rows=rows)


def agreement(sets: Sequence[Path]) -> AgreementView | None:
    """Judge–human agreement rows, one batch (annotation set) after another."""
    if not sets:
        return None
    from xlingmed.annotate import AnswerStore, agreement_table
    from xlingmed.annotate.sample import load_judge_set

    raw: list[Mapping[str, object]] = []
    for path in sets:
        aset = load_judge_set(Path(path))
        answers = AnswerStore.read_all(aset.path / "answers.sqlite")
        for row in agreement_table(aset, answers):
            raw.append({"batch": aset.path.name, "task": aset.settings.get("task"), **row})
    note = (
        "Per batch (annotation set) and language: share of items whose majority human label equals the judge's "
        "(ties excluded, counted), share where every annotator agreed with the judge, and the humans' agreement "
        "beyond chance (Cohen's κ for two annotators, Fleiss' κ for more; – when undefined)."
    )
    return AgreementView(raw=raw, table=table("Judge–human agreement (XLingEval Table A7)", raw, note))


def task_tables(run: RunData) -> list[TableView]:
    """The tables each task's view gives the report (MedArabiQ's paper layouts: Table 1, Table 2, Table J1)."""
    return [TableView(title=t.title, note=t.note, columns=list(t.columns), rows=[list(r) for r in t.rows])
            for t in tables_of(run.summary, REPORT)]  # fmt: skip


def reply_texts(run: RunData) -> pd.DataFrame:
    """The free-text replies of a run (task, item_id, lang, temperature, text), for tasks whose outcome a judge or
    a reference metric gives (correctness answers, open answers, rubric answers); not choices or yes/no."""
    from xlingmed.tasks.registry import task_specs

    frames = []
    for name, spec in task_specs().items():
        table = run.tables.get(name)
        if table is None or (spec.parses and not spec.judged):
            continue
        column = next((c for c in ("response", "answer") if c in table.columns), None)
        if column is None:
            continue
        temps = table["temperature"] if "temperature" in table.columns else pd.Series([None] * len(table))
        frames.append(
            pd.DataFrame(
                {"task": name, "item_id": table["item_id"].astype(str), "lang": table["lang"].astype(str),
                 "temperature": pd.to_numeric(temps, errors="coerce").to_numpy(), "text": table[column].to_numpy()}
            )
        )  # fmt: skip
    return (
        pd.concat(frames, ignore_index=True)
        if frames
        else pd.DataFrame(columns=["task", "item_id", "lang", "temperature", "text"])
    )
