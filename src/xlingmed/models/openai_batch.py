"""OpenAI's Batch API for ``openai/…`` with ``-M batch=true``: half the price, answers within 24 hours.

A stage's cache misses are written as JSONL (one chat-completions body per line, ``custom_id`` = the request's
cache key), uploaded (``files.create(purpose="batch")``), submitted (``batches.create``), polled until the batch
ends, and its output and error files are read back. The submitted batch ids are kept in a ledger beside the
completion cache (``<cache>.batches.json``, rewritten atomically) *before* polling starts, so an interrupted run
resumes polling the same batches instead of paying for them twice; a batch leaves the ledger once its results
are in the cache's hands.

Per line: a 200 is an answer; 400/413/422 fail permanently (cached, as for a single request); any other failure,
and every line a failed, expired or cancelled batch did not answer, goes through the backend's usual single-
request path, with its retries. At most ``batch_max_requests`` lines go in one batch (OpenAI allows 50,000).
"""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from xlingmed.types import Completion, GenerateRequest

FINAL = frozenset({"completed", "failed", "expired", "cancelled"})
PERMANENT_STATUS = frozenset({400, 413, 422})


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


Read = Callable[[dict[str, Any]], Completion]  # a chat-completion body (JSON) → Completion
Single = Callable[[GenerateRequest], Awaitable[Completion]]  # the backend's usual path, with its retries


class BatchRunner:
    """Runs requests through the Batch API of ``client`` (an ``openai.AsyncOpenAI``).

    Args:
        client: the SDK client.
        model_id: ``openai/<model>`` (the ledger and the cache keys are per model).
        ledger: where submitted batch ids are kept.
        read: turns a successful line's body into a ``Completion`` (the backend's own reader).
        single: resends a line that failed transiently, or that the batch never answered.
        max_requests: lines per batch.
        poll_s: seconds between status checks.
    """

    def __init__(
        self,
        client: Any,
        model_id: str,
        ledger: BatchLedger,
        read: Read,
        single: Single,
        *,
        max_requests: int = 50_000,
        poll_s: float = 30.0,
    ) -> None:
        self.client = client
        self.model_id = model_id
        self.ledger = ledger
        self.read = read
        self.single = single
        self.max_requests = max_requests
        self.poll_s = poll_s
        self.submitted = 0  # batches created by this runner (a test figure)
        self.resumed = 0  # batches found in the ledger and polled again

    async def run(self, requests: Sequence[GenerateRequest], bodies: Sequence[dict[str, Any]]) -> list[Completion]:
        """Completions for ``requests`` (same order); ``bodies`` are their chat-completions request bodies."""
        keys = [r.cache_key(self.model_id) for r in requests]
        wanted = set(keys)
        pending = {bid: entry for bid, entry in self.ledger.load().items() if entry.get("model") == self.model_id}
        ours = {bid: [k for k in entry["keys"] if k in wanted] for bid, entry in pending.items()}
        ours = {bid: ks for bid, ks in ours.items() if ks}
        self.resumed += len(ours)
        in_flight = {k for ks in ours.values() for k in ks}
        # one endpoint per batch: chat bodies and verbatim-prompt bodies go in separate batches
        for url in ("/v1/chat/completions", "/v1/completions"):
            fresh = [i for i, k in enumerate(keys) if k not in in_flight and _url(bodies[i]) == url]
            for start in range(0, len(fresh), self.max_requests):
                chunk = fresh[start : start + self.max_requests]
                batch_id = await self._submit([keys[i] for i in chunk], [bodies[i] for i in chunk])
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

    async def _submit(self, keys: Sequence[str], bodies: Sequence[dict[str, Any]]) -> str:
        lines = [
            json.dumps({"custom_id": k, "method": "POST", "url": _url(b), "body": b}, ensure_ascii=False)
            for k, b in zip(keys, bodies, strict=True)
        ]
        upload = await self.client.files.create(
            file=("xlingmed-batch.jsonl", ("\n".join(lines) + "\n").encode("utf-8")), purpose="batch"
        )
        batch = await self.client.batches.create(
            input_file_id=upload.id, endpoint=_url(bodies[0]), completion_window="24h"
        )
        self.ledger.add(batch.id, self.model_id, keys)  # before any wait: a restart resumes this batch
        self.submitted += 1
        return str(batch.id)

    async def _collect(self, batch_id: str) -> dict[str, Completion]:
        while True:
            batch = await self.client.batches.retrieve(batch_id)
            if batch.status in FINAL:
                break
            await asyncio.sleep(self.poll_s)
        out: dict[str, Completion] = {}
        for file_id in (batch.output_file_id, batch.error_file_id):
            if not file_id:
                continue
            content = await self.client.files.content(file_id)
            for line in content.text.splitlines():
                if line.strip():
                    key, comp = self._line(json.loads(line))
                    out[key] = comp
        return out

    def _line(self, line: dict[str, Any]) -> tuple[str, Completion]:
        key = str(line.get("custom_id"))
        response = line.get("response") or {}
        status = int(response.get("status_code") or 0)
        body = response.get("body") or {}
        if status == 200 and isinstance(body, dict):
            return key, self.read(body)
        err = (body.get("error") if isinstance(body, dict) else None) or line.get("error") or {}
        message = err.get("message", "") if isinstance(err, dict) else str(err)
        return key, Completion(
            text="", error=f"batch line failed ({status or 'no status'}): {message}"[:500],
            permanent=status in PERMANENT_STATUS,
        )  # fmt: skip


def batch_ledger_path(cache_path: Path | None) -> Path:
    """``<cache>.batches.json`` beside the completion cache (the user cache folder when there is none)."""
    if cache_path is None:
        from xlingmed.store import default_cache_path

        cache_path = default_cache_path()
    return cache_path.with_name(cache_path.name + ".batches.json")


def _url(body: dict[str, Any]) -> str:
    return "/v1/completions" if "prompt" in body else "/v1/chat/completions"
