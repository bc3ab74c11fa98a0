"""The cache and budget wrapper around a backend: batching engines get whole batches of cache misses."""

from __future__ import annotations

import asyncio
from pathlib import Path

from xlingmed.budget import Budget
from xlingmed.engine.generate import BATCH_SIZE, CachedBackend, Counters
from xlingmed.errors import BudgetExhausted
from xlingmed.store import CompletionCache
from xlingmed.types import Completion, GenerateRequest, Message


class BatchEngine:
    """An in-process engine that is given many requests at once (as vLLM's offline engine is)."""

    model_id = "batch/reverse"
    supports_logprobs = False
    max_concurrency = 1

    def __init__(self) -> None:
        self.batches: list[int] = []

    async def generate(self, request: GenerateRequest) -> Completion:
        raise AssertionError("a batching engine is handed batches")

    async def generate_batch(self, requests: list[GenerateRequest]) -> list[Completion]:
        self.batches.append(len(requests))
        return [Completion(r.messages[-1].content[::-1], "stop", completion_tokens=1) for r in requests]

    async def aclose(self) -> None:
        pass


def _requests(n: int) -> list[GenerateRequest]:
    return [GenerateRequest(messages=(Message("user", f"question {i}"),), max_tokens=4) for i in range(n)]


def test_generate_batch_gets_the_misses_in_batches(tmp_path: Path) -> None:
    engine, counters = BatchEngine(), Counters()
    cache = CompletionCache(tmp_path / "c.sqlite")
    backend = CachedBackend(engine, cache, counters)
    reqs = _requests(2 * BATCH_SIZE + 2)
    first = asyncio.run(backend.answer([*reqs, reqs[0]]))  # a repeated request is sent once
    assert engine.batches == [BATCH_SIZE, BATCH_SIZE, 2]
    assert [c.text for c, _ in first[:3]] == ["0 noitseuq", "1 noitseuq", "2 noitseuq"]
    assert first[-1] == first[0] and counters.backend_calls == len(reqs)
    again = asyncio.run(backend.answer(reqs))  # everything from the cache, nothing sent
    assert engine.batches == [BATCH_SIZE, BATCH_SIZE, 2] and all(cached for _, cached in again)
    assert counters.cache_hits == len(reqs)
    cache.close()


def test_generate_batch_stops_at_the_budget(tmp_path: Path) -> None:
    engine = BatchEngine()
    backend = CachedBackend(engine, CompletionCache(tmp_path / "c.sqlite"), Counters(), Budget(max_requests=70))
    try:
        asyncio.run(backend.answer(_requests(100)))
        raise AssertionError("the budget must stop the run")
    except BudgetExhausted as exc:
        assert "--max-requests 70" in str(exc)
    assert engine.batches == [BATCH_SIZE, 6]  # never more than the budget, and what was sent is cached
    assert sum(1 for r in _requests(100) if backend.lookup(r) is not None) == 70


def test_a_one_at_a_time_backend_gets_prompts_that_share_a_prefix_in_a_row() -> None:
    """``send_order``: sorted by prompt for a backend of concurrency 1 (the same prompt at two temperatures and
    the claims of one question follow each other), as planned for any other."""
    from xlingmed.engine.generate import send_order

    def req(question: str, claim: str, t: float) -> GenerateRequest:
        return GenerateRequest(messages=(Message("system", "Yes or no."), Message("user", f"{question}\n{claim}")),
                               temperature=t)  # fmt: skip

    planned = [req(q, c, t) for t in (0.0, 1.0) for q in ("Q2", "Q1") for c in ("b", "a")]
    todo = {f"k{i}": r for i, r in enumerate(planned)}
    sorted_ = [r for _, r in send_order(todo, 1)]
    assert [(r.messages[1].content, r.temperature) for r in sorted_] == [
        (f"{q}\n{c}", t) for q in ("Q1", "Q2") for c in ("a", "b") for t in (0.0, 1.0)
    ]
    assert [r for _, r in send_order(todo, 8)] == planned
