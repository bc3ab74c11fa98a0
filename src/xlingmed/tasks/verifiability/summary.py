"""The verifiability task's summary, typed: what ``VerifiabilityTask.summarize`` returns, ``VerifiabilityView``
reads and ``summary.json`` holds (``tasks.<verifiability>``): per language and temperature, the yes/no readings of
the claims against their truth (XLingEval §3.3, Fig. 4, Table A11)."""

from __future__ import annotations

from typing import Any

from pydantic import model_validator

from xlingmed.tasks.base import Summary


class AtTemperature(Summary):
    """One language at one temperature (``metrics.classification.binary_metrics`` on the claims read yes or no,
    then the counts).

    Attributes:
        n: claims the metrics are over (read yes or no); ``auc_source``: what ``auc`` is from.
        macro_precision, macro_recall, macro_f1, accuracy: over those claims (``None`` without any).
        precision_pos, recall_pos, f1_pos: of the "yes" class.
        auc_hard_labels: the paper's AUC, from the yes/no readings; ``auc_p_yes``: from P(yes) where logprobs came
            back; ``auc``: the paper's (``auc_hard_labels``). Runs before 0.2 held only ``auc`` and its source:
            both are read from it.
        n_claims, n_positive, n_scored, n_unparsed, n_refused, n_errors, predicted_yes: claims asked, true, read,
            unread, refused, failed, read yes; ``accuracy_unparsed_as_wrong``: over every claim.
    """

    n: int
    auc_source: str = "hard_labels"
    macro_precision: float | None
    macro_recall: float | None
    macro_f1: float | None
    accuracy: float | None
    precision_pos: float | None = None
    recall_pos: float | None = None
    f1_pos: float | None = None
    auc_hard_labels: float | None = None
    auc_p_yes: float | None = None
    auc: float | None = None
    n_claims: int
    n_positive: int | None = None
    n_scored: int
    n_unparsed: int
    n_refused: int = 0
    n_errors: int = 0
    predicted_yes: int | None = None
    accuracy_unparsed_as_wrong: float | None = None

    @model_validator(mode="before")
    @classmethod
    def _aucs_of_old_runs(cls, data: Any) -> Any:
        """A run before 0.2 held one ``auc`` and its ``auc_source``: it is the AUC of that source."""
        if isinstance(data, dict) and "auc_hard_labels" not in data and data.get("auc") is not None:
            data = {**data, f"auc_{data.get('auc_source', 'hard_labels')}": data["auc"]}
        return data

    def metric(self, name: str) -> float | None:
        """The value of one of the metrics above by its name (``macro_f1``, ``auc_p_yes``…; KeyError for
        another): the figures and tables loop over them."""
        values: dict[str, float | None] = {
            "macro_precision": self.macro_precision, "macro_recall": self.macro_recall, "macro_f1": self.macro_f1,
            "accuracy": self.accuracy, "auc_hard_labels": self.auc_hard_labels, "auc_p_yes": self.auc_p_yes,
        }  # fmt: skip
        return values[name]


class LanguageResult(Summary):
    """One language: ``temperatures`` (τ as written → its results), each metric's mean and sample sd (ddof=1,
    the paper's ± over 5 τ) over the temperatures."""

    temperatures: dict[str, AtTemperature]
    mean_over_temperatures: dict[str, float | None]
    sd_over_temperatures: dict[str, float | None]


class VerifiabilitySummary(Summary):
    """``parser``: how yes/no was read; ``negatives_per_item``: the negatives asked per item (``all``, or N);
    ``table_a11``: the paper's Table A11 rows ("mean ± sd" per metric and language)."""

    parser: str
    negatives_per_item: int | str
    languages: dict[str, LanguageResult]
    table_a11: list[dict[str, Any]]
