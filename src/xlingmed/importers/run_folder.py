"""A run folder from an ``ImportedLog``: the same files a run writes, through the same writer
(``output.write_run``), scored by the task that takes the log's answers.

A task takes imported answers where its registry entry has ``from_imported`` (``TaskSpec``; multiple choice's is
``tasks/multiple_choice/imported.py``): it turns them into its rows, and the engine scores the rows into Scores and
the task's summary as a run's (``engine/scoring.py``). By default each outcome is the source tool's own per-sample
metric and each reading the source's filter, so every accuracy equals the source's; with ``rescore`` xlingmed reads
the raw replies again and the rows keep both readings. The report, the verdicts and the explorer then work as on
any run; ``summary.json`` and ``manifest.json`` say it was imported.
"""

from __future__ import annotations

import platform
import re
import sys
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from xlingmed import output
from xlingmed.errors import ConfigError
from xlingmed.imported import ImportContext
from xlingmed.importers.base import ImportedAnswer, ImportedLog
from xlingmed.importers.families import family_of

if TYPE_CHECKING:
    from xlingmed.tasks.base import Task


def _group(task: str, lang: str) -> str:
    """The task name without its language: the same for every language's copy (``global_mmlu_full_hi_anatomy``
    → ``global_mmlu_full_anatomy``; ``mymc_en|0`` → ``mymc``)."""
    name = re.sub(r"\|\d+$", "", task)
    family = family_of(name)
    match = re.search(family.task, name) if family else None
    if match is not None:
        return (name[: match.start("lang")] + name[match.end("lang") :]).replace("__", "_").strip("_")
    return re.sub(rf"[_\-.]{re.escape(lang)}(?:_[A-Z][a-z]{{3}})?$", "", name)


def read_both(rows: Sequence[dict[str, Any]], languages: Sequence[str]) -> dict[str, Any]:
    """Per language, how the source tool's reading and xlingmed's compare (``--rescore``): replies each left
    unread, replies both read but differently, replies scored differently (right by one, wrong by the other: what
    moves the accuracy), replies kept with the source's reading (a task xlingmed cannot read), and both
    accuracies. ``xlingmed_accuracy − source_accuracy`` = (``right_by_xlingmed_only`` − ``right_by_source_only``)
    / ``n``."""
    out: dict[str, Any] = {}
    for lang in languages:
        mine = [r for r in rows if r["lang"] == lang and "source_correct" in r]
        ours = [float(bool(r["correct"])) for r in mine]
        theirs = [r["source_correct"] for r in mine]
        out[lang] = {
            "n": len(mine),
            "source_unread": sum(r["source_prediction"] is None for r in mine),
            "xlingmed_unread": sum(r["prediction"] is None for r in mine),
            "read_differently": sum(
                r["prediction"] is not None
                and r["source_prediction"] is not None
                and r["prediction"] != r["source_prediction"]
                for r in mine
            ),
            "right_by_xlingmed_only": sum(o == 1.0 and t == 0.0 for o, t in zip(ours, theirs, strict=True)),
            "right_by_source_only": sum(o == 0.0 and t == 1.0 for o, t in zip(ours, theirs, strict=True)),
            "kept_source_reading": sum(bool(r.get("rescore_skipped")) for r in mine),
            "source_accuracy": _mean(theirs),
            "xlingmed_accuracy": _mean(ours),
        }
    return out


def _apart(log: ImportedLog, pool: bool) -> tuple[list[ImportedAnswer], bool]:
    """The answers, each item id prefixed by its task (``mmlu_anatomy/12``) where the log holds several tasks and
    ``pool`` is false: items of two tasks never pair, so every statistic across languages is on one task's items.
    The flag says whether they were kept apart so."""
    groups = {_group(a.task, a.lang) for a in log.answers}
    if pool or len(groups) < 2:
        seen: dict[tuple[str, str], str] = {}
        for a in log.answers:  # pooled, an id names one question in a language across every task
            if seen.setdefault((a.item_id, a.lang), a.where) != a.where:
                raise ConfigError(f"item {a.item_id!r} appears twice in language {a.lang} ({seen[(a.item_id, a.lang)]} "
                                  f"and {a.where}): pooled tasks need ids unique across them (--pair-by)")  # fmt: skip
        return list(log.answers), False
    return [replace(a, item_id=f"{_group(a.task, a.lang)}/{a.item_id}") for a in log.answers], True


