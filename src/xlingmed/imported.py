"""What another evaluation tool logged, as xlingmed reads it: one ``ImportedAnswer`` per scored sample, and the
``ImportContext`` of the log it came from.

The importers (``importers/``) make them from each tool's files; a task that can take them
(``TaskSpec.from_imported``: multiple choice) turns them into its rows, which the engine turns into Scores
and a summary as for a run. They live below the tasks so that a task can read them without importing an importer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class ImportedAnswer:
    """One scored sample of another tool, placed by item and language.

    Attributes:
        task: the source tool's task name (``global_mmlu_full_hi``, ``mymc_en|0``).
        item_id: the id shared by the same question in every language (what pairs languages).
        lang: ISO 639-1 code.
        correct: the source tool's own per-sample metric (1.0 / 0.0); ``None`` when the sample has none.
        gold: the correct option's label (``"B"``) where the source says it, else the target as text.
        source_answer: what the source tool's filter or scorer read from the reply (``None``: nothing).
        source_method: ``source_filter``, ``source_unread`` or ``source_loglikelihood``.
        reply: the model's raw text (``None`` for log-likelihood tasks, which generate none).
        prompt: the last user message the model got, where the log has it.
        options: label → option text, where the record gives them (for re-reading the reply).
        where: ``file:line`` of the record, for messages.
    """

    task: str
    item_id: str
    lang: str
    correct: float | None
    gold: str | None
    source_answer: str | None
    source_method: str
    reply: str | None = None
    prompt: str | None = None
    options: Mapping[str, str] = field(default_factory=dict)
    where: str = ""


@dataclass(frozen=True)
class ImportContext:
    """The log the answers came from, as a task taking them needs it.

    Attributes:
        tool: the source tool (``lm-evaluation-harness``, ``inspect_ai``, ``lighteval``).
        temperature: the sampling temperature the source logged (``None`` where it logged none).
        rescore: read each raw reply again with xlingmed's parsers, keeping the source's reading beside it.
        categories: per answer, the source task without its language where the log holds several tasks (the
            rows' category), else ``None``.
        metric: the name of the source's per-sample metric (``acc``, ``exact_match``, ``f1``…).
        answer_marker: the marker the replies were asked to end with (``--answer-marker``: "ANSWER:",
            "【回答】"); ``None``: the one each logged prompt asks for, where it asks for one.
        reading: ``strict`` or ``lenient`` (``parsing.choice.READINGS``): whether a fallback's guess counts.
    """

    tool: str
    temperature: float | None
    rescore: bool
    categories: Sequence[str | None]
    metric: str = "acc"
    answer_marker: str | None = None
    reading: str = "strict"
