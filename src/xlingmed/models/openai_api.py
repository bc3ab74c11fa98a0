"""Any OpenAI-compatible server through the official ``openai`` SDK: OpenAI, vLLM, Ollama, llama.cpp, TGI.

The SDK sends one HTTP request; everything around it is ours, because it must see every answer to pace the
whole backend (``models/pacing.py``): overload (429, 503, 529) halves the requests in flight and a
``Retry-After`` pauses them all; other transient failures (timeouts, connection errors, 408/409/5xx, a
malformed or empty body) are resent after a jittered backoff; a request that is wrong in itself (400, 413, 422)
or not allowed (401, 403, 404) is not resent. After ``max_retries`` resends the request is returned as a
``Completion`` with ``error`` set — never raised, so a run always finishes.

The API key is read from the environment and never leaves this module: it is scrubbed from every error text.
"""

from __future__ import annotations

import asyncio
import email.utils
import os
import random
import time
from dataclasses import dataclass
from typing import Any

import openai
from openai.types.chat import ChatCompletion
from pydantic import BaseModel, ConfigDict, Field

from xlingmed.errors import ModelError
from xlingmed.models.base import ModelOptions
from xlingmed.models.batch import BatchLedger, BatchRunner, batch_ledger_path
from xlingmed.models.openai_batch import OpenAIBatches
from xlingmed.models.pacing import AdaptiveConcurrency, RateLimits, RetryPolicy, estimate_tokens
from xlingmed.types import Completion, GenerateRequest, TokenLogprob

# The request itself is wrong (too long, invalid): resending it cannot help, so the failure is cached.
PERMANENT_STATUS = frozenset({400, 413, 422})
# Not allowed (bad key, no access, unknown model): resending cannot help now, but fixing the key can, so the
# failure is not cached.
DENIED_STATUS = frozenset({401, 403, 404})
# The server is saturated: slow the whole backend down.
OVERLOAD_STATUS = frozenset({429, 503, 529})


@dataclass(frozen=True)
class _Attempt:
    """One try's outcome: a completion, or a failure with whether to resend and how hard to back off."""

    completion: Completion | None = None
    error: str = ""
    retry: bool = False
    overload: bool = False
    retry_after_s: float | None = None
    permanent: bool = False