def context_of(log: ImportedLog, rescore: bool, answers: Sequence[ImportedAnswer] | None = None,
               metric: str | None = None) -> ImportContext:  # fmt: skip
    """What a task taking ``answers`` (default: the log's) needs of the log: its tool, temperature (``None``
    where it logged none), ``rescore``, the metric, and each answer's source task without its language where the
    log holds several (``_group``)."""
    answers = log.answers if answers is None else answers
    several = len({_group(a.task, a.lang) for a in log.answers}) > 1
    temperature = log.settings.get("temperature")
    return ImportContext(tool=log.tool, temperature=None if temperature is None else float(temperature),
                         rescore=rescore, categories=[_group(a.task, a.lang) if several else None for a in answers],
                         metric=metric or log.metric, answer_marker=log.settings.get("answer_marker"),
                         reading=str(log.settings.get("reading") or "strict"))  # fmt: skip


def task_for(log: ImportedLog, rescore: bool, answers: Sequence[ImportedAnswer] | None = None,
             metric: str | None = None) -> tuple[Task, list[dict[str, Any]]]:  # fmt: skip
    """The first registered task (registry order) whose ``from_imported`` takes ``answers`` (default: all of the
    log's), and its rows.

    Raises:
        ConfigError: no registered task takes them; or the task's own.
    """
    from xlingmed.tasks.registry import task_specs

    answers = log.answers if answers is None else answers
    context = context_of(log, rescore, answers, metric)
    for spec in task_specs().values():
        taken = spec.from_imported(answers, context) if spec.from_imported is not None else None
        if taken is not None:
            return taken
    raise ConfigError(f"no task of this xlingmed takes the answers of {log.tool} (tasks {', '.join(log.tasks)})")


def tasks_for(
    log: ImportedLog, answers: Sequence[ImportedAnswer], rescore: bool
) -> dict[str, tuple[Task, list[dict[str, Any]]]]:
    """The answers of each metric to the task that takes them (a 0/1 outcome: multiple choice; another metric:
    ``source_metric``), decided over every source task logged under that metric (so one language's task does not go
    elsewhere than another's for having every sample wrong), the rows a task takes joined in one table
    (``category``: the source task): xlingmed task name → (task, rows)."""
    by_metric: dict[str, list[ImportedAnswer]] = {}
    for a in answers:
        by_metric.setdefault(log.metrics.get(a.task, log.metric), []).append(a)
    taken: dict[str, tuple[Task, list[dict[str, Any]]]] = {}
    for metric, mine in by_metric.items():
        task, rows = task_for(log, rescore, mine, metric)
        if task.name in taken:
            taken[task.name][1].extend(rows)
        else:
            taken[task.name] = (task, rows)
    return taken


def _mean(values: Sequence[float | None]) -> float | None:
    kept = [v for v in values if v is not None]
    return sum(kept) / len(kept) if kept else None


def _score_tasks(
    log: ImportedLog, answers: list[ImportedAnswer], rescore: bool
) -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]], list[Any], dict[str, Any]]:
    """Each imported task scored: its summary block (with how the replies were read), its tables, the Scores of
    all, and (``rescore``) the two readings of the replies side by side."""
    from xlingmed.engine.scoring import score_task
    from xlingmed.tasks.registry import get_task

    languages = log.languages
    summaries: dict[str, Any] = {}
    tables: dict[str, list[dict[str, Any]]] = {}
    units: list[Any] = []
    readings: dict[str, Any] = {}
    for name, (task, rows) in tasks_for(log, answers, rescore).items():
        # how the replies were read is counted for every imported task (the source's reading or xlingmed's)
        scored = score_task(task, get_task(task.name), rows, languages, units, count_parsing=True)
        summaries[name] = scored.summary
        tables.update({name: rows, **scored.tables})
        if rescore and rows and "source_correct" in rows[0]:  # a task that reads the replies again
            readings = read_both(rows, languages)
    return summaries, tables, units, readings


def _imported(
    log: ImportedLog, rescore: bool, apart: bool, readings: dict[str, Any], tables: dict[str, list[dict[str, Any]]]
) -> dict[str, Any]:
    """The summary's and manifest's ``imported`` block: where the log came from and how it was read."""
    imported = {"tool": log.tool, "version": log.version, "metric": log.metric, "metrics": log.metrics,
                "tasks": log.tasks, "rescored": rescore, "files": log.files, "settings": log.settings,
                "sample_counts": log.counts, "partial": log.partial, "tasks_apart": apart,
                "model_path": log.model_path}  # fmt: skip
    if rescore:
        imported["readings"] = readings
        # the tasks --rescore could not read: kept with the source's reading, and said (CLI, summary)
        imported["rescore_kept"] = {r["source_task"]: r["rescore_skipped"] for rows in tables.values() for r in rows
                                    if r.get("rescore_skipped")}  # fmt: skip
    return imported


