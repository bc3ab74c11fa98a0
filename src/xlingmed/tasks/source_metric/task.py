"""Another tool's own per-sample metric, imported as it was logged (``xlingmed import``): an F1, an exact-match
rate, a BLEU, a 0–100 score. It is no accuracy, so multiple choice does not take it; it is kept under its own name,
in its own range, and summarised per language as a mean. The task scores imports only: it requires a logged
outcome (``types.ITEM_FEATURES``), which no benchmark provides, so a run never asks for it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from xlingmed.errors import ConfigError
from xlingmed.imported import ImportContext, ImportedAnswer
from xlingmed.tasks.base import Stage, number
from xlingmed.tasks.context import TaskContext
from xlingmed.tasks.source_metric.summary import LanguageMean, SourceMetricSummary
from xlingmed.types import Completion, GenerateRequest, Item, Parsed, Sample, Score

NAME = "source_metric"


class SourceMetricTask:
    """Scores rows of imported answers: ``value`` is the source's per-sample metric (continuous, higher is
    better), ``metric`` its name. It sends no request."""

    name: ClassVar[str] = NAME
    stages: ClassVar[tuple[Stage, ...]] = ()
    samples_by_item: ClassVar[bool] = True

    def __init__(self, tool: str, metric: str, metrics: Mapping[str, str] | None = None) -> None:
        self.tool, self.metric, self.metrics = tool, metric, dict(metrics or {})

    def samples(self, items: Sequence[Item]) -> list[Sample]:
        return []  # nothing to ask: the answers were logged by another tool

    def request(self, stage: str, sample: Sample, prior: Mapping[str, Completion]) -> GenerateRequest | None:
        return None

    def parse(self, stage: str, sample: Sample, completion: Completion) -> Parsed | None:
        return None

    def record(self, sample: Sample, completions: Mapping[str, Completion]) -> dict[str, Any]:
        raise ConfigError("source_metric scores imported answers only (xlingmed import)")

    def enrich(self, records: Sequence[dict[str, Any]], languages: Sequence[str]) -> list[dict[str, Any]]:
        """The imported rows as they are; each source task's metric name noted for ``summarize`` (the rows of
        several source tasks may be joined in one table: each keeps its metric's name)."""
        self.metrics.update({str(r["category"]): str(r["metric"]) for r in records if r.get("category")})
        if self.metrics:
            self.metric = ", ".join(dict.fromkeys(self.metrics.values()))
        return list(records)

    def summarize(self, units: Sequence[Score], languages: Sequence[str]) -> SourceMetricSummary:
        groups = list(dict.fromkeys(s.group for s in units if s.group is not None))
        if not groups:
            return SourceMetricSummary(tool=self.tool, metric=self.metric, languages=_means(units, languages))
        return SourceMetricSummary(
            tool=self.tool, metric=self.metric, languages=_means(units, languages), metrics=dict(self.metrics),
            per_task={g: _means([s for s in units if s.group == g], languages) for g in groups},
        )  # fmt: skip


def _means(units: Sequence[Score], languages: Sequence[str]) -> dict[str, LanguageMean]:
    out: dict[str, LanguageMean] = {}
    for lang in languages:
        mine = [s for s in units if s.lang == lang]
        values = [float(s.value) for s in mine if s.value is not None]
        if not mine:
            continue
        out[lang] = LanguageMean(
            mean=sum(values) / len(values) if values else None, n=len(values),
            minimum=min(values) if values else None, maximum=max(values) if values else None,
            n_missing=len(mine) - len(values),
        )  # fmt: skip
    return out


def scores(rows: Sequence[Mapping[str, Any]]) -> list[Score]:
    """One continuous Score per imported answer (``value``: the source's metric; ``None`` where it logged none)."""
    return [
        Score(item_id=str(r["item_id"]), lang=str(r["lang"]), task=NAME, metric="value", value=number(r["value"]),
              temperature=number(r.get("temperature")), kind="continuous", higher_is_better=True,
              group=None if r.get("category") in (None, "") else str(r["category"]))
        for r in rows
    ]  # fmt: skip


def from_imported(
    answers: Sequence[ImportedAnswer], context: ImportContext
) -> tuple[SourceMetricTask, list[dict[str, Any]]]:
    """Every imported answer as a row: the source's metric (``value``), its reading and the reply, where it logged
    them."""
    rows = [
        {"item_id": a.item_id, "lang": a.lang, "temperature": context.temperature, "category": category,
         "metric": context.metric, "value": a.correct, "gold": a.gold, "source_prediction": a.source_answer,
         "source_parse_method": a.source_method, "response": a.reply, "source_task": a.task, "source_line": a.where}
        for a, category in zip(answers, context.categories, strict=True)
    ]  # fmt: skip
    metrics = {c: context.metric for c in context.categories if c is not None}
    return SourceMetricTask(context.tool, context.metric, metrics), rows


def build(context: TaskContext, options: Any) -> SourceMetricTask:
    raise ConfigError("source_metric scores imported answers only (xlingmed import); a run cannot ask for it")
