"""What each benchmark's loader was verified on (``Benchmark.verified``: the real published files it was run on,
their source, revision and items per language), or that none could be reached (issue 61). ``xlingmed data check``
shows it; the files themselves are never in this project (their licences, their size)."""

from __future__ import annotations

from xlingmed.benchmarks.base import Benchmark

UNVERIFIED = "unverified: layout from the dataset card (no real file could be reached from the build machine)"


def verification(spec: Benchmark) -> str:
    """``spec``'s record: its source, revision and items per language, or ``UNVERIFIED``."""
    return spec.verified or UNVERIFIED