def write_run(log: ImportedLog, out: Path, *, rescore: bool = False, private: bool = False, overwrite: bool = False,
              pool: bool = False, argv: Sequence[str] | None = None) -> dict[str, Any]:  # fmt: skip
    """Write run folder ``out`` from ``log``; return its summary.

    Args:
        overwrite: replace ``out`` where it is an earlier run folder (otherwise an existing ``out`` is refused).
        pool: the log's tasks as one set (their items paired by id across tasks, one row per language); by
            default each task is apart (one row per task and language, statistics on one task's items).

    Raises:
        ConfigError: ``out`` exists (and not ``overwrite``) or is not a run folder to replace; ``rescore`` cannot
            read a sample.
    """
    from xlingmed.engine.run import scored_items

    started = datetime.now(UTC)
    out = Path(out)
    if out.exists() and not overwrite and (not out.is_dir() or any(out.iterdir())):
        raise ConfigError(f"--out {out}: exists; --overwrite replaces it (an earlier run folder only)")
    output.check_run_dir(out)
    languages = log.languages
    answers, apart = _apart(log, pool)
    summaries, tables, units, readings = _score_tasks(log, answers, rescore)
    imported = _imported(log, rescore, apart, readings, tables)
    paired = _paired(answers)
    counts = {lang: len({a.item_id for a in answers if a.lang == lang}) for lang in languages}
    summary: dict[str, Any] = {
        # the tasks without their languages, not the tool: the same items imported from two tools compare
        "benchmark": f"imported:{'+'.join(sorted({_group(a.task, a.lang) for a in log.answers}))}"[:200],
        "model": log.model, "judge": None, "translator": None, "extractor": None, "languages": languages,
        "n_items_per_language": counts, "tasks": summaries,
        # items no rule pairs across languages: unpaired statistics (analysis.run), each task apart (tasks_apart)
        "dataset": {**({} if paired or len(languages) < 2 else {"parallel": False}),
                    **({"tasks_apart": True} if apart else {})},
        "parse_limited": {n: b["parsing"]["parse_limited"] for n, b in summaries.items()
                          if b["parsing"]["parse_limited"]},
        "parse_warnings": {n: b["parsing"]["warnings"] for n, b in summaries.items() if b["parsing"]["warnings"]},
        "backend_calls": 0, "cache_hits": 0, "failed_requests": 0, "failures": {}, "cost_usd": None, "prices": {},
        "wall_s": 0.0, "imported": imported,
    }  # fmt: skip
    summary.update(scored_items(units, languages))
    from xlingmed import __version__

    manifest = {"xlingmed_version": __version__, "imported": imported, "argv": list(argv or sys.argv),
                "python": sys.version.split()[0], "platform": platform.platform(), "dataset": summary["dataset"],
                "started_at": started.isoformat(), "finished_at": datetime.now(UTC).isoformat()}  # fmt: skip
    names = {r["source_task"]: n for n, rows in tables.items() if n in summaries for r in rows}
    output.write_run(
        out, samples=(_log_line(names[a.task], log.model, a) for a in answers),
        tables=tables, scores=units, summary=summary, manifest=manifest, private=private,
    )  # fmt: skip
    return summary


def _paired(answers: Sequence[ImportedAnswer]) -> bool:
    """Whether any item is answered in two languages (a pairing rule or field placed it)."""
    langs: dict[str, set[str]] = {}
    for a in answers:
        langs.setdefault(a.item_id, set()).add(a.lang)
    return any(len(v) > 1 for v in langs.values())


def _log_line(task: str, model: str, a: ImportedAnswer) -> dict[str, Any]:
    """A ``samples.jsonl`` line as a run writes it (the prompt, the reply), with where the source logged it."""
    return {"item_id": a.item_id, "lang": a.lang, "task": task, "stage": "answer", "model": model,
            "prompt": [] if a.prompt is None else [{"role": "user", "content": a.prompt}], "response": a.reply,
            "parsed": a.source_answer, "parse_method": a.source_method, "error": None, "cached": False,
            "source_task": a.task, "source_line": a.where}  # fmt: skip
