"""HealthBench rubric grading (Arora et al., 2025; simple-evals ``healthbench_eval.py``), in any language.

The task's package: ``task.py`` asks and scores, ``view.py`` shows its results."""

from __future__ import annotations

from xlingmed.tasks.healthbench.task import (
    GRADER_TEMPLATE,
    HealthBenchOptions,
    HealthBenchTask,
    build,
    clipped_mean,
    parse_grade,
    score_example,
    scores,
)
from xlingmed.tasks.healthbench.view import HealthBenchView
from xlingmed.tasks.registry import PrimaryOutcome, TaskSpec, register_task

__all__ = [
    "GRADER_TEMPLATE",
    "HealthBenchOptions",
    "HealthBenchTask",
    "HealthBenchView",
    "build",
    "clipped_mean",
    "parse_grade",
    "score_example",
    "scores",
]


register_task(
    TaskSpec(
        "healthbench",
        HealthBenchOptions,
        build,
        "HealthBench (simple-evals): each criterion graded by a judge; points met over positive points",
        scores,
        requires=("conversation", "criteria"),
        view=HealthBenchView(),
        parses=True,
        primary=PrimaryOutcome(
            "healthbench_score", "score", 0.05, unit="HealthBench score (0–1)", part="criteria_met"
        ),
        judged=True,
    )
)
