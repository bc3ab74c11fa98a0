"""Generation through the completion cache and the budget: ``CachedBackend`` wraps a backend.

Only cache misses reach the backend, through ``max_concurrency`` workers (the backend paces itself further:
``models/pacing.py``); each completion is committed to the cache as soon as it arrives, so an interrupted run
resumes with nothing lost or sent twice. A backend with ``generate_batch`` is handed the misses in batches.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from xlingmed.budget import Budget
from xlingmed.errors import BudgetExhausted
from xlingmed.models.base import ModelAPI
from xlingmed.store import CompletionCache
from xlingmed.types import Completion, GenerateRequest


class Progress(Protocol):
    """What the engine reports while it works (the CLI draws rich progress bars from it)."""

    def start(self, description: str, total: int) -> None: ...

    def advance(self, n: int = 1) -> None: ...


class NoProgress:
    def start(self, description: str, total: int) -> None:
        pass

    def advance(self, n: int = 1) -> None:
        pass


@dataclass
class Counters:
    backend_calls: int = 0
    cache_hits: int = 0
    failed: int = 0


BATCH_SIZE = 64  # requests handed at once to a backend with generate_batch


@dataclass
class CachedBackend:
    """A backend behind the completion cache and the budget.

    Attributes:
        model: the backend.
        cache: the completion cache (``None``: no caching).
        counters: backend calls, cache hits and failures, shared by every backend of a run.
        budget: ``--max-requests`` / ``--max-cost``; ``None`` = unlimited.
        retry_failed: resend requests whose (permanent) failure is cached.
    """

    model: ModelAPI
    cache: CompletionCache | None
    counters: Counters
    budget: Budget | None = None
    retry_failed: bool = False

    @property
    def model_id(self) -> str:
        return self.model.model_id

    def lookup(self, request: GenerateRequest) -> Completion | None:
        """The cached completion of ``request`` if it may be used (a cached failure is not, under
        ``retry_failed``)."""
        hit = self.cache.get(request.cache_key(self.model_id)) if self.cache is not None else None
        return None if hit is None or (self.retry_failed and not hit.ok) else hit

    async def _send_batched(
        self, batch: Any, todo: dict[str, GenerateRequest], reserve: Callable[[GenerateRequest], float | None],
        store: Callable[[str, GenerateRequest, Completion, float], None],
    ) -> None:  # fmt: skip
        """Sends ``todo`` in batches of the model's size (``generate_batch``), each request reserved first: stops at
        the first the budget refuses."""
        pending = list(todo.items())
        size = int(getattr(self.model, "batch_requests", BATCH_SIZE))  # vllm/ takes thousands at once
        for start in range(0, len(pending), size):
            chunk: list[tuple[str, GenerateRequest, float]] = []
            for key, req in pending[start : start + size]:
                reserved = reserve(req)
                if reserved is None:
                    break
                chunk.append((key, req, reserved))
            if chunk:
                comps = await batch([req for _, req, _ in chunk])
                for (key, req, reserved), comp in zip(chunk, comps, strict=True):
                    store(key, req, comp, reserved)
            if len(chunk) < len(pending[start : start + size]):
                break

    async def _send_concurrently(
        self, todo: dict[str, GenerateRequest], reserve: Callable[[GenerateRequest], float | None],
        store: Callable[[str, GenerateRequest, Completion, float], None],
    ) -> None:  # fmt: skip
        """Sends ``todo`` one request at a time from up to ``max_concurrency`` workers, in ``send_order``; each stops
        at its first request the budget refuses."""
        model = self.model
        queue: asyncio.Queue[tuple[str, GenerateRequest]] = asyncio.Queue()
        sorted_prompts = model.max_concurrency == 1 or bool(getattr(model, "sort_prompts", False))
        for item in send_order(todo, 1 if sorted_prompts else model.max_concurrency):
            queue.put_nowait(item)

        async def worker() -> None:
            while True:
                try:
                    key, req = queue.get_nowait()
                except asyncio.QueueEmpty:
                    return
                reserved = reserve(req)
                if reserved is None:
                    return  # over budget: the other workers stop at their next request
                store(key, req, await model.generate(req), reserved)

        n_workers = min(model.max_concurrency, len(todo))
        if n_workers:
            await asyncio.gather(*(worker() for _ in range(n_workers)))

    async def answer(
        self, requests: Sequence[GenerateRequest], progress: Progress | None = None, task: str | None = None
    ) -> list[tuple[Completion, bool]]:
        """Answer ``requests`` in order, from the cache where possible; identical requests are sent once.

        Returns:
            ``(completion, from_cache)`` per request, in the order of ``requests``. Failed requests come back
            with ``error`` set; only permanent failures are cached.

        Raises:
            BudgetExhausted: the budget ran out; the requests in flight were finished and cached first.
        """
        progress = progress or NoProgress()
        model, counters = self.model, self.counters
        keys = [r.cache_key(model.model_id) for r in requests]
        results: dict[str, tuple[Completion, bool]] = {}
        todo: dict[str, GenerateRequest] = {}
        for key, req in zip(keys, requests, strict=True):
            if key in results or key in todo:
                continue
            hit = self.lookup(req)
            if hit is not None:
                results[key] = (hit, True)
                counters.cache_hits += 1
                progress.advance()
            else:
                todo[key] = req

        sends_nothing = bool(getattr(model, "sends_nothing", False))  # --executor cache: a miss is no call

        def store(key: str, req: GenerateRequest, comp: Completion, reserved: float) -> None:
            counters.backend_calls += 0 if sends_nothing else 1
            if self.budget is not None:
                self.budget.settle(model.model_id, reserved, comp)
            if self.cache is not None:
                self.cache.put(key, model.model_id, req, comp, task)  # transient failures are not stored
            if not comp.ok:
                counters.failed += 1
            results[key] = (comp, False)
            progress.advance()

        def reserve(req: GenerateRequest) -> float | None:
            if self.budget is None:
                return 0.0
            return self.budget.try_reserve(model.model_id, req)  # None: over budget, send nothing more

        batch = getattr(model, "generate_batch", None)
        if batch is not None:
            await self._send_batched(batch, todo, reserve, store)
        else:
            await self._send_concurrently(todo, reserve, store)
        progress.advance(len(keys) - len(results))  # repeated requests, answered once
        if self.budget is not None and self.budget.stopped is not None:
            raise BudgetExhausted(
                f"{self.budget.stopped}: stopped after {counters.backend_calls} backend calls; every answer so far "
                "is cached and the same command resumes the run (nothing was written to the run folder)"
            )
        return [results[k] for k in keys]


def send_order(todo: dict[str, GenerateRequest], concurrency: int) -> list[tuple[str, GenerateRequest]]:
    """The order in which the misses are sent: as planned, except to a backend that answers one request at a time
    (an in-process engine), which gets them sorted by prompt text.

    Sorting puts the prompts that share a prefix next to each other: the same prompt at several temperatures or
    samples, the claims of one question. An engine that keeps the previous prompt's KV cache (llama.cpp with
    ``prefix_cache``) then evaluates only what differs; every completion is the same in any order (the cache and
    each request's own seed make it so; ``tests/test_models.py`` checks both).
    """
    items = list(todo.items())
    if concurrency != 1:
        return items
    return sorted(items, key=lambda kv: tuple((m.role, m.content) for m in kv[1].messages))


async def generate_all(
    model: ModelAPI,
    requests: Sequence[GenerateRequest],
    cache: CompletionCache | None,
    counters: Counters,
    progress: Progress,
    budget: Budget | None = None,
    retry_failed: bool = False,
) -> list[tuple[Completion, bool]]:
    """``CachedBackend(model, cache, counters, budget, retry_failed).answer(requests, progress)``."""
    return await CachedBackend(model, cache, counters, budget, retry_failed).answer(requests, progress)