class OpenAIModel:
    """``openai/<model>``: chat completions against ``options.base_url`` (default api.openai.com).

    The API key is read from the environment variable ``options.api_key_env``; a local server (any
    ``base_url``) may run without one.

    Raises:
        ModelError: no ``base_url`` and no key in the environment.
    """

    supports_logprobs = True

    class Options(BaseModel):
        """``-M`` options: ``batch`` (send each stage through OpenAI's Batch API: half price, within 24 h;
        ``models/batch.py``), ``batch_max_requests`` (lines per batch; OpenAI allows 50,000),
        ``batch_poll_s`` (seconds between status checks)."""

        model_config = ConfigDict(extra="forbid")
        batch: bool = False
        batch_max_requests: int = Field(default=50_000, ge=1, le=50_000)
        batch_poll_s: float = Field(default=30.0, gt=0)

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
        self._secret = key
        self._timeout = options.timeout_s
        # max_retries=0: retries are ours (they must pace the whole backend, which the SDK's cannot)
        self._client = openai.AsyncOpenAI(
            api_key=key,
            base_url=options.base_url,
            max_retries=0,
            timeout=options.timeout_s,
            http_client=http_client(options.timeout_s),
        )
        self.limiter = AdaptiveConcurrency(self.max_concurrency)
        self._rates = RateLimits(options.rpm, options.tpm)
        self._tpm = options.tpm is not None
        self._retry = RetryPolicy(max_retries=options.max_retries, cap_s=options.retry_cap_s)
        self._rng = random.Random()
        self.attempts = 0  # HTTP requests sent, retries included (a bench and test figure)
        self._batch_setup(options)

    def _batch_setup(self, options: ModelOptions) -> None:
        """With ``-M batch=true``: a ``generate_batch`` that sends each stage's misses as Batch API jobs (the
        generation loop then hands over up to ``batch_max_requests`` at a time)."""
        args = self.Options(**dict(options.args))
        self.batch: BatchRunner | None = None
        if not args.batch:
            return
        ledger = BatchLedger(batch_ledger_path(options.cache_path))
        self.batch = BatchRunner(
            OpenAIBatches(self._client, self._read_body), self.model_id, ledger, self.generate,
            max_requests=args.batch_max_requests, poll_s=args.batch_poll_s,
        )  # fmt: skip
        self.batch_requests = args.batch_max_requests
        self.generate_batch = self._generate_batch

    async def _generate_batch(self, requests: list[GenerateRequest]) -> list[Completion]:
        assert self.batch is not None
        bodies = []
        for r in requests:  # a batch line holds the request body itself: extra_body's keys at the top level
            kwargs = self._kwargs(r)
            extra = kwargs.pop("extra_body", {})
            bodies.append({**kwargs, **extra})
        return await self.batch.run(requests, bodies)

    def _read_body(self, body: dict[str, Any]) -> Completion:
        """A batch line's 200 body (chat or text completion JSON) → Completion, through the SDK's types."""
        resp = openai.types.Completion if "text" in (body.get("choices") or [{}])[0] else ChatCompletion
        parsed = resp.model_validate(body)
        choice = parsed.choices[0]
        message = getattr(choice, "message", None)
        text = (message.content if message is not None else getattr(choice, "text", None)) or ""
        refusal = getattr(message, "refusal", None) if message is not None else None
        if choice.finish_reason == "content_filter" and not refusal:
            refusal = "content_filter"
        usage = parsed.usage
        return Completion(
            text=text,
            finish_reason=choice.finish_reason,
            prompt_tokens=usage.prompt_tokens if usage else 0,
            completion_tokens=usage.completion_tokens if usage else 0,
            logprobs=_logprobs(choice),
            refusal=refusal,
        )

    def _kwargs(self, request: GenerateRequest) -> dict[str, Any]:
        """The SDK call's arguments (the request body) for ``request``."""
        kwargs: dict[str, Any] = {
            "model": self.name,
            "temperature": request.temperature,
            "top_p": request.top_p,
            "max_tokens": request.max_tokens,
            "n": 1,
        }
        if request.raw_prompt:  # a verbatim prompt goes to /v1/completions, which applies no chat template
            kwargs["prompt"] = request.prompt_text
            if request.logprobs:
                kwargs["logprobs"] = max(1, request.top_logprobs)
        else:
            kwargs["messages"] = [{"role": m.role, "content": m.content} for m in request.messages]
            if request.logprobs:
                kwargs["logprobs"] = True
                if request.top_logprobs:
                    kwargs["top_logprobs"] = request.top_logprobs
        if request.seed is not None:
            kwargs["seed"] = request.seed
        if request.top_k is not None:
            kwargs["extra_body"] = {"top_k": request.top_k}  # vLLM's and llama.cpp's servers take it
        return kwargs

    async def generate(self, request: GenerateRequest) -> Completion:
        kwargs = self._kwargs(request)
        # counted only under a tokens-per-minute ceiling: it is a per-request cost otherwise
        tokens = sum(estimate_tokens(m.content) for m in request.messages) + request.max_tokens if self._tpm else 0
        start = time.perf_counter()
        outcome = _Attempt()
        for attempt in range(self._retry.max_retries + 1):
            await self._rates.acquire(tokens)
            async with self.limiter.slot() as started:
                self.attempts += 1
                outcome = await self._once(kwargs)
                if outcome.overload:
                    pause = None if outcome.retry_after_s is None else min(outcome.retry_after_s, self._retry.cap_s)
                    self.limiter.overloaded(started, pause)
                elif outcome.completion is not None:
                    self.limiter.succeeded()
            if outcome.completion is not None:
                return outcome.completion
            if not outcome.retry or attempt == self._retry.max_retries:
                break
            await asyncio.sleep(self._retry.delay(attempt, outcome.retry_after_s, self._rng))
        tries = f" after {attempt + 1} attempts" if attempt else ""
        return Completion(
            text="",
            error=self._scrub(f"{outcome.error}{tries}")[:500],
            permanent=outcome.permanent,
            latency_s=time.perf_counter() - start,
        )

    async def _call(self, kwargs: dict[str, Any]) -> Any:
        """One chat-completions call, or a completions call for a verbatim ``prompt`` (a subclass swaps the
        client: ``models/litellm_api.py``)."""
        if "prompt" in kwargs:
            return await self._client.completions.create(**kwargs)
        return await self._client.chat.completions.create(**kwargs)

    async def _once(self, kwargs: dict[str, Any]) -> _Attempt:
        start = time.perf_counter()
        try:
            resp = await self._call(kwargs)
        except openai.APIStatusError as exc:
            status = exc.status_code
            reason = f"{type(exc).__name__} ({status}): {exc.message}"
            return _Attempt(
                error=reason,
                retry=status >= 500 or status in {408, 409, 429},
                overload=status in OVERLOAD_STATUS,
                retry_after_s=_retry_after(exc.response.headers),
                permanent=status in PERMANENT_STATUS,
            )
        except openai.APITimeoutError:
            return _Attempt(error=f"timeout: no answer within {self._timeout} s", retry=True)
        except openai.APIConnectionError as exc:
            return _Attempt(error=f"connection error: {exc.__cause__ or exc}", retry=True)
        except (openai.APIError, ValueError) as exc:  # a 200 whose body is not a chat completion (truncated JSON…)
            return _Attempt(error=f"malformed response: {type(exc).__name__}: {exc}", retry=True)
        latency = time.perf_counter() - start
        choices = getattr(resp, "choices", None)
        if not choices:
            return _Attempt(error="server returned no choices", retry=True)
        choice = choices[0]
        message = getattr(choice, "message", None)  # a completions choice has .text instead
        text = (message.content if message is not None else getattr(choice, "text", None)) or ""
        refusal = getattr(message, "refusal", None) if message is not None else None
        if choice.finish_reason == "content_filter" and not refusal:
            refusal = "content_filter"
        usage = resp.usage
        return _Attempt(
            completion=Completion(
                text=text,
                finish_reason=choice.finish_reason,
                prompt_tokens=usage.prompt_tokens if usage else 0,
                completion_tokens=usage.completion_tokens if usage else 0,
                logprobs=_logprobs(choice),
                latency_s=latency,
                refusal=refusal,
            )
        )

    def _scrub(self, text: str) -> str:
        return text.replace(self._secret, "***") if len(self._secret) >= 8 else text

    async def aclose(self) -> None:
        await self._client.close()


