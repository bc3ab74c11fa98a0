"""The one stage walk, shared by a run and by ``--dry-run``.

For each task, each stage in order: build the requests of every sample from the completions of its earlier
stages, have them answered (``StageAnswerer``: through the cache and the backend for a run, from the cache or a
stand-in for a dry run) and hand the completions to the next stage.

The samples are made and go through the stages about ``CHUNK`` at a time (``plan.TaskSamples.parts``), and a
chunk's samples, requests and completions are dropped once they have been recorded: the driver never holds a whole
plan's samples, prompts or answers (``bench/scale.py`` measures it up to a million planned requests). A chunk is
large enough that a batching engine (vLLM takes thousands at once) is never starved by it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, replace

from xlingmed.engine.memory import give_back_freed_memory
from xlingmed.engine.plan import Plan
from xlingmed.models.base import ModelAPI
from xlingmed.tasks import Stage, Task
from xlingmed.types import Completion, GenerateRequest, Sample


@dataclass(frozen=True)
class StageBatch:
    """One stage's requests of one task: ``indices`` are the samples' positions in the task's sample list."""

    task: Task
    stage: Stage
    backend: ModelAPI
    indices: list[int]
    samples: list[Sample]
    requests: list[GenerateRequest]


# Answers a stage's requests, in order: through the cache and the backend (a run), or from the cache and stand-ins
# (a dry run).
StageAnswerer = Callable[[StageBatch], Awaitable[list[Completion]]]


CHUNK = 8192  # samples walked through every stage at once


async def walk(
    plan: Plan, answer: StageAnswerer, chunk: int | None = None
) -> AsyncIterator[tuple[Task, list[Sample], list[dict[str, Completion]], bool]]:
    """Yields, per task and per chunk of its samples (in order), those samples, each one's completions by stage
    name (stages without a backend, such as a translator in native mode, are skipped), and whether it is the
    task's last chunk. ``chunk`` defaults to ``CHUNK`` (read at call time)."""
    chunk = chunk or CHUNK
    for task, samples in plan.plans:
        parts = samples.parts(chunk)
        part = next(parts, None)
        if part is None:
            yield task, [], [], True
            continue
        start = 0
        while part is not None:
            following = next(parts, None)  # made now: the last part is the one with none after it
            if following is None:  # the task's items are no longer needed: let them go before it is scored
                samples.release()
                give_back_freed_memory()
            done: list[dict[str, Completion]] = [{} for _ in part]
            for stage in task.stages:
                backend = plan.roles.get(stage.role)
                if backend is None:
                    continue
                pending = [
                    (i, req) for i, s in enumerate(part) if (req := task.request(stage.name, s, done[i])) is not None
                ]
                if stage.role == "model" and plan.sampling:  # --top-p/--top-k apply to the model under test only
                    pending = [(i, replace(req, **plan.sampling)) for i, req in pending]
                batch = StageBatch(
                    task, stage, backend, [start + i for i, _ in pending], [part[i] for i, _ in pending],
                    [r for _, r in pending],
                )  # fmt: skip
                comps = await answer(batch)
                for (i, _), comp in zip(pending, comps, strict=True):
                    done[i][stage.name] = comp
            yield task, part, done, following is None
            start += len(part)
            part = following
