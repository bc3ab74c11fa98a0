"""Set metrics: how alike the K answers to one question are (XLingEval §3.2, Table A9; spec xlingeval.md §3.4),
registered by name like every other kind of thing xlingmed is given.

A set metric reads the K answers of each question of one condition (one language × temperature) at once, so an
encoder batches across the questions and a topic model is fitted over them (or over the run's answers, with
``topic_fit=shared``), and returns each question's values by column. Which texts it reads is declared, because the
skipping rules differ (spec §3.3, §3.4e): ``cleaned`` (the cleaned answers of questions with every answer and a
letter in each: n-gram, length, BERTScore, sim_sent), ``topic`` (the uncleaned answers of questions with no empty
or stopword-only answer: LDA, HDP), ``original`` (the answers as the model wrote them, before back-translation:
language consistency).

Each built-in is registered in the module that computes it (``lexical``, ``bertscore``, ``embedding``,
``topics``, ``language_id``); a user's package adds one through the ``xlingmed.set_metrics`` entry point group:
a new similarity metric is one file, and ``-T consistency_metrics=NAME`` selects it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from xlingmed.metrics.registry import BUILTIN_MODULES
from xlingmed.registry import Registry

Texts = Literal["cleaned", "topic", "original"]


@dataclass(frozen=True)
class SetSettings:
    """The consistency settings a set metric may read: ``lda_topics`` (topic counts), ``topic_seed``."""

    lda_topics: tuple[int, ...] = (20, 100)
    topic_seed: int = 42


@dataclass(frozen=True)
class Condition:
    """One condition's questions as a set metric sees them.

    Attributes:
        lang: the questions' language; ``mode``: ``paper`` (English back-translations, English tokenisation) or
            ``native`` (the answers as written, language-aware tokenisation); ``token_language``: the language
            the texts are tokenised as (``en`` in paper mode).
        settings: the run's ``SetSettings``.
        fit_on: the texts a topic model is fitted on instead of this condition's own (``topic_fit=shared``).
        encoders: what the run loaded, by the names metrics ``need`` (``bertscore``, ``sim_sent``, ``langid``).
    """

    lang: str
    mode: Literal["paper", "native"]
    token_language: str
    settings: SetSettings = field(default_factory=SetSettings)
    fit_on: Sequence[str] | None = None
    encoders: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SetMetric:
    """A registered set metric.

    Attributes:
        name: what ``-T consistency_metrics=`` names (one name may give several columns: ``ngram`` gives
            ``sim_1gram`` and ``sim_2gram``).
        texts: which texts of which questions it reads (the module docstring).
        columns: ``columns(settings) -> [column, …]``: what it writes to ``consistency.csv``, in order; a column
            ending in ``_sd`` is descriptive (the spread over answer pairs) and not scored.
        compute: ``compute(groups, condition) -> [{column: value}, …]``: one dict per group of answers (one
            question), values ``None`` where undefined.
        needs: the loaded encoders it reads from ``Condition.encoders``; the task refuses to start without them.
        labels: ``labels(settings) -> {column: label}``: its columns in the Table A9 layout where the paper's
            layout (``tasks/consistency/aggregate.py``'s ``TABLE_A9``) does not place them.
    """

    name: str
    texts: Texts
    columns: Callable[[SetSettings], list[str]]
    compute: Callable[[Sequence[Sequence[str]], Condition], list[dict[str, float | None]]]
    needs: tuple[str, ...] = ()
    labels: Callable[[SetSettings], dict[str, str]] = lambda settings: {}


# Filled from the metric modules (metrics/registry.py's BUILTIN_MODULES: each registers what it computes), then
# the xlingmed.set_metrics entry points.
SET_METRICS: Registry[SetMetric] = Registry("set metric", "xlingmed.set_metrics", BUILTIN_MODULES, entry_type=SetMetric)
register_set_metric = SET_METRICS.add  # a second, different SetMetric of one name: ConfigError


def set_metrics() -> dict[str, SetMetric]:
    """Every registered set metric: the built-ins in their modules' order (``BUILTIN_MODULES``, whichever was
    imported first), each module's in the order it registers them, then the plugins'."""
    entries = list(SET_METRICS.entries().items())
    rank = {module: k for k, module in enumerate(BUILTIN_MODULES)}
    ordered = sorted(range(len(entries)), key=lambda i: (rank.get(entries[i][1].compute.__module__, len(rank)), i))
    return dict(entries[i] for i in ordered)


def set_metric_columns(names: Sequence[str], settings: SetSettings) -> list[str]:
    """The ``consistency.csv`` columns that the set metrics ``names`` write, in their order.

    Raises:
        ConfigError: an unknown name (the known ones listed).
    """
    return [column for name in names for column in SET_METRICS.get(name).columns(settings)]
