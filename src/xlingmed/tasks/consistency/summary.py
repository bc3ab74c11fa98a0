"""The consistency task's summary, typed: what ``ConsistencyTask.summarize`` returns (``aggregate.summarize``),
``ConsistencyView`` reads and ``summary.json`` holds (``tasks.<consistency>``): per language, temperature and
similarity metric, the mean over the questions, the listwise means, and XLingEval's Table A9 layout."""

from __future__ import annotations

from typing import Any

from xlingmed.tasks.base import MeanSD, Summary


class AtTemperature(Summary):
    """One language at one temperature: questions asked, the questions each rule skipped (``aggregate.SKIP_REASONS``
    → count) and each metric's mean ± sd over the questions it has a value for."""

    n_questions: int
    skipped: dict[str, int]
    metrics: dict[str, MeanSD]


class Listwise(Summary):
    """One metric at one temperature over the ``n`` questions with a value in every language: each language's
    mean (listwise deletion, as the authors' box plots and tests; spec §3.5)."""

    n: int
    mean: dict[str, float | None]


class A9Cell(Summary):
    """Table A9's cell: the mean over temperatures, its change against English in %, and as the paper prints it
    (``"0.9699/0.0%"``)."""

    value: float | None
    change_vs_en_pct: float | None
    cell: str | None


class TableA9(Summary):
    """``mode`` (``paper``: answers translated to English; ``multilingual``: as written); ``columns``: metric →
    the paper's label, in its order; ``metrics``: metric → language → cell."""

    mode: str
    columns: dict[str, str]
    metrics: dict[str, dict[str, A9Cell]]


class ConsistencySummary(Summary):
    """``settings``: the task's settings as resolved (samples, mode, translator, encoders: ``ConsistencyTask.
    settings``); ``languages``: language → temperature (as written) → its results; ``listwise``: temperature →
    metric → listwise means."""

    settings: dict[str, Any]
    languages: dict[str, dict[str, AtTemperature]]
    listwise: dict[str, dict[str, Listwise]]
    table_a9: TableA9
