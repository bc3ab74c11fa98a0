"""Generation for benchmark construction: one ``provider/model`` behind the run's completion cache.

Translations, back-translations, paraphrases, corrections and audit ratings are generations like any other:
``Generator`` sends them through ``engine.generate.CachedBackend``, so each is stored the moment it arrives, an
interrupted command resumes where it stopped (the same command again), and a re-run sends nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from xlingmed.budget import Budget
from xlingmed.engine.generate import CachedBackend, Counters, NoProgress, Progress
from xlingmed.models.base import ModelAPI, ModelOptions, get_model
from xlingmed.store import CompletionCache, default_cache_path
from xlingmed.types import Completion, GenerateRequest


@dataclass
class Generator:
    """Backends by ``provider/model``, sharing one completion cache and one set of counters.

    Attributes:
        options: backend settings (``base_url``, concurrency, retries, ``-M`` args applied to every model).
        cache_path: the completion cache (default: ``$XLINGMED_CACHE`` or the user cache folder).
        max_requests: stop cleanly after this many backend calls (``BudgetExhausted``; the same command resumes).
        counters: backend calls, cache hits and failures so far.
    """

    options: ModelOptions = field(default_factory=ModelOptions)
    cache_path: Path | None = None
    max_requests: int | None = None
    counters: Counters = field(default_factory=Counters)
    _backends: dict[str, ModelAPI] = field(default_factory=dict)
    _cache: CompletionCache | None = None
    _budget: Budget | None = None

    def backend(self, model_id: str) -> ModelAPI:
        """The backend of ``model_id`` (built once).

        Raises:
            ModelError: unknown provider or model, a bad ``-M`` option.
        """
        if model_id not in self._backends:
            path = self.cache_path or default_cache_path()
            self._backends[model_id] = get_model(model_id, replace(self.options, cache_path=path))
        return self._backends[model_id]

    async def answer(
        self, model_id: str, requests: Sequence[GenerateRequest], progress: Progress | None = None
    ) -> list[Completion]:
        """Completions of ``requests`` by ``model_id``, in order: from the cache where possible, the rest
        generated and cached as they arrive. Failed requests come back with ``error`` set.

        Raises:
            ModelError: see ``backend``.
            BudgetExhausted: ``max_requests`` reached (everything answered so far is cached).
        """
        backend = self.backend(model_id)
        if self._cache is None:
            self._cache = CompletionCache(self.cache_path or default_cache_path())
            self._budget = Budget(max_requests=self.max_requests)
        wrapped = CachedBackend(backend, self._cache, self.counters, self._budget)
        return [c for c, _ in await wrapped.answer(list(requests), progress or NoProgress())]

    def model_id(self, model_id: str) -> str:
        """The id a backend records for ``model_id`` (``seq2seq/`` adds its generation settings)."""
        return self.backend(model_id).model_id

    def stats(self) -> dict[str, Any]:
        return {
            "backend_calls": self.counters.backend_calls,
            "cache_hits": self.counters.cache_hits,
            "failed": self.counters.failed,
        }

    async def aclose(self) -> None:
        for backend in self._backends.values():
            await backend.aclose()
        if self._cache is not None:
            self._cache.close()


@dataclass
class ConstructResult:
    """What a construction command that writes a benchmark file wrote (translate, variants): the file (``out``),
    its record, its rows, its summary (one row per language) and the generation counters."""

    out: Path
    record: Path
    rows: list[dict[str, Any]]
    summary: list[dict[str, Any]]
    stats: dict[str, Any]


def write_record(
    what: str, head: dict[str, Any], out: Path, kind: str, rows: list[dict[str, Any]], summary: list[dict[str, Any]],
    failures: list[dict[str, Any]], provenance: dict[str, Any], gen: Generator,
) -> ConstructResult:
    """Write the JSON record beside a constructed file ``out`` (``<stem>.<what>.json``): ``head`` (what was done,
    with what), then the source's provenance, the summary, the failures, the generation counters and how to read
    the file (``read_with``); return the ``ConstructResult``. The one ending of translate and variants."""
    from xlingmed import output
    from xlingmed.construct.files import record_path

    stats = gen.stats()
    record = {**head, "source_provenance": provenance, "summary": summary, "failures": failures, "generation": stats,
              "read_with": f"{kind}:{out}"}  # fmt: skip
    path = record_path(out, what)
    output.write_json(path, record)
    return ConstructResult(out, path, rows, summary, stats)


R = TypeVar("R")


def run_step(
    step: Callable[[Generator, Progress], Awaitable[R]], generator: Generator | None, progress: Progress | None
) -> R:
    """``step(generator, progress)`` in a new event loop: the generator (default: a new one on the default cache)
    is closed at the end, whatever happens, since its clients belong to that loop. The one lifecycle of translate,
    variants and audit."""

    async def go() -> R:
        gen = generator or Generator()
        try:
            return await step(gen, progress or NoProgress())
        finally:
            await gen.aclose()

    return asyncio.run(go())
