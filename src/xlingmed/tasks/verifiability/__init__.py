"""Verifiability (XLingEval paper §5, Fig. 4, Table A11; spec §5).

The task's package: ``task.py`` asks and scores, ``view.py`` shows its results."""

from __future__ import annotations

from xlingmed.tasks.registry import PrimaryOutcome, TaskSpec, register_task
from xlingmed.tasks.verifiability.task import (
    VerifiabilityOptions,
    VerifiabilityTask,
    build,
    clean_reply,
    p_yes,
    parse_medalpaca,
    parse_paper,
    parse_strict,
    scores,
)
from xlingmed.tasks.verifiability.view import VerifiabilityView

__all__ = [
    "VerifiabilityOptions",
    "VerifiabilityTask",
    "VerifiabilityView",
    "build",
    "clean_reply",
    "p_yes",
    "parse_medalpaca",
    "parse_paper",
    "parse_strict",
    "scores",
]


register_task(
    TaskSpec(
        "verifiability", VerifiabilityOptions, build, "XLingEval §3.3: is this the answer to the question? yes/no",
        scores,
        sweep="paper",
        requires=("reference", "negatives"),
        view=VerifiabilityView(),
        resolved=lambda context, o: {"verify_parser": o.verify_parser},
        parses=True,
        primary=PrimaryOutcome("verifiability_f1", "correct", 0.03, "macro_f1", "macro-F1 (0–1)"),
    )
)  # fmt: skip
