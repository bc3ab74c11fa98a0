"""The one protocol every backend implements, and the registry of ``provider/model`` names."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from xlingmed.errors import ModelError
from xlingmed.types import Completion, GenerateRequest


@dataclass(frozen=True)
class ModelOptions:
    """Backend settings that do not change an answer (so they are not part of the cache key).

    Attributes:
        base_url: OpenAI-compatible server URL (``openai/…`` only); ``None`` means api.openai.com.
        api_key_env: name of the environment variable holding the API key (never the key itself).
        max_concurrency: requests in flight at once (``openai/…``); in-process models run one at a time.
        max_retries: resends on 408/409/429/5xx, timeouts, connection errors and malformed bodies, with
            jittered exponential backoff honouring ``Retry-After`` (``models/pacing.py``); then the request is
            recorded as failed.
        timeout_s: per-request timeout in seconds.
        retry_cap_s: the longest wait before one resend, also for a server's ``Retry-After`` (seconds).
        rpm: requests-per-minute ceiling of this backend; ``None`` = none.
        tpm: tokens-per-minute ceiling (prompt estimate + ``max_tokens``); ``None`` = none.
        n_ctx: context window for in-process GGUF models (tokens).
        n_threads: CPU threads for in-process models; ``None`` = all cores.
    """

    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    max_concurrency: int = 8
    max_retries: int = 5
    timeout_s: float = 600.0
    retry_cap_s: float = 60.0
    rpm: float | None = None
    tpm: float | None = None
    n_ctx: int = 8192
    n_threads: int | None = None


@runtime_checkable
class ModelAPI(Protocol):
    """An LLM behind ``provider/model``.

    ``generate`` never raises for a failed request: it returns a ``Completion`` whose ``error`` says why, so
    one bad request never stops a run.
    """

    model_id: str
    supports_logprobs: bool
    max_concurrency: int

    async def generate(self, request: GenerateRequest) -> Completion: ...

    async def aclose(self) -> None: ...


PROVIDERS = ("llamacpp", "openai")


def split_model_id(model_id: str) -> tuple[str, str]:
    """``"openai/gpt-4o"`` → ``("openai", "gpt-4o")``.

    Raises:
        ModelError: no ``/`` or an unknown provider.
    """
    provider, sep, name = model_id.partition("/")
    if not sep or not name:
        raise ModelError(f"model {model_id!r} must be named provider/model, e.g. llamacpp/smollm2 or openai/gpt-4o")
    if provider not in PROVIDERS:
        raise ModelError(f"unknown model provider {provider!r} in {model_id!r}; known: {', '.join(PROVIDERS)}")
    return provider, name


def get_model(model_id: str, options: ModelOptions | None = None) -> ModelAPI:
    """Build the backend for ``model_id``; heavy resources (weights, clients) load on first use.

    Raises:
        ModelError: unknown provider, unknown embedded model, missing file or API key.
    """
    provider, name = split_model_id(model_id)
    options = options or ModelOptions()
    if provider == "llamacpp":
        from xlingmed.models.llamacpp import LlamaCppModel

        return LlamaCppModel(name, options)
    from xlingmed.models.openai_api import OpenAIModel

    return OpenAIModel(name, options)
