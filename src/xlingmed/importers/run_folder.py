"""A run folder from an ``ImportedLog``: the same files a run writes, scored by the multiple-choice task.

Each imported answer becomes a multiple-choice record (``tasks/multiple_choice``): by default its outcome is the
source tool's own per-sample metric and its reading the source's filter, so every accuracy equals the source's;
with ``rescore`` xlingmed's answer extraction (``parsing/choice.extract_choice``) reads the raw reply again and
the record keeps both readings (``source_prediction``, ``source_parse_method``, ``source_correct``). The report,
the verdicts and the explorer then work as on any run; ``summary.json`` and ``manifest.json`` say it was imported.
"""

from __future__ import annotations

import platform
import re
import sys
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from xlingmed import output
from xlingmed.errors import ConfigError
from xlingmed.importers.base import ImportedAnswer, ImportedLog
from xlingmed.importers.families import family_of


def _label(text: str | None, options: dict[str, str]) -> str | None:
    """A reading or a target as an option label where it is one (``"B"``, ``"(B)"``, ``"b"``) or is an option's
    text; otherwise as it is (compared as text)."""
    if text is None:
        return None
    bare = text.strip().strip("()[].:").strip()
    if bare.upper() in options or (not options and re.fullmatch(r"[A-Za-z]", bare)):
        return bare.upper()
    by_text = {v.strip().lower(): k for k, v in options.items()}
    return by_text.get(text.strip().lower(), text.strip())


def _group(task: str, lang: str) -> str:
    """The task name without its language: the same for every language's copy (``global_mmlu_full_hi_anatomy``
    → ``global_mmlu_full_anatomy``; ``mymc_en|0`` → ``mymc``)."""
    name = re.sub(r"\|\d+$", "", task)
    family = family_of(name)
    match = re.search(family.task, name) if family else None
    if match is not None:
        return (name[: match.start("lang")] + name[match.end("lang") :]).replace("__", "_").strip("_")
    return re.sub(rf"[_\-.]{re.escape(lang)}(?:_[A-Z][a-z]{{3}})?$", "", name)


def records(log: ImportedLog, rescore: bool) -> list[dict[str, Any]]:
    """One multiple-choice record per answer (``tasks/multiple_choice`` ``record``'s columns, and the source's
    reading beside xlingmed's).

    Raises:
        ConfigError: ``rescore`` where a sample has no reply text (a log-likelihood task) or no options.
    """
    groups = {_group(a.task, a.lang) for a in log.answers}
    temperature = float(log.settings.get("temperature") or 0.0)
    out: list[dict[str, Any]] = []
    for a in log.answers:
        gold = _label(a.gold, dict(a.options))
        source = _label(a.source_answer, dict(a.options))
        row: dict[str, Any] = {
            "item_id": a.item_id, "lang": a.lang, "temperature": temperature, "condition": "original", "bias": None,
            "bias_code": None, "bias_target": None, "category": _group(a.task, a.lang) if len(groups) > 1 else None,
            "gold": gold, "prediction": source, "parse_method": a.source_method, "valid": source is not None,
            "correct": None if a.correct is None else a.correct == 1.0, "followed_bias": None, "response": a.reply,
            "extractor_prediction": None, "extractor_method": None, "flags": "", "error": None,
            "source_task": a.task, "source_prediction": source, "source_parse_method": a.source_method,
            "source_correct": a.correct, "source_line": a.where,
        }  # fmt: skip
        out.append(row)
    if rescore:
        _rescore(out, log.answers)
    return out


def _rescore(rows: list[dict[str, Any]], answers: Sequence[ImportedAnswer]) -> None:
    """xlingmed's reading of every reply, on every core (``parsing.batch``), with the labels its prompt showed."""
    from xlingmed.parsing.batch import ChoiceReply, read_choices

    for a in answers:
        if a.reply is None:
            raise ConfigError(f"--rescore: {a.where} has no reply text to read (task {a.task} ranks the options by "
                              "log-likelihood; its outcome is the source's)")  # fmt: skip
        if not a.options:
            raise ConfigError(f"--rescore: {a.where} carries no options (task {a.task}) to read the reply against")
    replies = [
        ChoiceReply(a.reply or "", tuple(a.options), dict(a.options), labels_shown(a.prompt, a.options))
        for a in answers
    ]
    for row, parsed in zip(rows, read_choices(replies), strict=True):
        row["prediction"], row["parse_method"] = parsed.value, parsed.method
        row["valid"] = parsed.value is not None
        row["correct"] = parsed.value == row["gold"]


_SCHEMES = (tuple(str(k) for k in range(1, 11)), tuple("①②③④⑤⑥⑦⑧⑨⑩"), tuple("abcdefghij"))


def labels_shown(prompt: str | None, options: Mapping[str, str]) -> tuple[str, ...] | None:
    """The labels the source's prompt printed before the options, where they were numbers (``1.``), circled numbers
    (``①``) or lower-case letters (``a)``): each option's text on a line that opens with its label. ``None``
    otherwise (capital letters, or a prompt the log did not keep): the reply is read with letters."""
    texts = [" ".join(str(v).split())[:40] for v in options.values()]
    if not prompt or not texts or not all(texts):
        return None
    prompt = re.sub(r"[ \t]+", " ", prompt)
    for scheme in _SCHEMES:
        shown = scheme[: len(texts)]
        if len(shown) == len(texts) and all(
            re.search(rf"(?m)^[ \t*]*{re.escape(x)}[ \t]*[.):]?[ \t]*{re.escape(t)}", prompt)
            for x, t in zip(shown, texts, strict=True)
        ):
            return shown
    return None


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
    from xlingmed.tasks.multiple_choice import MultipleChoiceTask

    started = datetime.now(UTC)
    out = Path(out)
    output.check_run_dir(out)
    languages = log.languages
    rows = records(log, rescore)
    temperature = rows[0]["temperature"]
    task = MultipleChoiceTask(template={}, temperatures=(temperature,), prompt_source=f"imported from {log.tool}")
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
