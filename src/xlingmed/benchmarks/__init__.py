"""Benchmark loaders: published files in, ``Item`` records out.

Names are ``<family>/<dataset>``: ``xlinghealth/liveqa``, ``xlinghealth/medicationqa``, ``xlinghealth/healthqa``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from xlingmed.benchmarks import xlinghealth
from xlingmed.errors import ConfigError
from xlingmed.types import Item

BENCHMARKS: tuple[str, ...] = tuple(f"xlinghealth/{name}" for name in xlinghealth.DATASETS)


def _split(name: str) -> tuple[str, str]:
    family, _, dataset = name.partition("/")
    if family != "xlinghealth" or dataset not in xlinghealth.DATASETS:
        raise ConfigError(f"unknown benchmark {name!r}; known: {', '.join(BENCHMARKS)}")
    return family, dataset


def load_benchmark(
    name: str,
    data_dir: str | os.PathLike[str] | None,
    languages: Sequence[str],
    *,
    include_defective: bool = False,
    limit: int | None = None,
) -> tuple[list[Item], dict[str, Any]]:
    """Load a benchmark by registry name; see ``xlinghealth.load_items`` for arguments and errors."""
    _, dataset = _split(name)
    return xlinghealth.load_items(dataset, data_dir, languages, include_defective=include_defective, limit=limit)


def describe_benchmark(name: str, data_dir: str | os.PathLike[str] | None) -> list[dict[str, Any]]:
    """Per-language counts and word statistics; see ``xlinghealth.describe``."""
    _, dataset = _split(name)
    return xlinghealth.describe(dataset, data_dir)
