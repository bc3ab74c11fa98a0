"""Any OpenAI-compatible server with the official ``openai`` SDK's semantics: OpenAI, vLLM, Ollama, llama.cpp, TGI.

Each try is one HTTP request; everything around it is ours, because it must see every answer to pace the
whole backend (``models/pacing.py``): overload (429, 503, 529) halves the requests in flight and a
``Retry-After`` pauses them all; other transient failures (timeouts, connection errors, 408/409/5xx, a
malformed or empty body) are resent after a jittered backoff; a request that is wrong in itself (400, 413, 422)
or not allowed (401, 403, 404) is not resent. After ``max_retries`` resends the request is returned as a
``Completion`` with ``error`` set — never raised, so a run always finishes.

The API key is read from the environment and never leaves this module: it is scrubbed from every error text.

The request is an aiohttp POST to the SDK client's URL with its headers and timeouts, and a failure is raised
as the SDK's own exception (its status-code mapping, ``Retry-After`` on ``exc.response``); the 200 body is
validated into the few fields read (``openai_body.ResponseBody``, pydantic-core, ~3 µs). The SDK's ``create``
costs ~1 ms of client CPU a request (cProfile of its time: parameter transform 35 %, request building 22 %,
sending through httpx and its aiohttp adapter 18 %, response models 15 %), a ceiling of ~1000 requests/s that a
local vLLM server outruns; this path costs ~0.16 ms (bench/client_paths.py). The SDK client still sends the
Batch API's calls.
"""

from __future__ import annotations

import asyncio
import dataclasses
import email.utils
import json
import os
import random
import time
from dataclasses import dataclass
from typing import Any

import aiohttp
import openai
from aiohttp.helpers import get_env_proxy_for_url
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from yarl import URL

from xlingmed.errors import ModelError
from xlingmed.models.base import ModelOptions
from xlingmed.models.batch import BatchRunner
from xlingmed.models.openai_batch import OpenAIBatches
from xlingmed.models.openai_body import ResponseBody, first_completion
from xlingmed.models.pacing import AdaptiveConcurrency, RateLimits, RetryPolicy, estimate_tokens
from xlingmed.redact import redact_urls, scrub
from xlingmed.types import Completion, GenerateRequest

try:  # the HTTP library under the SDK: its exceptions carry that library's Request and Response
    import httpx2 as sdk_http
except ImportError:  # an SDK built on httpx
    import httpx as sdk_http  # type: ignore[no-redef]

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


