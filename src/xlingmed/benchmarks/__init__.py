"""Benchmark loaders: published files in, ``Item`` records out.

Names are ``<family>/<dataset>``: ``xlinghealth/liveqa``, ``xlinghealth/medicationqa``, ``xlinghealth/healthqa``
(XLingEval), and ``medarabiq/<task>`` for the seven MedArabiQ tasks (``mcq``, ``mcq_bias``, ``fitb_choices``,
``fitb_open``, ``qa``, ``qa_gec``, ``qa_llm``); a user's own file is ``mcq:FILE`` or ``qa:FILE`` (``custom``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from xlingmed.benchmarks import custom, medarabiq, xlinghealth
from xlingmed.errors import ConfigError
from xlingmed.types import Item

BENCHMARKS: tuple[str, ...] = (
    *(f"xlinghealth/{name}" for name in xlinghealth.DATASETS),
    *(f"medarabiq/{name}" for name in medarabiq.TASKS),
    "mcq:FILE",
    "qa:FILE",
)
# The languages each family's files hold, first = the default of a run.
FAMILY_LANGUAGES: dict[str, tuple[str, ...]] = {
    "xlinghealth": xlinghealth.FILE_LANGUAGES,
    "medarabiq": ("ar",),
}


def split_benchmark(name: str) -> tuple[str, str]:
    """``("xlinghealth", "liveqa")`` from ``"xlinghealth/liveqa"``; ``("mcq", "my.csv")`` from ``"mcq:my.csv"``.

    Raises:
        ConfigError: not a known benchmark (the message lists them).
    """
    if name.partition(":")[0] in custom.KINDS:
        kind, path = custom.split_name(name)
        return kind, str(path)
    family, _, dataset = name.partition("/")
    known: dict[str, Sequence[str]] = {"xlinghealth": tuple(xlinghealth.DATASETS), "medarabiq": tuple(medarabiq.TASKS)}
    if family not in known or dataset not in known[family]:
        raise ConfigError(f"unknown benchmark {name!r}; known: {', '.join(BENCHMARKS)}")
    return family, dataset


def default_languages(name: str) -> tuple[str, ...]:
    """The languages a run of ``name`` evaluates when ``--languages`` is not given."""
    family, _ = split_benchmark(name)
    if family in custom.KINDS:
        return custom.default_languages(name)
    return FAMILY_LANGUAGES[family]


def load_benchmark(
    name: str,
    data_dir: str | os.PathLike[str] | None,
    languages: Sequence[str],
    *,
    include_defective: bool = False,
    limit: int | None = None,
    paper_compat: bool = False,
    columns: dict[str, str] | None = None,
    answer_format: str = "auto",
    seed: int = 0,
) -> tuple[list[Item], dict[str, Any]]:
    """Load a benchmark by registry name; see ``xlinghealth.load_items``, ``medarabiq.load_items`` and
    ``custom.load_items`` for the arguments and errors (``include_defective`` is XLingHealth's, ``paper_compat``
    MedArabiQ's, ``columns``/``answer_format``/``seed`` those of a user's file)."""
    family, dataset = split_benchmark(name)
    if family in custom.KINDS:
        return custom.load_items(name, languages, columns=columns, answer_format=answer_format, limit=limit, seed=seed)
    if family == "medarabiq":
        return medarabiq.load_items(dataset, data_dir, languages, limit=limit, paper_compat=paper_compat)
    return xlinghealth.load_items(dataset, data_dir, languages, include_defective=include_defective, limit=limit)


def describe_benchmark(name: str, data_dir: str | os.PathLike[str] | None) -> list[dict[str, Any]]:
    """Per-language counts and word statistics; see ``xlinghealth.describe`` and ``medarabiq.describe``."""
    family, dataset = split_benchmark(name)
    if family in custom.KINDS:
        raise ConfigError("describe knows the published benchmarks; for your own file, read it with pandas")
    if family == "medarabiq":
        return medarabiq.describe(dataset, data_dir)
    return xlinghealth.describe(dataset, data_dir)
