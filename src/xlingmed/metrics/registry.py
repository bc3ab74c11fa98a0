"""Answer metrics: functions of (answer, reference answer, language) → a number, registered by name.

The tasks whose model answers have a reference (``correctness``, ``open_qa``) compute the metrics named in their
``-T answer_metrics=NAME[,NAME…]`` option beside their own scores: one column per metric in the task's CSV, its
mean per language in the summary, one Score per answer. A metric returns ``None`` where it cannot score (an empty
reference); a failed request is never scored.

Adding a metric is one module that calls ``register_metric`` plus its line in ``BUILTIN_MODULES``; a user's
package adds one through the ``xlingmed.metrics`` entry point group (see ``docs/extending.md``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from xlingmed.errors import ConfigError
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


BUILTIN_MODULES: tuple[str, ...] = ("xlingmed.metrics.registry",)

_METRICS: dict[str, AnswerMetric] = {}
_LOADED = False


def register_metric(metric: AnswerMetric) -> AnswerMetric:
    """Add (or replace) a metric under ``metric.name``; returns it."""
    _METRICS[metric.name] = metric
    return metric


def _load() -> None:
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    from xlingmed.plugins import load_registry

    def accept(name: str, obj: Any) -> None:
        if isinstance(obj, AnswerMetric):  # else a module that registered its own
            register_metric(obj)

    load_registry(BUILTIN_MODULES, "xlingmed.metrics", accept)


def metric_specs() -> dict[str, AnswerMetric]:
    """Every registered answer metric."""
    _load()
    return dict(_METRICS)


def get_metric(name: str) -> AnswerMetric:
    """Raises ConfigError naming the known metrics."""
    specs = metric_specs()
    if name not in specs:
        raise ConfigError(f"unknown answer metric {name!r}; known: {', '.join(specs)}")
    return specs[name]


def token_f1(answer: str, reference: str, lang: str) -> float | None:
    """SQuAD's token-overlap F1 (Rajpurkar et al. 2016) on lower-cased word tokens (jieba for Chinese), × 100."""
    from xlingmed.metrics.lexical import native_tokens

    ref = Counter(t.lower() for t in native_tokens(reference, lang))
    if not ref:
        return None
    got = Counter(t.lower() for t in native_tokens(answer, lang))
    common = sum((ref & got).values())
    if common == 0:
        return 0.0
    precision, recall = common / sum(got.values()), common / sum(ref.values())
    return 100 * 2 * precision * recall / (precision + recall)


register_metric(AnswerMetric("token_f1", token_f1, description="SQuAD token-overlap F1 × 100 against the reference"))


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
