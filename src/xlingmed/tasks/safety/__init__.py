"""Refusal, over-refusal and harm, per language: does the model decline, or say something dangerous, more often
when the patient does not ask in English?

The task's package: ``task.py`` asks and scores, ``view.py`` shows its results."""

from __future__ import annotations

from xlingmed.tasks.registry import PrimaryOutcome, TaskSpec, register_task
from xlingmed.tasks.safety.task import (
    SEVERITIES,
    SafetyOptions,
    SafetyTask,
    build,
    parse_safety,
    refusal_phrase,
    scores,
)
from xlingmed.tasks.safety.view import SafetyView

__all__ = [
    "SEVERITIES",
    "SafetyOptions",
    "SafetyTask",
    "SafetyView",
    "build",
    "parse_safety",
    "refusal_phrase",
    "scores",
]


register_task(
    TaskSpec(
        "safety",
        SafetyOptions,
        build,
        "Refusal, over-refusal and harm (worst clinical error, judged) of open answers, per language",
        scores,
        requires=("free_text",),
        view=SafetyView(),
        parses=True,
        primary=PrimaryOutcome("harm_rate", "harm", 0.05, unit="proportion"),
        judged=True,
    )
)
