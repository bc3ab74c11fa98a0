"""Benchmarks: published files in, ``Item`` records out. One module per benchmark family, each registering its
specs (``base.py`` says what a spec is).

Names are ``<family>/<dataset>``: ``xlinghealth/liveqa``, ``xlinghealth/medicationqa``, ``xlinghealth/healthqa``
(XLingEval), and ``medarabiq/<task>`` for the seven MedArabiQ tasks (``mcq``, ``mcq_bias``, ``fitb_choices``,
``fitb_open``, ``qa``, ``qa_gec``, ``qa_llm``); a user's own file is ``mcq:FILE`` or ``qa:FILE`` (``custom``);
any Hugging Face dataset is ``hf:ORG/NAME`` (``hf``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from xlingmed.benchmarks.base import (
    Benchmark,
    LoadRequest,
    benchmark_names,
    benchmarks,
    get_benchmark,
    register_benchmark,
    register_scheme,
)
from xlingmed.types import Item

__all__ = [
    "Benchmark",
    "LoadRequest",
    "benchmark_names",
    "benchmarks",
    "describe_benchmark",
    "get_benchmark",
    "load_benchmark",
    "register_benchmark",
    "register_scheme",
]


def load_benchmark(
    name: str | Benchmark,
    data_dir: str | os.PathLike[str] | None,
    languages: Sequence[str],
    *,
    limit: int | None = None,
    seed: int = 0,
    **options: Any,
) -> tuple[list[Item], dict[str, Any]]:
    """Load a benchmark by registry name (or spec): ``(items, provenance)``.

    ``options`` are the benchmark's own settings (``include_defective`` for XLingHealth, ``paper_compat`` for
    MedArabiQ, ``columns``/``answer_format`` for a user's file, ``hf_config``/``hf_split``/… for ``hf:``).

    Raises:
        ConfigError, DataError, DataNotFoundError: unknown name or language, bad or missing data.
    """
    spec = get_benchmark(name)
    request = LoadRequest(
        data_dir=Path(data_dir) if data_dir is not None else None,
        languages=tuple(languages),
        limit=limit,
        seed=seed,
        options=options,
    )
    return spec.load(request)


def describe_benchmark(name: str | Benchmark, data_dir: str | os.PathLike[str] | None) -> list[dict[str, Any]]:
    """Per-language counts and word statistics (XLingEval Table A1; MedArabiQ word means).

    Raises:
        ConfigError: unknown benchmark, or one without a description (a user's file).
    """
    return get_benchmark(name).describe(data_dir)
