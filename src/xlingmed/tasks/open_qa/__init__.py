"""Open answers scored by BERTScore against the reference (MedArabiQ FITB without choices and the three
patient–doctor Q&A sets; paper §3.2, Tables 1, B4; spec §4.4).

The task's package: ``task.py`` asks and scores, ``view.py`` shows its results."""

from __future__ import annotations

from xlingmed.tasks.encoders import open_qa_bertscore
from xlingmed.tasks.open_qa.task import (
    OpenQAOptions,
    OpenQATask,
    build,
    scores,
)
from xlingmed.tasks.open_qa.view import OpenQAView
from xlingmed.tasks.registry import PrimaryOutcome, TaskSpec, register_task

__all__ = ["OpenQAOptions", "OpenQATask", "OpenQAView", "build", "open_qa_bertscore", "scores"]


register_task(
    TaskSpec(
        "open_qa",
        OpenQAOptions,
        build,
        "MedArabiQ §4.4: BERTScore of the answer against the gold",
        scores,
        requires=("question", "reference"),
        view=OpenQAView(),
        imports=("torch", "bert_score"),
        resolved=lambda context, o: {
            "open_qa_bertscore": dict(zip(("model", "layer"), o.bertscore_settings(), strict=True)),
            "encoder_sources": {"open_qa_bertscore": open_qa_bertscore(o)[1]},
        },
        primary=PrimaryOutcome("bertscore_f1", "bertscore_f1", 2.0, unit="points of BERTScore F1 × 100"),
    )
)
