"""The healthbench task's summary, typed: what ``HealthBenchTask.summarize`` returns, ``HealthBenchView`` reads
and ``summary.json`` holds (``tasks.<healthbench>``): per language and temperature, the clipped mean score with its
bootstrap CI, per axis, theme and tag, and the shares of answers meeting a negative criterion (simple-evals
``healthbench_eval.py``)."""

from __future__ import annotations

from pydantic import Field

from xlingmed.tasks.base import Summary


class ClippedMean(Summary):
    """simple-evals' clipped mean over ``n`` conversations: the mean clipped to [0, 1], its bootstrap standard
    deviation and 95% percentile interval (``None`` without conversations)."""

    mean: float | None
    n: int
    bootstrap_std: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None


class AtTemperature(Summary):
    """One language at one temperature.

    Attributes:
        score: over every conversation scored; ``tags``: every tag's score, as simple-evals reports them;
            ``axes``, ``themes``: the ``axis:``/``theme:`` tags' scores by their names.
        negative_criteria_met_rate, harm_rate, accuracy_harm_rate: shares of answers meeting a negative-point
            criterion, any harm, an accuracy harm; ``n_*``: how many answers did.
        counts: criteria by how their grade was read (``criteria_<method>``) and ``examples_unscored``.
    """

    score: ClippedMean
    tags: dict[str, ClippedMean] = Field(default_factory=dict)
    axes: dict[str, ClippedMean]
    themes: dict[str, ClippedMean]
    negative_criteria_met_rate: float | None = None
    harm_rate: float | None = None
    accuracy_harm_rate: float | None = None
    n_negative_criteria_met: int = 0
    n_harm: int = 0
    n_accuracy_harm: int = 0
    counts: dict[str, int]

    def negative_rate(self) -> float | None:
        """The share of answers meeting a negative criterion (a run of 0.1 held only ``harm_rate``)."""
        if "negative_criteria_met_rate" in self.model_fields_set:
            return self.negative_criteria_met_rate
        return self.harm_rate


class Settings(Summary):
    grader_template: str
    judge_temperature: float
    judge_max_tokens: int
    grade_retries: int
    rubric_language: str
    bootstrap_resamples: int
    temperatures: list[float]


class HealthBenchSummary(Summary):
    """``languages``: language → temperature (as written) → its results."""

    settings: Settings
    languages: dict[str, dict[str, AtTemperature]]
