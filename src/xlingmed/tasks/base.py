"""What a task is: it turns Items into Samples, Samples into requests, and Completions into records.

A task never calls a backend. It declares ``stages`` (e.g. correctness: ``answer`` by the model, then
``judge`` by the judge model); the runner sends each stage's requests and hands the completions of earlier
stages to the next one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Protocol

from xlingmed.types import Completion, GenerateRequest, Item, Parsed, Sample


@dataclass(frozen=True)
class Stage:
    """One round of requests: ``role`` says which model answers (the evaluated model or the judge)."""

    name: str
    role: Literal["model", "judge"]


class Task(Protocol):
    name: ClassVar[str]
    stages: ClassVar[tuple[Stage, ...]]

    def samples(self, items: Sequence[Item]) -> list[Sample]:
        """Everything to ask about ``items``, in a stable order."""
        ...

    def request(self, stage: str, sample: Sample, prior: Mapping[str, Completion]) -> GenerateRequest | None:
        """The request of ``stage`` for ``sample``, given the completions of earlier stages; ``None`` = skip."""
        ...

    def parse(self, stage: str, sample: Sample, completion: Completion) -> Parsed | None:
        """The parsed value of one completion (``None`` for stages whose output is free text)."""
        ...

    def record(self, sample: Sample, completions: Mapping[str, Completion]) -> dict[str, Any]:
        """One flat row (the task's CSV row) for ``sample``."""
        ...

    def summarize(self, records: Sequence[dict[str, Any]], languages: Sequence[str]) -> dict[str, Any]:
        """Metrics per language (and per temperature where the task sweeps it)."""
        ...


def error_of(completions: Mapping[str, Completion]) -> str | None:
    """The first error among a sample's completions, prefixed by its stage."""
    for stage, comp in completions.items():
        if comp.error:
            return f"{stage}: {comp.error}"
    return None