def http_client(timeout_s: float) -> Any:
    """The SDK's aiohttp transport (``openai[aiohttp]``): several times the requests per second of its default
    httpx transport at high concurrency (bench/harness_overhead.py); ``None`` (the default) if it is missing."""
    try:
        return openai.DefaultAioHttpClient(timeout=timeout_s)
    except RuntimeError:
        return None


def _retry_after(headers: Any) -> float | None:
    """Seconds from ``retry-after-ms`` or ``retry-after`` (seconds or an HTTP date); ``None`` when absent."""
    if headers is None:
        return None
    for name, scale in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            return max(0.0, float(value) / scale)
        except ValueError:
            pass
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            continue
        return max(0.0, when.timestamp() - time.time())
    return None


def _logprobs(choice: Any) -> tuple[TokenLogprob, ...] | None:
    logprobs = getattr(choice, "logprobs", None)
    content = getattr(logprobs, "content", None)
    tokens = getattr(logprobs, "tokens", None)
    if not content and tokens:  # /v1/completions: parallel lists, alternatives as {token: logprob}
        values = getattr(logprobs, "token_logprobs", None) or []
        tops = getattr(logprobs, "top_logprobs", None) or []
        return tuple(
            TokenLogprob(
                token=t,
                logprob=float(v) if v is not None else float("nan"),
                top={k: float(x) for k, x in (tops[i] or {}).items()} if i < len(tops) else {},
            )
            for i, (t, v) in enumerate(zip(tokens, values, strict=False))
        )
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
