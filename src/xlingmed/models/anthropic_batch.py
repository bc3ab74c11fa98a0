"""Anthropic's Message Batches (``litellm/anthropic/… -M batch=true``), over HTTP with ``httpx``: LiteLLM reads
Anthropic batches but cannot create them, and the ``anthropic`` SDK is not a dependency.

``POST /v1/messages/batches`` with ``{"requests": [{"custom_id", "params"}]}``, ``GET /v1/messages/batches/{id}``
until ``processing_status`` is ``ended``, then the JSONL at its ``results_url``: per line ``succeeded`` (a
message), ``errored`` (an ``invalid_request_error`` cannot be fixed by resending: permanent), ``canceled`` or
``expired`` (absent: resent one by one). The common part (ledger, resends) is ``models/batch.py``. The key is
sent in the ``x-api-key`` header only and scrubbed from every error.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import httpx

from xlingmed.errors import ModelError
from xlingmed.redact import scrub
from xlingmed.types import Completion, GenerateRequest

API_VERSION = "2023-06-01"
MAX_REQUESTS = 100_000  # Anthropic's limit per batch
STOP_REASONS = {"end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length"}


def message_params(model: str, request: GenerateRequest) -> dict[str, Any]:
    """A Messages API body for ``request``: system messages go to ``system``; ``top_p`` only when not 1 (newer
    models refuse ``temperature`` and ``top_p`` together); ``top_k`` when set.

    Raises:
        ValueError: a ``raw_prompt`` request (the Messages API has no verbatim-prompt form).
    """
    if request.raw_prompt:
        raise ValueError("Anthropic's Messages API takes no verbatim prompt (raw_prompt)")
    system = "\n\n".join(m.content for m in request.messages if m.role == "system")
    params: dict[str, Any] = {
        "model": model,
        "max_tokens": request.limit(),  # the Messages API requires a cap
        "temperature": request.temperature,
        "messages": [{"role": m.role, "content": m.content} for m in request.messages if m.role != "system"],
    }
    if system:
        params["system"] = system
    if request.top_p != 1.0:
        params["top_p"] = request.top_p
    if request.top_k is not None:
        params["top_k"] = request.top_k
    return params


class AnthropicBatches:
    """``base_url``: ``https://api.anthropic.com`` (or a local server for tests); ``key``: the API key."""

    def __init__(self, base_url: str, key: str, timeout_s: float = 600.0) -> None:
        self.base = base_url.rstrip("/").removesuffix("/v1")
        self._key = key
        self._client = httpx.AsyncClient(
            timeout=timeout_s,
            headers={"x-api-key": key, "anthropic-version": API_VERSION, "content-type": "application/json"},
        )
        self._results_url: dict[str, str] = {}

    def endpoint(self, body: dict[str, Any]) -> str:
        return "/v1/messages"

    async def _json(self, method: str, url: str, **kw: Any) -> Any:
        try:
            resp = await self._client.request(method, url, **kw)
            resp.raise_for_status()
        except httpx.HTTPError as exc:
            raise ModelError(self._scrub(f"Anthropic Message Batches: {type(exc).__name__}: {exc}")) from None
        return resp

    async def submit(self, keys: Sequence[str], bodies: Sequence[dict[str, Any]]) -> str:
        requests = [{"custom_id": k, "params": b} for k, b in zip(keys, bodies, strict=True)]
        resp = await self._json("POST", f"{self.base}/v1/messages/batches", json={"requests": requests})
        return str(resp.json()["id"])

    async def ended(self, batch_id: str) -> bool:
        batch = (await self._json("GET", f"{self.base}/v1/messages/batches/{batch_id}")).json()
        if batch.get("processing_status") != "ended":
            return False
        self._results_url[batch_id] = batch.get("results_url") or f"{self.base}/v1/messages/batches/{batch_id}/results"
        return True

    async def results(self, batch_id: str) -> dict[str, Completion]:
        resp = await self._json("GET", self._results_url.pop(batch_id))
        out: dict[str, Completion] = {}
        for line in resp.text.split("\n"):  # not splitlines(): a reply may hold U+2028 raw
            if not line.strip():
                continue
            row = json.loads(line)
            result = row.get("result") or {}
            kind = result.get("type")
            if kind == "succeeded":
                out[str(row["custom_id"])] = _message(result.get("message") or {})
            elif kind == "errored":
                err = (result.get("error") or {}).get("error") or {}
                out[str(row["custom_id"])] = Completion(
                    text="",
                    error=f"batch line failed ({err.get('type', 'error')}): {err.get('message', '')}"[:500],
                    permanent=err.get("type") == "invalid_request_error",
                )
            # canceled and expired lines stay absent: the runner sends them one by one
        return out

    def _scrub(self, text: str) -> str:
        return scrub(text, self._key)

    async def aclose(self) -> None:
        await self._client.aclose()


def _message(message: dict[str, Any]) -> Completion:
    text = "".join(block.get("text", "") for block in message.get("content") or () if block.get("type") == "text")
    usage = message.get("usage") or {}
    reason = message.get("stop_reason")
    return Completion(
        text=text,
        finish_reason=STOP_REASONS.get(reason, reason) if isinstance(reason, str) else None,
        prompt_tokens=int(usage.get("input_tokens") or 0),
        completion_tokens=int(usage.get("output_tokens") or 0),
        refusal="refusal" if reason == "refusal" else None,
    )
