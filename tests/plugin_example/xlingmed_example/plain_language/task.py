"""The task: ask the question, have the judge say yes or no, turn each answer into Scores and the Scores into the
summary. The judge's prompt is data beside this file (``judge.txt``)."""

from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any, ClassVar

from pydantic import Field, field_validator

from xlingmed.metrics.registry import add_answer_metrics, check_names
from xlingmed.tasks.base import Stage, cell, error_of, number
from xlingmed.tasks.context import TaskContext
from xlingmed.tasks.registry import TaskOptions
from xlingmed.types import Completion, GenerateRequest, Item, Message, Parsed, Sample, Score, declare_parse_methods

from .summary import LanguageResult, Mean, PlainLanguageSummary

NAME = "plain_language"
JUDGE_PROMPT = resources.files(__package__).joinpath("judge.txt").read_text("utf-8").strip()
declare_parse_methods({"plain_yes": "read", "plain_no": "read"})  # how the judge's reply was read, and its kind


class PlainLanguageOptions(TaskOptions):
    answer_tokens: int = Field(default=256, ge=1)
    answer_metrics: tuple[str, ...] = ("mentions_doctor",)  # registered answer metrics, by name

    @field_validator("answer_metrics", mode="before")
    @classmethod
    def _known(cls, value: Any) -> tuple[str, ...]:
        return check_names(value)


def read_verdict(text: str) -> Parsed:
    """The judge's yes (1.0) or no (0.0) from its first word; anything else is unread, never guessed."""
    words = text.strip().split()
    first = words[0].strip(".,:;!*").lower() if words else ""
    if first in ("yes", "no"):
        return Parsed(1.0 if first == "yes" else 0.0, f"plain_{first}")
    return Parsed(None, "unparsed")


class PlainLanguageTask:
    name: ClassVar[str] = NAME
    stages: ClassVar[tuple[Stage, ...]] = (Stage("answer", "model"), Stage("judge", "judge"))
    samples_by_item: ClassVar[bool] = True  # samples(items) is each item's sample in turn

    def __init__(self, answer_tokens: int, seed: int | None, metrics: tuple[str, ...]) -> None:
        self.answer_tokens, self.seed, self.metrics = answer_tokens, seed, metrics

    def samples(self, items: Sequence[Item]) -> list[Sample]:
        return [Sample(item=it, task=NAME, key="answer") for it in items]

    def request(self, stage: str, sample: Sample, prior: Mapping[str, Completion]) -> GenerateRequest | None:
        if stage == "answer":
            question = Message("user", sample.item.question)
            return GenerateRequest(messages=(question,), max_tokens=self.answer_tokens, seed=self.seed)
        answer = prior.get("answer")
        if answer is None or answer.error or not answer.text.strip():
            return None  # nothing to judge
        prompt = JUDGE_PROMPT.format(question=sample.item.question, answer=answer.text)
        return GenerateRequest(messages=(Message("user", prompt),), max_tokens=8)

    def parse(self, stage: str, sample: Sample, completion: Completion) -> Parsed | None:
        return read_verdict(completion.text) if stage == "judge" else None

    def record(self, sample: Sample, completions: Mapping[str, Completion]) -> dict[str, Any]:
        answer, judge = completions.get("answer"), completions.get("judge")
        verdict = read_verdict(judge.text) if judge is not None and not judge.error else None
        return {
            "item_id": sample.item.item_id,
            "lang": sample.item.lang,
            "temperature": sample.temperature,
            "question": sample.item.question,
            "reference": sample.item.reference,
            "answer": answer.text if answer is not None and not answer.error else None,
            "judge_reply": judge.text if judge is not None else None,
            "plain": None if verdict is None else verdict.value,
            "parse_method": None if verdict is None else verdict.method,
            "error": error_of(completions),
        }

    def enrich(self, records: Sequence[dict[str, Any]], languages: Sequence[str]) -> list[dict[str, Any]]:
        rows = [dict(r) for r in records]  # the engine scores these rows with scores(), then summarize()
        add_answer_metrics(rows, self.metrics, answer="answer")  # the metric plugin, used by its name
        return rows

    def summarize(self, units: Sequence[Score], languages: Sequence[str]) -> PlainLanguageSummary:
        def mean(mine: list[Score], metric: str) -> Mean:
            vals = [s.value for s in mine if s.metric == metric and s.value is not None]
            return Mean(mean=sum(vals) / len(vals) if vals else None, n=len(vals))

        out = {}
        for lang in languages:
            mine = [s for s in units if s.lang == lang]
            unread = sum(1 for s in mine if s.metric == "plain" and s.parse_method == "unparsed")
            out[lang] = LanguageResult(plain=mean(mine, "plain"), metrics={m: mean(mine, m) for m in self.metrics},
                                       unread=unread)  # fmt: skip
        return PlainLanguageSummary(languages=out)


def scores(rows: Sequence[Mapping[str, Any]]) -> list[Score]:
    """Each row's judge verdict (``plain``) and every answer metric column it holds, as Scores."""
    from xlingmed.metrics.registry import metric_specs

    out = []
    for r in rows:
        where = {"item_id": str(r["item_id"]), "lang": str(r["lang"]), "task": NAME,
                 "temperature": number(r["temperature"])}  # fmt: skip
        method = cell(r.get("parse_method"))
        out.append(Score(**where, metric="plain", value=number(r["plain"]), kind="binary", parse_method=method))
        out += [Score(**where, metric=name, value=number(r[name]), kind=m.kind, higher_is_better=m.higher_is_better)
                for name, m in metric_specs().items() if name in r]  # fmt: skip
    return out


def build(context: TaskContext, options: PlainLanguageOptions) -> PlainLanguageTask:
    """``context``: the run as this task sees it (seed, temperatures, token limits, benchmark, languages…)."""
    return PlainLanguageTask(options.answer_tokens, context.seed, options.answer_metrics)
