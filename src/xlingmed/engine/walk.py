"""The one stage walk, shared by a run and by ``--dry-run``.

For each task, each stage in order: build the requests of every sample from the completions of its earlier
stages, have them answered (``StageAnswerer``: through the cache and the backend for a run, from the cache or a
stand-in for a dry run) and hand the completions to the next stage.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, replace

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


async def walk(
    plan: Plan, answer: StageAnswerer
) -> AsyncIterator[tuple[Task, list[Sample], list[dict[str, Completion]]]]:
    """Yields, per task, its samples and each sample's completions by stage name (stages without a backend,
    such as a translator in native mode, are skipped)."""
    for task, samples in plan.plans:
        done: list[dict[str, Completion]] = [{} for _ in samples]
        for stage in task.stages:
            backend = plan.roles.get(stage.role)
            if backend is None:
                continue
            pending = [
                (i, req) for i, s in enumerate(samples) if (req := task.request(stage.name, s, done[i])) is not None
            ]
            if stage.role == "model" and plan.sampling:  # --top-p/--top-k apply to the model under test only
                pending = [(i, replace(req, **plan.sampling)) for i, req in pending]
            indices = [i for i, _ in pending]
            batch = StageBatch(task, stage, backend, indices, [samples[i] for i in indices], [r for _, r in pending])
            comps = await answer(batch)
            for i, comp in zip(indices, comps, strict=True):
                done[i][stage.name] = comp
        yield task, samples, done