def request_body(kwargs: dict[str, Any]) -> dict[str, Any]:
    """The JSON body for ``kwargs``: ``extra_body``'s keys at the top level, as the SDK sends them."""
    extra = kwargs.get("extra_body")
    if not extra:
        return kwargs
    body = {k: v for k, v in kwargs.items() if k != "extra_body"}
    body.update(extra)
    return body


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
        # what the SDK would send: its base URL (or OPENAI_BASE_URL), auth and default headers
        self._api_root = str(self._client.base_url).rstrip("/")
        headers = {**self._client.default_headers, **self._client.auth_headers}
        self._headers = {k: v for k, v in headers.items() if isinstance(v, str)}  # not the SDK's Omit markers
        self._http: aiohttp.ClientSession | None = None  # opened on the event loop that sends (_session)
        self._http_loop: asyncio.AbstractEventLoop | None = None
        self._proxy: dict[str, Any] = {}
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
        api = OpenAIBatches(self._client, self._read_body)
        self.batch = BatchRunner.beside_cache(
            api, self.model_id, options.cache_path, self.generate, args.batch_max_requests, args.batch_poll_s
        )
        self.batch_requests = args.batch_max_requests
        self.generate_batch = self._generate_batch

    async def _generate_batch(self, requests: list[GenerateRequest]) -> list[Completion]:
        assert self.batch is not None
        # a batch line holds the request body itself
        return await self.batch.run(requests, [request_body(self._kwargs(r)) for r in requests])

    def _read_body(self, body: dict[str, Any]) -> Completion:
        """A batch line's 200 body (chat or text completion JSON) → Completion, read as a live answer is.

        Raises:
            ValueError: not a completion, or one without choices.
        """
        parsed = ResponseBody.model_validate(body)
        if not parsed.choices:
            raise ValueError("batch line: a completion without choices")
        return self._masked(first_completion(parsed))

    def _kwargs(self, request: GenerateRequest) -> dict[str, Any]:
        """The SDK call's arguments (the request body) for ``request``."""
        kwargs: dict[str, Any] = {
            "model": self.name,
            "temperature": request.temperature,
            "top_p": request.top_p,
            "n": 1,
        }
        if request.max_tokens is not None:  # none: the server's own limit (up to the context window)
            kwargs["max_tokens"] = request.max_tokens
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
        tokens = sum(estimate_tokens(m.content) for m in request.messages) + request.limit() if self._tpm else 0
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
                return self._masked(outcome.completion)
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
        """One chat-completions call, or a completions call for a verbatim ``prompt``: the 2xx body's bytes. A
        subclass may return a response object with the SDK's attribute names instead (``models/litellm_api.py``).

        Raises:
            openai.APIStatusError, openai.APITimeoutError, openai.APIConnectionError: as the SDK's ``create``.
        """
        path = "/completions" if "prompt" in kwargs else "/chat/completions"
        return await self._post(path, request_body(kwargs))

    async def _post(self, path: str, body: dict[str, Any]) -> bytes:
        url = self._api_root + path
        # the SDK's JSON encoding (httpx's): compact, UTF-8, no NaN
        data = json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()
        try:
            async with self._session().post(url, data=data, **self._proxy) as resp:
                content = await resp.read()
                status, headers = resp.status, resp.raw_headers
        except TimeoutError as exc:  # aiohttp's timeouts subclass it (and ClientError)
            raise openai.APITimeoutError(request=sdk_http.Request("POST", url)) from exc
        except aiohttp.ClientError as exc:
            raise openai.APIConnectionError(request=sdk_http.Request("POST", url)) from exc
        if not 200 <= status < 300:
            request = sdk_http.Request("POST", url)
            response = sdk_http.Response(status, headers=list(headers), content=content, request=request)
            # the SDK's own mapping: status → exception class, message from the body
            raise self._client._make_status_error_from_response(response)
        return content

    def _session(self) -> aiohttp.ClientSession:
        """The aiohttp session of the running event loop (a session is bound to the loop that opened it)."""
        loop = asyncio.get_running_loop()
        if self._http is None or self._http_loop is not loop:
            # the SDK's aiohttp transport's settings: its library's CA trust (loaded for https only: 20-60 ms),
            # the SDK's timeout per phase (connect, read; pool wait as connect); no pool limit, the limiter bounds
            # the requests in flight
            timeout = aiohttp.ClientTimeout(sock_connect=self._timeout, sock_read=self._timeout, connect=self._timeout)
            tls = sdk_http.create_ssl_context() if self._api_root.startswith("https:") else True
            connector = aiohttp.TCPConnector(limit=0, ssl=tls)
            self._http = aiohttp.ClientSession(connector=connector, headers=self._headers, timeout=timeout)
            self._http_loop = loop
            # HTTP(S)_PROXY / NO_PROXY, read once as httpx does (aiohttp's trust_env looks them up, and ~/.netrc,
            # in a thread for every request)
            try:
                proxy, proxy_auth = get_env_proxy_for_url(URL(self._api_root))
                self._proxy = {"proxy": proxy, "proxy_auth": proxy_auth}
            except LookupError:
                self._proxy = {}
        return self._http

    def _read(self, resp: Any) -> ResponseBody:
        """``_call``'s answer, validated. Raises ``ValidationError`` (a ValueError) for a body that is not a
        completion: truncated JSON, wrong types."""
        if isinstance(resp, bytes | str):
            try:
                return ResponseBody.model_validate_json(resp)
            except ValidationError:
                # pydantic's JSON parser refuses an escaped lone surrogate ("\\ud83d": half an emoji, which some
                # servers send); Python's json reads it, and Completion makes it U+FFFD: the reply is kept
                try:
                    data = json.loads(resp)
                except ValueError:
                    data = None
                if data is None:
                    raise
                return ResponseBody.model_validate(data)
        return ResponseBody.model_validate(resp)

    async def _once(self, kwargs: dict[str, Any]) -> _Attempt:
        start = time.perf_counter()
        try:
            resp = await self._call(kwargs)
            latency = time.perf_counter() - start
            body = self._read(resp)
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
        except ValidationError as exc:  # a 200 whose body is not a completion (truncated JSON, wrong types…)
            err = exc.errors()[0]
            where = ".".join(str(x) for x in err["loc"]) or "body"
            return _Attempt(error=f"malformed response: {where}: {err['msg']}", retry=True)
        except (openai.APIError, ValueError) as exc:  # a subclass's client's parsing errors
            return _Attempt(error=f"malformed response: {type(exc).__name__}: {exc}", retry=True)
        if not body.choices:
            return _Attempt(error="server returned no choices", retry=True)
        return _Attempt(completion=first_completion(body, latency))

    def _scrub(self, text: str) -> str:
        return scrub(str(redact_urls(text)), self._secret)

    def _masked(self, completion: Completion) -> Completion:
        """A reply that quotes the key is stored with it masked, so no judge is ever sent it (issue 60)."""
        if self._secret and self._secret != "not-needed" and self._secret in completion.text:
            return dataclasses.replace(completion, text=scrub(completion.text, self._secret))
        return completion

    async def aclose(self) -> None:
        if self._http is not None:
            if self._http_loop is asyncio.get_running_loop():  # a dead loop's session cannot be closed
                await self._http.close()
            self._http = None
        await self._client.close()


def http_client(timeout_s: float) -> Any:
    """The SDK client's transport (Batch API calls): aiohttp (``openai[aiohttp]``), faster than its default httpx
    transport at high concurrency (bench/harness_overhead.py); ``None`` (the default) if it is missing."""
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
