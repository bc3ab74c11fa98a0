"""``--dry-run``: what a run would send, from the same stage walk, without calling any model or writing."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from xlingmed.budget import request_tokens
from xlingmed.config.plan import RunPlan
from xlingmed.config.resolve import as_plan
from xlingmed.engine.plan import Plan, prepare
from xlingmed.engine.walk import StageAnswerer, StageBatch, walk
from xlingmed.models.base import is_free
from xlingmed.store import CompletionCache
from xlingmed.types import Completion

if TYPE_CHECKING:
    from xlingmed.config import RunConfig


async def _walk_all(plan: Plan, answer: StageAnswerer) -> None:
    """Walks every stage of ``plan`` with ``answer`` in place of the models."""
    async for _ in walk(plan, answer):
        pass


def _empty_row(where: tuple[str, str, str, str, float], priced: bool) -> dict[str, Any]:
    """A row of ``dry_run`` (task, stage, model, language, temperature) before any request is counted."""
    task, stage, model, lang, temperature = where
    return {
        "task": task, "stage": stage, "model": model, "lang": lang,
        "temperature": temperature, "requests": 0, "cached": 0, "to_send": 0, "prompt_tokens": 0,
        "max_completion_tokens": 0, "cost_usd": 0.0 if priced else None, "upper_bound": False,
    }  # fmt: skip


def dry_run(config: RunPlan | RunConfig, on_plan: Callable[[Plan], None] | None = None) -> list[dict[str, Any]]:
    """What ``evaluate(config)`` would send, without calling any model or writing anything (``config``: the
    resolved ``RunPlan``, or a ``RunConfig``, resolved first).

    One row per task × stage × model × language × temperature: ``requests`` (distinct), ``cached`` (answered
    from the cache), ``to_send``, ``prompt_tokens`` (estimated, ≈ 4 characters per token), ``max_completion_tokens``
    (the upper bound sent as ``max_tokens``) and ``cost_usd`` (worst case, when the model has a price).
    Later stages (judge, translation) are built from the cached answers where there are some; where an answer is
    not known yet, the prompt holds a stand-in of full ``max_tokens`` length and ``upper_bound`` is true.

    Raises:
        ConfigError, DataError, DataNotFoundError, ModelError: as ``evaluate``.
    """
    run = as_plan(config)
    settings = run.settings
    plan = prepare(run)
    if on_plan is not None:  # the command line says what the data lost before the table (issue 61)
        on_plan(plan)
    asyncio.run(plan.aclose())
    cache = CompletionCache.open_readonly(settings.cache)
    rows: dict[tuple[str, str, str, str, float], dict[str, Any]] = {}
    seen: set[str] = set()
    guessed: set[tuple[str, int]] = set()  # (task, sample) whose earlier stage is not cached: estimates only

    async def answer(batch: StageBatch) -> list[Completion]:  # indices are positions in the task's samples
        task, stage, backend = batch.task, batch.stage, batch.backend
        price = plan.budget.price(backend.model_id)
        priced = backend.model_id in plan.budget.prices or is_free(backend.model_id)
        out = []
        for i, sample, req in zip(batch.indices, batch.samples, batch.requests, strict=True):
            key = req.cache_key(backend.model_id)
            hit = cache.get(key) if cache is not None else None
            usable = hit is not None and not (settings.retry_failed and not hit.ok)
            # later stages see the cached answer when there is one, else one of full max_tokens length
            out.append(hit if hit is not None and usable else Completion(_placeholder(req.limit())))
            if key in seen:
                continue
            seen.add(key)
            where = (task.name, stage.name, backend.model_id, sample.item.lang, req.temperature)
            row = rows.setdefault(where, _empty_row(where, priced))
            row["requests"] += 1
            row["upper_bound"] = row["upper_bound"] or (task.name, i) in guessed
            if usable:
                row["cached"] += 1
                continue
            guessed.add((task.name, i))
            tokens = request_tokens(req)
            row["to_send"] += 1
            row["prompt_tokens"] += tokens
            row["max_completion_tokens"] += req.limit()
            if row["cost_usd"] is not None:
                row["cost_usd"] += price.cost(tokens, req.limit())
        return out

    try:
        asyncio.run(_walk_all(plan, answer))
    finally:
        if cache is not None:
            cache.close()
    return list(rows.values())


def _placeholder(max_tokens: int) -> str:
    """An answer of about ``max_tokens`` tokens, standing in for one not generated yet (dry runs)."""
    words = "the patient should ask a doctor about this medicine "
    return (words * (4 * max_tokens // len(words) + 1))[: 4 * max_tokens]
