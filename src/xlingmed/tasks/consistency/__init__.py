"""Consistency (XLingEval §3.2, §4; spec xlingeval.md §3): K answers per question and temperature, and how
alike they are. ``task.py`` asks and scores, ``options.py`` holds the ``-T`` options and the builder."""

from __future__ import annotations

from xlingmed.tasks.consistency.aggregate import SKIP_REASONS, TABLE_A9, metric_columns, scores
from xlingmed.tasks.consistency.options import ConsistencyOptions, build
from xlingmed.tasks.consistency.task import (
    METRIC_GROUPS,
    MODES,
    SYSTEM,
    TOPIC_FITS,
    ConsistencyTask,
    sample_seed,
)
from xlingmed.tasks.consistency.view import ConsistencyView
from xlingmed.tasks.registry import TaskSpec, register_task

__all__ = [
    "METRIC_GROUPS",
    "MODES",
    "SKIP_REASONS",
    "SYSTEM",
    "TABLE_A9",
    "TOPIC_FITS",
    "ConsistencyOptions",
    "ConsistencyTask",
    "build",
    "metric_columns",
    "sample_seed",
    "scores",
]


register_task(
    TaskSpec(
        "consistency",
        ConsistencyOptions,
        build,
        "XLingEval §3.2: K answers per τ, how alike they are",
        scores,
        sweep="always",
        requires=("question",),
        mean_over_temperatures=True,
        view=ConsistencyView(),
        imports=("torch", "bert_score", "sentence_transformers", "gensim", "langid", "jieba", "nltk"),
        uses=lambda o: ("translator",) if o.consistency_mode == "paper" else (),
        resolved=lambda context, o: {
            "language_id": o.language_id,
            "consistency_max_tokens": o.consistency_max_tokens or context.max_tokens_given,
            "bertscore": dict(zip(("model", "layer"), o.bertscore_settings(), strict=True)),
            "embedding_model": o.embedding_settings(),
            "encoder_sources": {k: v for k, v in o.encoder_sources().items() if k != "open_qa_bertscore"},
        },
    )
)
