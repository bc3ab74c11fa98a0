"""A task: how many words the model's answer has, per language (a longer answer in one language is a gap)."""

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pydantic import Field

from xlingmed.tasks.base import Stage, TaskResult, error_of, number
from xlingmed.tasks.registry import TaskOptions, TaskSpec, register_task
from xlingmed.types import Completion, GenerateRequest, Item, Message, Parsed, Sample, Score


class AnswerLengthOptions(TaskOptions):
    answer_tokens: int = Field(default=64, ge=1)


class AnswerLengthTask:
    name: ClassVar[str] = "answer_length"
    stages: ClassVar[tuple[Stage, ...]] = (Stage("answer", "model"),)

    def __init__(self, max_tokens: int, seed: int | None) -> None:
        self.max_tokens, self.seed = max_tokens, seed

    def samples(self, items: Sequence[Item]) -> list[Sample]:
        return [Sample(item=it, task=self.name, key="answer") for it in items]

    def request(self, stage: str, sample: Sample, prior: Mapping[str, Completion]) -> GenerateRequest:
        message = Message("user", sample.item.question)
        return GenerateRequest(messages=(message,), max_tokens=self.max_tokens, seed=self.seed)

    def parse(self, stage: str, sample: Sample, completion: Completion) -> Parsed | None:
        return None  # free text: nothing to parse

    def record(self, sample: Sample, completions: Mapping[str, Completion]) -> dict[str, Any]:
        error = error_of(completions)
        text = completions["answer"].text if "answer" in completions and error is None else None
        return {
            "item_id": sample.item.item_id,
            "lang": sample.item.lang,
            "answer": text,
            "words": None if text is None else len(text.split()),
            "error": error,
        }

    def score(self, records: Sequence[dict[str, Any]], languages: Sequence[str]) -> TaskResult:
        return TaskResult(rows=list(records), summary=self.summarize(scores(records), languages))

    def summarize(self, units: Sequence[Score], languages: Sequence[str]) -> dict[str, Any]:
        summary: dict[str, Any] = {"languages": {}}
        for lang in languages:
            words = [s.value for s in units if s.lang == lang and s.value is not None]
            summary["languages"][lang] = {"n": len(words), "mean_words": sum(words) / len(words) if words else None}
        return summary


def scores(rows: Sequence[Mapping[str, Any]]) -> list[Score]:
    return [
        Score(
            item_id=str(r["item_id"]),
            lang=str(r["lang"]),
            task="answer_length",
            metric="words",
            value=number(r["words"]),
            higher_is_better=False,
        )
        for r in rows
    ]


def build(config: Any, options: AnswerLengthOptions) -> AnswerLengthTask:
    return AnswerLengthTask(max_tokens=options.answer_tokens, seed=config.seed)


register_task(TaskSpec("answer_length", AnswerLengthOptions, build, "words in the answer (example plugin)", scores))
