"""A run folder from an ``ImportedLog``: the same files a run writes, through the same writer
(``output.write_run``), scored by the task that takes the log's answers.

A task takes imported answers where its registry entry has ``from_imported`` (``TaskSpec``; multiple choice's is
``tasks/multiple_choice/imported.py``): it turns them into its rows, and its ``score`` turns the rows into Scores
and its summary, as in a run. By default each outcome is the source tool's own per-sample metric and each reading
the source's filter, so every accuracy equals the source's; with ``rescore`` xlingmed reads the raw replies again
and the rows keep both readings. The report, the verdicts and the explorer then work as on any run;
``summary.json`` and ``manifest.json`` say it was imported.
"""

from __future__ import annotations

import platform
import re
import sys
from collections.abc import Sequence
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
    """Per language, how the source tool's reading and xlingmed's compare: replies each left unread, and replies
    both read but differently (``--rescore``)."""
    out: dict[str, Any] = {}
    for lang in languages:
        mine = [r for r in rows if r["lang"] == lang]
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
            "source_accuracy": _mean([r["source_correct"] for r in mine]),
            "xlingmed_accuracy": _mean([float(bool(r["correct"])) for r in mine]),
        }
    return out


def context_of(log: ImportedLog, rescore: bool) -> ImportContext:
    """What a task taking ``log``'s answers needs of the log: its tool, temperature, ``rescore``, and each answer's
    source task without its language where the log holds several (``_group``)."""
    groups = [_group(a.task, a.lang) for a in log.answers]
    several = len(set(groups)) > 1
    return ImportContext(tool=log.tool, temperature=float(log.settings.get("temperature") or 0.0), rescore=rescore,
                         categories=[g if several else None for g in groups], metric=log.metric)  # fmt: skip


def task_for(log: ImportedLog, rescore: bool) -> tuple[Task, list[dict[str, Any]]]:
    """The first registered task (registry order) whose ``from_imported`` takes ``log``'s answers, and its rows.

    Raises:
        ConfigError: no registered task takes them; or the task's own (``rescore`` of a reply it cannot read).
    """
    from xlingmed.tasks.registry import task_specs

    context = context_of(log, rescore)
    for spec in task_specs().values():
        taken = spec.from_imported(log.answers, context) if spec.from_imported is not None else None
        if taken is not None:
            return taken
    raise ConfigError(f"no task of this xlingmed takes the answers of {log.tool} (tasks {', '.join(log.tasks)})")


def _mean(values: Sequence[float | None]) -> float | None:
    kept = [v for v in values if v is not None]
    return sum(kept) / len(kept) if kept else None


def write_run(log: ImportedLog, out: Path, *, rescore: bool = False, private: bool = False,
              argv: Sequence[str] | None = None) -> dict[str, Any]:  # fmt: skip
    """Write run folder ``out`` from ``log``; return its summary.

    Raises:
        ConfigError: ``out`` is not a run folder to replace, or ``rescore`` cannot read a sample.
    """
    from xlingmed.engine.run import scored_items
    from xlingmed.parsing.methods import parse_counts, reply_methods
    from xlingmed.tasks.base import summary_json

    started = datetime.now(UTC)
    out = Path(out)
    output.check_run_dir(out)
    languages = log.languages
    task, rows = task_for(log, rescore)
    name = task.name
    result = task.score(rows, languages)
    units = list(result.units or [])
    task_summary = summary_json(result.summary)
    task_summary["parsing"] = parse_counts(reply_methods(units), languages)
    imported = {"tool": log.tool, "version": log.version, "metric": log.metric, "tasks": log.tasks,
                "rescored": rescore, "files": log.files, "settings": log.settings}  # fmt: skip
    if rescore:
        imported["readings"] = read_both(rows, languages)
    counts = {lang: len({r["item_id"] for r in rows if r["lang"] == lang}) for lang in languages}
    summary: dict[str, Any] = {
        # the tasks without their languages, not the tool: the same items imported from two tools compare
        "benchmark": f"imported:{'+'.join(sorted({_group(a.task, a.lang) for a in log.answers}))}"[:200],
        "model": log.model, "judge": None, "translator": None, "extractor": None, "languages": languages,
        "n_items_per_language": counts, "dataset": {}, "tasks": {name: task_summary},
        "parse_limited": {name: task_summary["parsing"]["parse_limited"]}
        if task_summary["parsing"]["parse_limited"] else {},
        "parse_warnings": {name: task_summary["parsing"]["warnings"]} if task_summary["parsing"]["warnings"] else {},
        "backend_calls": 0, "cache_hits": 0, "failed_requests": 0, "failures": {}, "cost_usd": None, "prices": {},
        "wall_s": 0.0, "imported": imported,
    }  # fmt: skip
    summary.update(scored_items(units, languages))
    from xlingmed import __version__

    manifest = {"xlingmed_version": __version__, "imported": imported, "argv": list(argv or sys.argv),
                "python": sys.version.split()[0], "platform": platform.platform(), "dataset": {},
                "started_at": started.isoformat(), "finished_at": datetime.now(UTC).isoformat()}  # fmt: skip
    output.write_run(
        out, samples=(_log_line(name, log.model, a) for a in log.answers), tables={name: rows, **result.tables},
        scores=units, summary=summary, manifest=manifest, private=private,
    )  # fmt: skip
    return summary


def _log_line(task: str, model: str, a: ImportedAnswer) -> dict[str, Any]:
    """A ``samples.jsonl`` line as a run writes it (the prompt, the reply), with where the source logged it."""
    return {"item_id": a.item_id, "lang": a.lang, "task": task, "stage": "answer", "model": model,
            "prompt": [] if a.prompt is None else [{"role": "user", "content": a.prompt}], "response": a.reply,
            "parsed": a.source_answer, "parse_method": a.source_method, "error": None, "cached": False,
            "source_task": a.task, "source_line": a.where}  # fmt: skip
