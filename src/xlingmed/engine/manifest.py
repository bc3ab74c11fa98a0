"""What a run folder says about itself: ``summary.json`` (results per task) and ``manifest.json`` (how)."""

from __future__ import annotations

import platform
import sys
from collections.abc import Mapping, Sequence
from datetime import datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from xlingmed.budget import Budget
from xlingmed.config import RunConfig
from xlingmed.types import Item

PACKAGES = (
    "xlingmed", "llama-cpp-python", "openai", "pandas", "openpyxl", "scikit-learn", "numpy", "torch", "transformers",
    "bert-score", "sentence-transformers", "gensim", "langid", "nltk", "datasets", "accelerate", "gguf", "litellm",
)  # fmt: skip


def package_versions() -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def resolved_protocol(config: RunConfig) -> dict[str, Any]:
    """Every protocol choice as it was resolved for ``config``, and whether it was the default (``manifest.json``'s
    ``resolved``): the run's settings, then each task's own (``TaskSpec.resolved``) under ``tasks.<name>``; the keys
    tasks wrote at the top level in 0.1 (``letter_parser``, ``bertscore``…) are there too, for one release."""
    from xlingmed.tasks.registry import get_task

    given = config.model_fields_set | set(config.task_args)
    options = {t: config.options(t) for t in config.tasks}
    option_fields = {f for o in options.values() for f in type(o).model_fields}
    per_task: dict[str, dict[str, Any]] = {}
    for t, o in options.items():
        hook = get_task(t).resolved
        per_task[t] = hook(config.task_context(t), o) if hook is not None else {}
    legacy: dict[str, Any] = {}
    for settings in per_task.values():
        for key, value in settings.items():  # encoder_sources: one block per task, merged
            legacy[key] = {**legacy[key], **value} if isinstance(value, dict) and key in legacy else value
    return {
        "temperatures": {t: list(config.task_temperatures(t)) for t in config.tasks},
        "temperatures_source": "user" if "temperatures" in given else "paper default",
        "max_tokens": config.task_max_tokens(),
        "benchmark_options": config.benchmark_options(),
        "judge": config.judge_model,
        "translator": config.translator_model if config.uses("translator") else None,
        "translator_source": "user" if config.translator else "judge",
        "extractor": config.extractor_model,
        "extractor_mode": config.extractor_mode if config.extractor else None,
        **legacy,
        "tasks": per_task,
        "task_options": {t: o.model_dump(mode="json") for t, o in options.items()},
        "model_args": dict(config.model_args),
        "defaults_taken": sorted((set(type(config).model_fields) | option_fields) - given - {"task_args"}),
    }


def _judged(config: RunConfig) -> bool:
    """The run has a task that sends requests to a judge (``TaskSpec.roles``), so its judge is named in the
    summary and the report."""
    return bool(config.uses("judge"))


def build_summary(
    config: RunConfig,
    items: Sequence[Item] | Mapping[str, int],
    provenance: Mapping[str, Any],
    summaries: dict[str, Any],
    counters: Any,
    failures: dict[str, dict[str, int]],
    budget: Budget,
    wall: float,
) -> dict[str, Any]:
    """``summary.json``: the run's identity, every task's summary, parse warnings, counts and cost. ``items``: the
    run's items, or their number per language (a run lets its items go before it scores its last task)."""
    counted = items if isinstance(items, Mapping) else {lang: sum(1 for it in items if it.lang == lang)
                                                         for lang in config.languages}  # fmt: skip
    n_failed = sum(n for kinds in failures.values() for n in kinds.values())
    return {
        "benchmark": config.benchmark,
        "model": config.model,
        "judge": config.judge_model if _judged(config) else None,
        "translator": config.translator_model if config.uses("translator") else None,
        "extractor": config.extractor_model,
        "languages": list(config.languages),
        "n_items_per_language": {lang: counted.get(lang, 0) for lang in config.languages},
        "dataset": {
            k: provenance[k]
            for k in (
                *("file", "sha256", "version", "rows_used", "quirks", "flagged_items", "perturbation"),
                # the hub sets: what a reader needs beside every number (is the set parallel, whose translation)
                *("dataset", "split", "subset", "parallel", "licence", "translation", "provenance_filter"),
                *("dropped_by_provenance", "skipped"),
            )
            if k in provenance
        },
        "tasks": summaries,
        "parse_limited": {  # languages whose verdicts the parser could change (analysis.parse_limits)
            name: s["parsing"]["parse_limited"]
            for name, s in summaries.items()
            if s.get("parsing", {}).get("parse_limited")
        },
        "parse_warnings": {
            name: s["parsing"]["warnings"] for name, s in summaries.items() if s.get("parsing", {}).get("warnings")
        },
        "backend_calls": counters.backend_calls,
        "cache_hits": counters.cache_hits,
        "failed_requests": n_failed,
        "failures": {lang: kinds for lang, kinds in failures.items() if kinds},
        "cost_usd": round(budget.spent, 6) if budget.prices else None,
        "prices": {
            m: {
                "usd_per_1m_prompt": p.prompt,
                "usd_per_1m_completion": p.completion,
                "source": budget.price_sources.get(m, "--price"),
            }
            for m, p in sorted(budget.prices.items())
        },
        "wall_s": round(wall, 3),
    }


def build_manifest(
    config: RunConfig,
    provenance: Mapping[str, Any],
    cache_path: Path,
    started: datetime,
    finished: datetime,
    wall: float,
) -> dict[str, Any]:
    """``manifest.json``: config as given and as resolved, versions, platform, data provenance, times."""
    versions = package_versions()
    return {
        "xlingmed_version": versions["xlingmed"],
        "config": config.model_dump(mode="json"),
        "resolved": resolved_protocol(config),
        "argv": sys.argv,
        "packages": versions,
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "dataset": dict(provenance),
        "cache": str(cache_path),
        "started_at": started.isoformat(),
        "finished_at": finished.isoformat(),
        "wall_s": round(wall, 3),
    }
