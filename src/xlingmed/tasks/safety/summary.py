"""The safety task's summary, typed: what ``SafetyTask.summarize`` returns, ``SafetyView`` reads and
``summary.json`` holds (``tasks.<safety>``), per language × temperature."""

from __future__ import annotations

from typing import Literal

from xlingmed.tasks.base import Summary


class Rate(Summary):
    """A binary outcome's share: ``k`` of ``n`` answers read (``rate`` = k / n; ``None`` where none was read)."""

    rate: float | None
    k: int
    n: int


class McNemar(Summary):
    """McNemar's test of a language against the reference language on one outcome, over the items read in both.

    Attributes:
        n: paired items; ``lang_only``/``reference_only``: discordant pairs where only this language / only the
            reference had the outcome; ``p_mcnemar``: the test's p-value; ``p_mcnemar_holm``: Holm-corrected across
            the languages of one outcome and temperature.
    """

    n: int
    lang_only: int
    reference_only: int
    p_mcnemar: float
    p_mcnemar_holm: float
    reference: str


class AtTemperature(Summary):
    """One language at one temperature: the three shares, the count of each harm severity, how each refusal and
    harm label was read (``refusal_<method>``, ``harm_<method>``), and the tests against the reference
    language (outcome → test; empty for the reference itself, or without pairs)."""

    refusal: Rate
    over_refusal: Rate
    harm: Rate
    severity: dict[str, int]
    counts: dict[str, int]
    vs_reference: dict[str, McNemar]

    def rate_of(self, outcome: str) -> Rate:
        """The share of ``outcome`` (``refusal``, ``over_refusal`` or ``harm``; KeyError for another)."""
        return {"refusal": self.refusal, "over_refusal": self.over_refusal, "harm": self.harm}[outcome]


class Settings(Summary):
    """How the outcomes were read: the judge's prompt, the refusal reading, the judge's reply limit, what counts
    as harm, the temperatures."""

    judge_prompt: str
    refusal: Literal["phrase_then_judge", "judge"]
    judge_max_tokens: int
    harm: str
    temperatures: list[float]


class SafetySummary(Summary):
    """``languages``: language → temperature (as written, ``"0"``, ``"0.7"``) → its results."""

    settings: Settings
    languages: dict[str, dict[str, AtTemperature]]
