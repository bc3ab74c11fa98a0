"""Any OpenAI-compatible server through the official ``openai`` SDK: OpenAI, vLLM, Ollama, llama.cpp, TGI.

Retries, backoff and ``Retry-After`` are the SDK's (``max_retries``, capped); a request that still fails is
returned as a ``Completion`` with ``error`` set, never raised.
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

import openai

from xlingmed.errors import ModelError
from xlingmed.models.base import ModelOptions
from xlingmed.types import Completion, GenerateRequest, TokenLogprob

# The request itself is wrong (too long, invalid): resending it cannot help, so the failure is cached.
PERMANENT_STATUS = frozenset({400, 413, 422})


class OpenAIModel:
    """``openai/<model>``: chat completions against ``options.base_url`` (default api.openai.com).

    The API key is read from the environment variable ``options.api_key_env``; a local server (any
    ``base_url``) may run without one.

    Raises:
        ModelError: no ``base_url`` and no key in the environment.
    """

    supports_logprobs = True

    def __init__(self, name: str, options: ModelOptions) -> None:
        self.name = name
        self.model_id = f"openai/{name}"
        self.max_concurrency = max(1, options.max_concurrency)
        key = os.environ.get(options.api_key_env)
        if not key:
            if options.base_url is None:
                raise ModelError(
                    f"{self.model_id}: set {options.api_key_env} to your API key, or pass --base-url for a "
                    "local OpenAI-compatible server"
                )
            key = "not-needed"  # local servers ignore it, the SDK requires a value
        self._client = openai.AsyncOpenAI(
            api_key=key, base_url=options.base_url, max_retries=options.max_retries, timeout=options.timeout_s
        )
        self._sem = asyncio.Semaphore(self.max_concurrency)

    async def generate(self, request: GenerateRequest) -> Completion:
        kwargs: dict[str, Any] = {
            "model": self.name,
            "messages": [{"role": m.role, "content": m.content} for m in request.messages],
            "temperature": request.temperature,
            "top_p": request.top_p,
            "max_tokens": request.max_tokens,
            "n": 1,
        }
        if request.seed is not None:
            kwargs["seed"] = request.seed
        if request.logprobs:
            kwargs["logprobs"] = True
            if request.top_logprobs:
                kwargs["top_logprobs"] = request.top_logprobs
        start = time.perf_counter()
        async with self._sem:
            try:
                resp = await self._client.chat.completions.create(**kwargs)
            except openai.APIError as exc:
                status = getattr(exc, "status_code", None)
                reason = f"{type(exc).__name__}" + (f" ({status})" if status else "")
                return Completion(
                    text="",
                    error=f"{reason}: {exc}"[:500],
                    permanent=status in PERMANENT_STATUS,
                    latency_s=time.perf_counter() - start,
                )
        latency = time.perf_counter() - start
        if not getattr(resp, "choices", None):
            return Completion(text="", error="server returned no choices", latency_s=latency)
        choice = resp.choices[0]
        message = choice.message
        text = (message.content if message is not None else None) or ""
        refusal = getattr(message, "refusal", None) if message is not None else None
        if choice.finish_reason == "content_filter" and not refusal:
            refusal = "content_filter"
        usage = resp.usage
        return Completion(
            text=text,
            finish_reason=choice.finish_reason,
            prompt_tokens=usage.prompt_tokens if usage else 0,
            completion_tokens=usage.completion_tokens if usage else 0,
            logprobs=_logprobs(choice),
            latency_s=latency,
            refusal=refusal,
        )

    async def aclose(self) -> None:
        await self._client.close()


def _logprobs(choice: Any) -> tuple[TokenLogprob, ...] | None:
    content = getattr(getattr(choice, "logprobs", None), "content", None)
    if not content:
        return None
    return tuple(
        TokenLogprob(
            token=t.token,
            logprob=float(t.logprob),
            top={alt.token: float(alt.logprob) for alt in (t.top_logprobs or [])},
        )
        for t in content
    )
