"""Every metric, declared once where it is computed, and the answer metrics: functions of (answer, reference
answer, language) → a number, registered by name.

Each metric module declares its metrics with ``declare_metric(MetricSpec(...))``, as lm-evaluation-harness declares
a metric with its aggregation and direction: what it reads, how it aggregates, whether higher is better, its
option group and its source; ``xlingmed list metrics`` shows them all, plugins included.

The tasks whose model answers have a reference (``correctness``, ``open_qa``) compute the metrics named in their
``-T answer_metrics=NAME[,NAME…]`` option beside their own scores: one column per metric in the task's CSV, its
mean per language in the summary, one Score per answer. A metric returns ``None`` where it cannot score (an empty
reference); a failed request is never scored.

Adding a metric is one module that calls ``register_metric`` plus its line in ``BUILTIN_MODULES``; a user's
package adds one through the ``xlingmed.metrics`` entry point group (see ``docs/extending.md``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from xlingmed.registry import Registry
from xlingmed.types import Score, number


@dataclass(frozen=True)
class AnswerMetric:
    """A registered answer metric.

    Attributes:
        name: what ``-T answer_metrics=`` names; also the CSV column and the Score's metric.
        fn: ``fn(answer, reference, lang) -> float | None``.
        higher_is_better: the direction of a better answer.
        kind: ``continuous`` or ``binary`` (0/1), which decides the statistical tests.
        description: one line for ``xlingmed list``.
    """

    name: str
    fn: Callable[[str, str, str], float | None]
    higher_is_better: bool = True
    kind: Literal["continuous", "binary"] = "continuous"
    description: str = ""


@dataclass(frozen=True)
class MetricSpec:
    """A metric's declaration.

    Attributes:
        name: its column in the task tables and its Score's ``metric`` (``{k}``: one per value, e.g. LDA topics).
        inputs: what it reads (``answer, reference``; ``the K answers to a question``; ``yes/no readings and
            truths``…).
        aggregation: how one value per language is made (``mean over questions``, ``macro over classes``…).
        higher_is_better: the direction of a better model.
        kind: ``continuous`` or ``binary``.
        group: the option value that selects it (``-T consistency_metrics=ngram``), ``""`` when always on.
        source: the paper, section or library it implements.
        description: one line.
    """

    name: str
    inputs: str
    aggregation: str
    higher_is_better: bool = True
    kind: Literal["continuous", "binary"] = "continuous"
    group: str = ""
    source: str = ""
    description: str = ""


ANSWERS = "the K answers to a question (or their back-translations)"  # consistency's metrics read these
PAIRS = "mean over questions of the mean over answer pairs"
_DECLARED: dict[str, tuple[str, MetricSpec]] = {}  # name -> (declaring module, spec)


def declare_metric(*specs: MetricSpec) -> None:
    """Declare metrics (each metric module does, at import); a name declared twice keeps the last."""
    module = str(sys._getframe(1).f_globals.get("__name__", ""))
    for spec in specs:
        _DECLARED[spec.name] = (module, spec)


def all_metrics() -> dict[str, MetricSpec]:
    """Every declared metric and every registered answer metric: the built-in modules' in their order, then the
    others'."""
    answer_metrics = METRICS.entries()  # imports every metric module: their declarations are in
    rank = {m: i for i, m in enumerate(BUILTIN_MODULES)}
    ordered = sorted(_DECLARED.values(), key=lambda ms: rank.get(ms[0], len(rank)))
    out = {spec.name: spec for _, spec in ordered}
    for name, m in answer_metrics.items():
        out.setdefault(name, MetricSpec(name, "answer, reference", "mean over answers", m.higher_is_better, m.kind,
                                        "answer_metrics", "", m.description))  # fmt: skip
    return out


def metric_groups(inputs: str) -> tuple[str, ...]:
    """The option groups of the metrics that read ``inputs``, in declaration order (consistency's groups)."""
    return tuple(dict.fromkeys(s.group for s in all_metrics().values() if s.inputs == inputs and s.group))


BUILTIN_MODULES: tuple[str, ...] = (
    "xlingmed.metrics.registry",
    "xlingmed.metrics.lexical",
    "xlingmed.metrics.bertscore",
    "xlingmed.metrics.embedding",
    "xlingmed.metrics.topics",
    "xlingmed.metrics.language_id",
    "xlingmed.metrics.classification",
)

METRICS: Registry[AnswerMetric] = Registry(
    "answer metric", "xlingmed.metrics", BUILTIN_MODULES, entry_type=AnswerMetric
)


register_metric = METRICS.add  # a second, different AnswerMetric of one name: ConfigError


def metric_specs() -> dict[str, AnswerMetric]:
    """Every registered answer metric."""
    return METRICS.entries()


def get_metric(name: str) -> AnswerMetric:
    """Raises ConfigError naming the known metrics."""
    return METRICS.get(name)


def add_answer_metrics(
    rows: list[dict[str, Any]], names: Sequence[str], *, answer: str, reference: str = "reference"
) -> None:
    """Set ``row[name]`` for each metric in ``names`` (``None`` for a row with an error or without an answer)."""
    for name in names:
        metric = get_metric(name)
        for r in rows:
            text = r.get(answer)
            ok = not r.get("error") and isinstance(text, str)
            r[name] = metric.fn(text, str(r.get(reference) or ""), str(r["lang"])) if ok else None  # type: ignore[arg-type]


def answer_metric_means(
    units: Sequence[Score], names: Sequence[str], languages: Sequence[str]
) -> dict[str, dict[str, dict[str, float | int | None]]]:
    """Per metric and language, from a task's Scores: ``mean`` over the scored answers and ``n`` (for the
    summary)."""
    out: dict[str, dict[str, dict[str, float | int | None]]] = {}
    for name in names:
        out[name] = {}
        for lang in languages:
            vals = [float(s.value) for s in units if s.metric == name and s.lang == lang and s.value is not None]
            out[name][lang] = {"mean": sum(vals) / len(vals) if vals else None, "n": len(vals)}
    return out


def answer_metric_scores(row: Mapping[str, Any], task: str, temperature: float | None) -> list[Score]:
    """The Scores of the registered answer metrics that ``row`` holds a column for."""
    return [
        Score(
            item_id=str(row["item_id"]), lang=str(row["lang"]), task=task, metric=name, value=number(row[name]),
            temperature=temperature, kind=m.kind, higher_is_better=m.higher_is_better,
        )
        for name, m in metric_specs().items()
        if name in row
    ]  # fmt: skip


def check_names(value: Any) -> tuple[str, ...]:
    """``-T answer_metrics=`` as a tuple of registered names (ValueError naming the known ones)."""
    parts = [str(t).strip() for t in (value.split(",") if isinstance(value, str) else value or ()) if str(t).strip()]
    known = metric_specs()
    unknown = [p for p in parts if p not in known]
    if unknown:
        raise ValueError(f"unknown answer metric(s) {unknown}; known: {', '.join(known)}")
    return tuple(dict.fromkeys(parts))
