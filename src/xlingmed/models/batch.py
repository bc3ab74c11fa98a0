"""Provider batch APIs (``-M batch=true``): half the price, answers within 24 hours; the part common to all.

``BatchRunner`` sends a stage's cache misses as batch jobs through a ``BatchAPI`` (one module per provider:
``openai_batch.py``, OpenAI's Batch API; ``anthropic_batch.py``, Anthropic's Message Batches), with
``custom_id`` = the request's cache key. The submitted batch ids are kept in a ledger beside the completion cache
(``<cache>.batches.json``, rewritten atomically) *before* polling starts, so an interrupted run resumes polling
the same batches instead of paying for them twice; a batch leaves the ledger once its results are in the
cache's hands.

Per line: an answer is an answer; a failure the API calls permanent (HTTP 400/413/422, an invalid request) is
cached like a single request's; any other failure, and every line a failed, expired or cancelled batch did not
answer, goes through the backend's usual single-request path, with its retries. At most ``max_requests`` lines
go in one batch.
"""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

from xlingmed.errors import ModelError
from xlingmed.types import Completion, GenerateRequest

PERMANENT_STATUS = frozenset({400, 413, 422})


class BatchAPI(Protocol):
    """One provider's batch protocol."""

    def endpoint(self, body: dict[str, Any]) -> str:
        """Requests whose bodies name different endpoints go in different batches."""
        ...

    async def submit(self, keys: Sequence[str], bodies: Sequence[dict[str, Any]]) -> str:
        """Create one batch of ``bodies`` (each line's id its key); returns the batch id."""
        ...

    async def ended(self, batch_id: str) -> bool:
        """Whether the batch has ended (completed, failed, expired or cancelled)."""
        ...

    async def results(self, batch_id: str) -> dict[str, Completion]:
        """Each answered line's Completion by key (failed lines as failed Completions, ``permanent`` set
        where resending cannot help); lines the batch never answered are absent."""
        ...


class BatchLedger:
    """Submitted, unfinished batches of one cache: ``{batch_id: {"model": …, "keys": […]}}`` in a JSON file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self) -> dict[str, dict[str, Any]]:
        if not self.path.exists():
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise OSError(f"batch ledger {self.path} is unreadable ({exc}); delete it to resubmit") from None
        return dict(data) if isinstance(data, dict) else {}

    def _save(self, data: dict[str, dict[str, Any]]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=self.path.name, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=1)
        os.replace(tmp, self.path)  # never half-written

    def add(self, batch_id: str, model_id: str, keys: Sequence[str]) -> None:
        data = self.load()
        data[batch_id] = {"model": model_id, "keys": list(keys), "submitted_at": time.time()}
        self._save(data)

    def remove(self, batch_id: str) -> None:
        data = self.load()
        if data.pop(batch_id, None) is not None:
            self._save(data)


T = TypeVar("T")
Single = Callable[[GenerateRequest], Awaitable[Completion]]  # the backend's usual path, with its retries


class BatchRunner:
    """Runs requests through a provider's batch API.

    Args:
        api: the provider's protocol.
        model_id: ``provider/model`` (the ledger and the cache keys are per model).
        ledger: where submitted batch ids are kept.
        single: resends a line that failed transiently, or that the batch never answered.
        max_requests: lines per batch.
        poll_s: seconds between status checks.
    """

    def __init__(
        self,
        api: BatchAPI,
        model_id: str,
        ledger: BatchLedger,
        single: Single,
        *,
        max_requests: int = 50_000,
        poll_s: float = 30.0,
    ) -> None:
        self.api = api
        self.model_id = model_id
        self.ledger = ledger
        self.single = single
        self.max_requests = max_requests
        self.poll_s = poll_s
        self.submitted = 0  # batches created by this runner (a test figure)
        self.resumed = 0  # batches found in the ledger and polled again

    @classmethod
    def beside_cache(
        cls, api: BatchAPI, model_id: str, cache_path: Path | None, single: Single, max_requests: int, poll_s: float
    ) -> BatchRunner:
        """A runner whose ledger is ``<cache>.batches.json`` (``batch_ledger_path``)."""
        ledger = BatchLedger(batch_ledger_path(cache_path))
        return cls(api, model_id, ledger, single, max_requests=max_requests, poll_s=poll_s)

    async def run(self, requests: Sequence[GenerateRequest], bodies: Sequence[dict[str, Any]]) -> list[Completion]:
        """Completions for ``requests`` (same order); ``bodies`` are their request bodies in the provider's API."""
        keys = [r.cache_key(self.model_id) for r in requests]
        wanted = set(keys)
        pending = {bid: entry for bid, entry in self.ledger.load().items() if entry.get("model") == self.model_id}
        ours = {bid: [k for k in entry["keys"] if k in wanted] for bid, entry in pending.items()}
        ours = {bid: ks for bid, ks in ours.items() if ks}
        self.resumed += len(ours)
        in_flight = {k for ks in ours.values() for k in ks}
        # one endpoint per batch (OpenAI: chat and verbatim-prompt bodies go in separate batches)
        for url in dict.fromkeys(self.api.endpoint(b) for b in bodies):
            fresh = [i for i, k in enumerate(keys) if k not in in_flight and self.api.endpoint(bodies[i]) == url]
            for start in range(0, len(fresh), self.max_requests):
                chunk = fresh[start : start + self.max_requests]
                batch_id = await self._call(self.api.submit([keys[i] for i in chunk], [bodies[i] for i in chunk]))
                self.ledger.add(batch_id, self.model_id, [keys[i] for i in chunk])  # before any wait
                self.submitted += 1
                ours[batch_id] = [keys[i] for i in chunk]
        results: dict[str, Completion] = {}
        for got in await asyncio.gather(*(self._collect(b) for b in ours)):
            results.update(got)
        out = [results.get(k) for k in keys]
        again = [i for i, c in enumerate(out) if c is None or (not c.ok and not c.permanent)]
        # the usual path for what the batch did not answer: its retries, pacing and failure mapping
        for i, comp in zip(again, await asyncio.gather(*(self.single(requests[i]) for i in again)), strict=True):
            out[i] = comp
        for batch_id in ours:
            self.ledger.remove(batch_id)  # the caller caches what came back
        return [c for c in out if c is not None]

    async def _collect(self, batch_id: str) -> dict[str, Completion]:
        while not await self._call(self.api.ended(batch_id)):
            await asyncio.sleep(self.poll_s)
        return await self._call(self.api.results(batch_id))

    async def _call(self, step: Awaitable[T]) -> T:
        """A batch API call; a failure stops the run with the provider's reason (the ledger keeps what was
        submitted, so the same command resumes)."""
        try:
            return await step
        except ModelError:
            raise
        except Exception as exc:  # the SDK's connection, status and parsing errors alike
            raise ModelError(f"{self.model_id}: batch API: {type(exc).__name__}: {exc}"[:500]) from None


def batch_ledger_path(cache_path: Path | None) -> Path:
    """``<cache>.batches.json`` beside the completion cache (the user cache folder when there is none)."""
    if cache_path is None:
        from xlingmed.store import default_cache_path

        cache_path = default_cache_path()
    return cache_path.with_name(cache_path.name + ".batches.json")
