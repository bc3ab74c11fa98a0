"""Correctness (XLingEval paper §3.1, Table 1; spec §2).

The task's package: ``task.py`` asks and scores, ``view.py`` shows its results, ``judge.py`` reads its judge."""

from __future__ import annotations

from xlingmed.tasks.common import ANSWER_SYSTEM
from xlingmed.tasks.correctness.task import (
    CorrectnessOptions,
    CorrectnessTask,
    build,
    scores,
)
from xlingmed.tasks.correctness.view import CorrectnessView
from xlingmed.tasks.registry import PrimaryOutcome, TaskSpec, register_task

__all__ = ["ANSWER_SYSTEM", "CorrectnessOptions", "CorrectnessTask", "CorrectnessView", "build", "scores"]


register_task(
    TaskSpec(
        "correctness",
        CorrectnessOptions,
        build,
        "XLingEval §3.1: an LLM judge labels each answer",
        scores,
        requires=("question", "reference"),
        view=CorrectnessView(),
        resolved=lambda context, o: {"judge_parser": o.judge_parser},
        parses=True,
        primary=PrimaryOutcome("contradictory", "contradictory", 0.05),
        judged=True,
    )
)
