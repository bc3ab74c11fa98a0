"""The rubric task's summary, typed: what ``RubricTask.summarize`` returns, ``RubricView`` reads and
``summary.json`` holds (``tasks.<rubric>``): the judge's four dimensions, 1–5, per language and temperature
(MedArabiQ App. J, Table J1)."""

from __future__ import annotations

from typing import Any

from xlingmed.tasks.base import MeanSD, Summary


class AtTemperature(Summary):
    """One language at one temperature: each dimension's mean ± sd over the items where it was read, the
    per-item average's (items with all four), and the mean of the four dimension means (how the paper's "Average
    Score" column adds up); items asked, judged, missing a dimension, unread, partly read, not judged."""

    similarity: MeanSD
    relevance: MeanSD
    factuality: MeanSD
    safety: MeanSD
    average: MeanSD
    mean_of_dimension_means: float | None
    n_items: int
    n_judged: int
    n_missing: dict[str, int]
    n_unparsed: int
    n_partial: int
    n_errors: int


class Settings(Summary):
    dimensions: list[str]
    scale: str
    judge_temperature: float
    judge_max_tokens: int
    temperatures: list[float]


class RubricSummary(Summary):
    """``languages``: language → temperature (as written) → its results; ``table_j1``: the paper's Table J1 rows
    ("mean ± sd (n=…)" per dimension)."""

    settings: Settings
    languages: dict[str, dict[str, AtTemperature]]
    table_j1: list[dict[str, Any]]
