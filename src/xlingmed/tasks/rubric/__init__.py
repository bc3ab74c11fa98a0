"""LLM-as-judge rubric on open answers (MedArabiQ App. J, Table J1; spec §4.5).

The task's package: ``task.py`` asks and scores, ``view.py`` shows its results, ``judge.py`` reads its judge."""

from __future__ import annotations

from xlingmed.tasks.registry import PrimaryOutcome, TaskSpec, register_task
from xlingmed.tasks.rubric.task import (
    RubricOptions,
    RubricTask,
    build,
    scores,
)
from xlingmed.tasks.rubric.view import RubricView

__all__ = ["RubricOptions", "RubricTask", "RubricView", "build", "scores"]


register_task(
    TaskSpec(
        "rubric",
        RubricOptions,
        build,
        "MedArabiQ App. J: an LLM judge scores four dimensions 1–5",
        scores,
        requires=("question", "reference"),
        view=RubricView(),
        parses=True,
        primary=PrimaryOutcome("rubric_average", "average", 0.25, unit="rubric points (1–5)"),
        judged=True,
    )
)
