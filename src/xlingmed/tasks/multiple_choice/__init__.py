"""Multiple choice (MedArabiQ MCQ, MCQ with bias, FITB with choices; paper §3.2, Tables 1, 2, B3; spec §4.3, §4.6).

The task's package: ``task.py`` asks and scores, ``view.py`` shows its results."""

from __future__ import annotations

from xlingmed.prompts import format_options
from xlingmed.tasks.multiple_choice.imported import from_imported
from xlingmed.tasks.multiple_choice.scores import scores
from xlingmed.tasks.multiple_choice.task import (
    MARKERS,
    MultipleChoiceOptions,
    MultipleChoiceTask,
    build,
    extract_letter,
    prompt_settings,
)
from xlingmed.tasks.multiple_choice.view import MultipleChoiceView
from xlingmed.tasks.registry import PrimaryOutcome, TaskSpec, register_task

__all__ = [
    "MARKERS",
    "MultipleChoiceOptions",
    "MultipleChoiceTask",
    "MultipleChoiceView",
    "build",
    "extract_letter",
    "format_options",
    "prompt_settings",
    "scores",
]


register_task(
    TaskSpec(
        "multiple_choice",
        MultipleChoiceOptions,
        build,
        "MedArabiQ §3: the chosen option, accuracy",
        scores,
        spool=True,  # a run's answers reach millions: their Scores on disk, a chunk at a time
        requires=("choices",),
        view=MultipleChoiceView(),
        uses=lambda o: ("extractor",),  # where --extractor names one
        resolved=lambda context, o: {
            "letter_parser": o.letter_parser,
            **dict(zip(("mc_prompt", "mc_prompt_source", "mc_max_tokens"), prompt_settings(context, o), strict=True)),
        },
        parses=True,
        primary=PrimaryOutcome("accuracy", "correct", 0.05),
        from_imported=from_imported,
    )
)
