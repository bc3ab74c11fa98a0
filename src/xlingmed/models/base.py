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
        max_retries: retries on 408/409/429/5xx/connection errors, with exponential backoff honouring
            ``Retry-After`` (the ``openai`` SDK's policy); then the request is recorded as failed.
        timeout_s: per-request timeout in seconds.
        n_ctx: context window for in-process GGUF models (tokens).
        n_threads: CPU threads for in-process models; ``None`` = all cores.
    """

    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    max_concurrency: int = 8
    max_retries: int = 5
    timeout_s: float = 600.0
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
