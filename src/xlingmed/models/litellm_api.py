"""``litellm/<provider>/<model>``: every provider LiteLLM knows (Anthropic, Gemini/Vertex, Bedrock, Azure OpenAI,
Mistral, DeepSeek, Together, Groq…), through the LiteLLM SDK.

LiteLLM reads each provider's usual environment variables (``ANTHROPIC_API_KEY``, ``GEMINI_API_KEY``, AWS
credentials…) itself; xlingmed never reads, stores or logs them. Its exceptions subclass the ``openai`` SDK's, so
the OpenAI backend's failure mapping applies unchanged: 429/503/529 slow the whole backend down, 408/409/5xx,
timeouts and connection errors are resent with backoff, 400/413/422 fail permanently (cached), 401/403/404 fail
without being cached. LiteLLM's own retries are off (``num_retries=0``): pacing and retries are xlingmed's.
``--base-url`` becomes LiteLLM's ``api_base`` (a local OpenAI-compatible server: ``litellm/openai/<model>``).
Under ``--max-cost`` a model without ``--price`` is priced from LiteLLM's cost map (``list_price``).
"""

from __future__ import annotations

import os
import random
from typing import Any

from pydantic import Field

from xlingmed.errors import ModelError
from xlingmed.models.anthropic_batch import MAX_REQUESTS, AnthropicBatches, message_params
from xlingmed.models.base import ModelOptions
from xlingmed.models.batch import BatchRunner
from xlingmed.models.openai_api import OpenAIModel
from xlingmed.models.pacing import AdaptiveConcurrency, RateLimits, RetryPolicy
from xlingmed.types import Completion, GenerateRequest

# LiteLLM fetches its price map from the network at import unless told to use the copy it ships.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


class LiteLLMModel(OpenAIModel):
    """``litellm/<provider>/<model>`` (see the module docstring)."""

    supports_logprobs = True

    class Options(OpenAIModel.Options):
        """``-M`` options: OpenAI's (``batch``, ``batch_max_requests``, ``batch_poll_s``), where ``batch`` is
        ``litellm/anthropic/…`` only: Anthropic's Message Batches, half price (``models/anthropic_batch.py``),
        which allow 100,000 lines per batch."""

        batch_max_requests: int = Field(default=MAX_REQUESTS, ge=1, le=MAX_REQUESTS)

    def __init__(self, name: str, options: ModelOptions) -> None:
        import litellm

        self.name = name
        self.model_id = f"litellm/{name}"
        self.max_concurrency = max(1, options.max_concurrency)
        self._litellm = litellm
        self._base_url = options.base_url
        self._timeout = options.timeout_s
        # a key named with --api-key-env is passed on (a local server may want one); otherwise LiteLLM reads the
        # provider's own variable
        self._secret = os.environ.get(options.api_key_env, "") if options.base_url else ""
        self.limiter = AdaptiveConcurrency(self.max_concurrency)
        self._rates = RateLimits(options.rpm, options.tpm)
        self._tpm = options.tpm is not None
        self._retry = RetryPolicy(max_retries=options.max_retries, cap_s=options.retry_cap_s)
        self._rng = random.Random()
        self.attempts = 0
        self._batches: AnthropicBatches | None = None
        args = self.Options(**dict(options.args))
        self.batch: BatchRunner | None = None
        if args.batch:
            self._anthropic_batches(options, args)

    def _anthropic_batches(self, options: ModelOptions, args: Options) -> None:
        provider, _, model = self.name.partition("/")
        if provider != "anthropic":
            raise ModelError(
                f"{self.model_id}: -M batch=true takes litellm/anthropic/… (Message Batches); for OpenAI's Batch "
                "API use openai/<model> -M batch=true"
            )
        key = os.environ.get("ANTHROPIC_API_KEY") or self._secret
        if not key:
            raise ModelError(f"{self.model_id}: -M batch=true needs ANTHROPIC_API_KEY")
        self._batches = AnthropicBatches(options.base_url or "https://api.anthropic.com", key, options.timeout_s)
        self._model_name = model
        self.batch = BatchRunner.beside_cache(
            self._batches, self.model_id, options.cache_path, self.generate, args.batch_max_requests, args.batch_poll_s
        )
        self.batch_requests = args.batch_max_requests
        self.generate_batch = self._generate_batch

    async def _generate_batch(self, requests: list[GenerateRequest]) -> list[Completion]:
        assert self.batch is not None
        verbatim = [r for r in requests if r.raw_prompt]
        if verbatim:  # the Messages API has no verbatim-prompt form: fail them, permanently, by name
            reason = "Anthropic's Messages API takes no verbatim prompt (raw_prompt; --preset medalpaca)"
            done = {id(r): Completion(text="", error=reason, permanent=True) for r in verbatim}
            rest = [r for r in requests if not r.raw_prompt]
            answered = iter(await self.batch.run(rest, [message_params(self._model_name, r) for r in rest]))
            return [done[id(r)] if r.raw_prompt else next(answered) for r in requests]
        return await self.batch.run(requests, [message_params(self._model_name, r) for r in requests])

    def list_price(self) -> tuple[float, float] | None:
        """(USD per 1M prompt tokens, USD per 1M completion tokens) from the cost map LiteLLM ships; ``None`` for a
        model it does not know (a local server, a new model). ``--max-cost`` uses it when ``--price`` names none."""
        try:
            info = self._litellm.get_model_info(model=self.name)
        except Exception:  # LiteLLM raises a bare Exception for an unmapped model
            return None
        prompt, completion = info.get("input_cost_per_token"), info.get("output_cost_per_token")
        if prompt is None or completion is None:
            return None
        return float(prompt) * 1e6, float(completion) * 1e6

    async def _call(self, kwargs: dict[str, Any]) -> Any:
        extra: dict[str, Any] = {"num_retries": 0, "timeout": self._timeout}
        if self._base_url is not None:
            extra["api_base"] = self._base_url
            extra["api_key"] = self._secret or "not-needed"
        kwargs = dict(kwargs)
        if "extra_body" in kwargs:  # LiteLLM maps top_k onto each provider's own parameter
            kwargs.update(kwargs.pop("extra_body"))
        if "prompt" in kwargs:
            return await self._litellm.atext_completion(**kwargs, **extra)
        return await self._litellm.acompletion(**kwargs, **extra)

    async def aclose(self) -> None:
        if self._batches is not None:
            await self._batches.aclose()
        # LiteLLM caches its HTTP clients per process; a run's event loop ends here, so close them and forget
        # them (a later run builds new ones on its own loop)
        close = getattr(self._litellm, "close_litellm_async_clients", None)  # LiteLLM ≥ 1.74
        if close is not None:
            await close()
        self._litellm.in_memory_llm_clients_cache.flush_cache()  # type: ignore[no-untyped-call]
