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

from pydantic import BaseModel, ConfigDict

from xlingmed.models.base import ModelOptions
from xlingmed.models.openai_api import OpenAIModel
from xlingmed.models.pacing import AdaptiveConcurrency, RateLimits, RetryPolicy

# LiteLLM fetches its price map from the network at import unless told to use the copy it ships.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


class LiteLLMModel(OpenAIModel):
    """``litellm/<provider>/<model>`` (see the module docstring)."""

    supports_logprobs = True

    class Options(BaseModel):
        """No ``-M`` options (the OpenAI backend's ``batch`` is OpenAI's Batch API, which this route lacks)."""

        model_config = ConfigDict(extra="forbid")

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
        # LiteLLM caches its HTTP clients per process; a run's event loop ends here, so close them and forget
        # them (a later run builds new ones on its own loop)
        close = getattr(self._litellm, "close_litellm_async_clients", None)  # LiteLLM ≥ 1.74
        if close is not None:
            await close()
        self._litellm.in_memory_llm_clients_cache.flush_cache()  # type: ignore[no-untyped-call]
