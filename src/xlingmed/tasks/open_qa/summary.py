"""The open_qa task's summary, typed: what ``OpenQATask.summarize`` returns, ``OpenQAView`` reads and
``summary.json`` holds (``tasks.<open_qa>``): BERTScore × 100 of open answers per language and temperature
(MedArabiQ §4.4, Table 1)."""

from __future__ import annotations

from typing import Any

from xlingmed.tasks.base import Mean, MeanSD, Summary


class AtTemperature(Summary):
    """One language at one temperature: BERTScore F1/P/R × 100, mean ± sd over the answered items; items asked,
    empty replies (scored 0), failed requests (excluded)."""

    bertscore_f1: MeanSD
    bertscore_p: MeanSD
    bertscore_r: MeanSD
    n_items: int
    n_empty_responses: int
    n_errors: int


class Settings(Summary):
    """``bertscore``: the encoder as resolved (model, layer, idf, rescaling, bert-score's hash, scale, where each
    came from; ``views.base.encoder_note`` states it)."""

    bertscore: dict[str, Any]
    temperatures: list[float]
    max_tokens: int | None


class OpenQASummary(Summary):
    """``languages``: language → temperature (as written) → its results; ``table1``: the paper's Table 1 rows;
    ``answer_metrics`` (metric → language → mean) where ``-T answer_metrics`` named some."""

    settings: Settings
    languages: dict[str, dict[str, AtTemperature]]
    table1: list[dict[str, Any]]
    answer_metrics: dict[str, dict[str, Mean]] | None = None
