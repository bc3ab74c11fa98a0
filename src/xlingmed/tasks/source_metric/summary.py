"""The source_metric task's summary, typed: per language, the mean of the source tool's own per-sample metric."""

from __future__ import annotations

from xlingmed.tasks.base import Summary


class LanguageMean(Summary):
    """One language: the metric's mean over the ``n`` answers that have a value, its smallest and largest value,
    and the answers without one (``n_missing``)."""

    mean: float | None
    n: int
    minimum: float | None
    maximum: float | None
    n_missing: int


class SourceMetricSummary(Summary):
    """``tool`` and ``metric``: whose per-sample metric, under its own name; ``languages``: language → its mean."""

    tool: str
    metric: str
    languages: dict[str, LanguageMean]
