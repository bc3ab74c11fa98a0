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
    """``tool`` and ``metric``: whose per-sample metric, under its own name; ``languages``: language → its mean.
    An import of several source tasks adds ``per_task``: source task → language → its mean (``languages`` then
    pools them, and the views show ``per_task``), and ``metrics``: source task → its metric's name."""

    tool: str
    metric: str
    languages: dict[str, LanguageMean]
    per_task: dict[str, dict[str, LanguageMean]] | None = None
    metrics: dict[str, str] | None = None
