"""What a run folder says about itself: ``summary.json`` (results per task) and ``manifest.json`` (how), from the
plan's ``RunSettings`` (``engine/settings.py``): nothing here reads the run's configuration."""

from __future__ import annotations

import platform
import sys
from collections.abc import Mapping, Sequence
from datetime import datetime
from importlib import metadata
from typing import Any

from xlingmed.budget import Budget
from xlingmed.config.plan import RunSettings
from xlingmed.redact import redact_mapping
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


def build_summary(
    settings: RunSettings,
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
                                                         for lang in settings.languages}  # fmt: skip
    n_failed = sum(n for kinds in failures.values() for n in kinds.values())
    return {
        **settings.identity,
        "languages": list(settings.languages),
        "n_items_per_language": {lang: counted.get(lang, 0) for lang in settings.languages},
        "dataset": {
            k: provenance[k]
            for k in (
                *("file", "sha256", "version", "rows_used", "quirks", "flagged_items", "perturbation"),
                # the hub sets: what a reader needs beside every number (is the set parallel, whose translation)
                *("dataset", "split", "subset", "parallel", "licence", "translation", "provenance_filter"),
                *("dropped_by_provenance", "skipped", "skipped_rows", "reference_rules", "paired_items"),
                *("join", "chinese_from"),  # a run over joined sets: how the join held (multimed-x/liveqa)
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
    settings: RunSettings,
    provenance: Mapping[str, Any],
    started: datetime,
    finished: datetime,
    wall: float,
) -> dict[str, Any]:
    """``manifest.json``: config as given and as resolved, versions, platform, data provenance, times."""
    versions = package_versions()
    return redact_mapping({  # a --base-url with credentials is recorded without them (issue 60)
        "xlingmed_version": versions["xlingmed"],
        "config": settings.given,
        "resolved": settings.resolved,
        "argv": sys.argv,
        "packages": versions,
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "dataset": dict(provenance),
        "cache": str(settings.cache),
        "started_at": started.isoformat(),
        "finished_at": finished.isoformat(),
        "wall_s": round(wall, 3),
    })
