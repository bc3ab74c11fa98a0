"""The multiple_choice task's summary, typed: what ``MultipleChoiceTask.summarize`` returns,
``MultipleChoiceView`` reads and ``summary.json`` holds (``tasks.<multiple_choice>``): accuracy per language,
temperature and bias condition, with each condition against the clean question (MedArabiQ §3, Tables 1–2).

The cells are computed by ``analysis.conditions`` and read into these models; a key a cell lacks (no bias on the
items, the original condition) stays out of ``summary.json``, as it was before the summary was typed."""

from __future__ import annotations

from typing import Any

from xlingmed.tasks.base import Summary


class Accuracy(Summary):
    """Accuracy of a group of answers (a category, a bias): invalid answers count as wrong."""

    n: int
    n_correct: int
    accuracy_pct: float | None
    n_invalid: int


class McNemarTest(Summary):
    """``analysis.paired.mcnemar``: ``a_only``: right on the clean question only; ``b_only``: under the condition
    only; exact binomial below 25 discordant pairs, else χ² with continuity correction."""

    n: int
    a_only: int
    b_only: int
    statistic: float
    p: float
    exact: bool


class VersusOriginal(Summary):
    """A condition against the clean question of the same items (bias and mitigation rows), and how often the
    answer was the option the bias pointed at; each field only where it could be computed."""

    n_followed_bias: int | None = None
    followed_bias_rate: float | None = None
    followed_bias_share_of_wrong: float | None = None
    delta_vs_original_pp: float | None = None
    n_pairs: int | None = None
    n_items_paired: int | None = None
    mcnemar_vs_original: McNemarTest | None = None
    delta_ci95_pp: list[float] | None = None


class PerBias(Accuracy, VersusOriginal):
    """One bias category under one condition."""


class ConditionCell(VersusOriginal):
    """One language × temperature × condition: accuracy over the answers (``n``; failed requests excluded,
    ``n_errors``), invalid answers, accuracy over valid answers; per medical category and per bias."""

    n: int
    n_correct: int
    accuracy: float | None
    accuracy_pct: float | None
    n_invalid: int
    invalid_rate: float | None
    accuracy_valid_only: float | None
    n_errors: int
    per_category: dict[str, Accuracy]
    per_bias: dict[str, PerBias] | None = None


class ByCondition(Summary):
    """One language × temperature asked under several conditions: condition → its cell."""

    conditions: dict[str, ConditionCell]


class Settings(Summary):
    prompt_form: str
    prompt_source: str
    temperatures: list[float]
    max_tokens: int | None
    letter_markers: list[str]
    letter_parser: str
    conditions: list[str]
    biases: list[str]
    invalid_counts_as_wrong: bool


class Extractor(Summary):
    """What the extractor model was sent and said, per language (``tasks.multiple_choice.extract.by_language``)."""

    mode: str
    languages: dict[str, dict[str, Any]]


class MultipleChoiceSummary(Summary):
    """``languages``: language → temperature (as written) → its cell (one condition) or cells (several);
    ``table1``/``table2``: the paper's Table 1 and (with bias conditions) Table 2 rows; ``extractor`` where an
    extractor model was named."""

    settings: Settings
    languages: dict[str, dict[str, ConditionCell | ByCondition]]
    table1: list[dict[str, Any]]
    table2: list[dict[str, Any]] | None = None
    extractor: Extractor | None = None

    def cells(self, lang: str, temperature: str) -> dict[str, ConditionCell]:
        """Condition → cell at (``lang``, ``temperature``); a run of one condition holds the original only."""
        cell = self.languages[lang][temperature]
        return cell.conditions if isinstance(cell, ByCondition) else {"original": cell}
