"""The one protocol every backend implements, and the registry of ``provider/model`` names.

A backend is one module with one class; it is registered by one line in ``BUILTIN`` below (or, from a user's
package, by an entry point in the ``xlingmed.models`` group, ``provider = "pkg.module:Class"``). Its properties
(in process or remote, open weights, whether tokens cost money) live in that line, so nothing else in xlingmed
tests a provider prefix, and reading them never imports the engine.
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from xlingmed.errors import ModelError
from xlingmed.registry import Registry
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
        args: the backend's own options (``-M key=value``), as sorted ``(key, value)`` pairs; each backend
            validates them with its ``Options`` model.
        cache_path: the run's completion cache; a backend may keep its own state beside it (submitted batch
            ids: ``models/openai_batch.py``).
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
    args: tuple[tuple[str, Any], ...] = ()
    cache_path: Path | None = None


@runtime_checkable
class ModelAPI(Protocol):
    """An LLM behind ``provider/model``.

    ``generate`` never raises for a failed request: it returns a ``Completion`` whose ``error`` says why, so
    one bad request never stops a run. Engines that are faster given many requests at once may also define
    ``async def generate_batch(requests) -> list[Completion]`` (same order); the generation loop then hands
    them whole batches of cache misses, ``batch_requests`` at a time (an optional attribute; 64 by default).
    A request with ``raw_prompt`` set carries one user message that is the whole prompt: a backend sends it
    verbatim, with no chat template (or returns a failed ``Completion`` saying it cannot)."""

    model_id: str
    supports_logprobs: bool
    max_concurrency: int

    async def generate(self, request: GenerateRequest) -> Completion: ...

    async def aclose(self) -> None: ...


@dataclass(frozen=True)
class Backend:
    """A registered provider.

    Attributes:
        provider: the part of ``provider/model`` before the slash.
        target: ``"package.module:Class"``; the class is imported only when a model is built. It is called
            ``Class(name, options: ModelOptions)`` and may declare ``Options`` (a pydantic model) for its
            ``-M`` arguments.
        in_process: the weights run in this process (one request at a time; nothing is sent anywhere).
        open_weights: ``True`` for engines that only run open checkpoints, ``None`` when it depends on the
            model behind the name (an OpenAI-compatible server may serve either).
        free: requests cost no money (no ``--price`` needed under ``--max-cost``).
        description: one line for ``xlingmed list``.
    """

    provider: str
    target: str
    in_process: bool
    open_weights: bool | None
    free: bool
    description: str = ""

    def load(self) -> type:
        """The backend class. Raises ModelError when its module cannot be imported (an extra not installed)."""
        module, _, cls = self.target.partition(":")
        try:
            return getattr(importlib.import_module(module), cls)  # type: ignore[no-any-return]
        except ImportError as exc:
            raise ModelError(f"backend {self.provider!r} needs a package that is not installed: {exc}") from None


# One line per built-in backend.
BUILTIN: tuple[Backend, ...] = (
    Backend("llamacpp", "xlingmed.models.llamacpp:LlamaCppModel", True, True, True,
            "GGUF files in process (llama-cpp-python); embedded: smollm2, gemma3-270m"),
    Backend("hf", "xlingmed.models.hf:HFModel", True, True, True,
            "Hugging Face transformers in process: a hub id or local folder (-M gguf_file=, device=, dtype=)"),
    Backend("seq2seq", "xlingmed.models.seq2seq:Seq2SeqModel", True, True, True,
            "encoder–decoder text-to-text in process: MarianMT translation, AraBART GEC (raw source text only)"),
    Backend("vllm", "xlingmed.models.vllm_offline:VLLMModel", True, True, True,
            "vLLM's offline engine on a GPU, a whole stage per call, n = K sampling (extra [vllm])"),
    Backend("litellm", "xlingmed.models.litellm_api:LiteLLMModel", False, None, False,
            "every provider LiteLLM knows: litellm/anthropic/…, litellm/gemini/…, litellm/bedrock/… (extra [litellm])"),
    Backend("openai", "xlingmed.models.openai_api:OpenAIModel", False, None, False,
            "any OpenAI-compatible chat server (--base-url), api.openai.com by default"),
)  # fmt: skip

def _adopt(name: str, obj: Any) -> Backend:
    """An entry point's object: a ``Backend``, or a backend class (its properties from the class's attributes)."""
    if isinstance(obj, Backend):
        return obj
    return Backend(
        provider=name,
        target=f"{obj.__module__}:{obj.__qualname__}",
        in_process=bool(getattr(obj, "in_process", False)),
        open_weights=getattr(obj, "open_weights", None),
        free=bool(getattr(obj, "free", False)),
        description=(obj.__doc__ or "").strip().splitlines()[0] if obj.__doc__ else "",
    )


BACKENDS: Registry[Backend] = Registry("model provider", "xlingmed.models", adopt=_adopt, error=ModelError)
for _backend in BUILTIN:
    BACKENDS.register(_backend.provider, _backend)


def register_backend(backend: Backend) -> None:
    """Add a provider; plugins usually use the ``xlingmed.models`` entry point group instead.

    Raises:
        ConfigError: another backend already has that provider name.
    """
    BACKENDS.register(backend.provider, backend)


def backends() -> Mapping[str, Backend]:
    """Every registered provider, plugins included."""
    return BACKENDS.entries()


def split_model_id(model_id: str) -> tuple[str, str]:
    """``"openai/gpt-4o"`` → ``("openai", "gpt-4o")``.

    Raises:
        ModelError: no ``/`` or an unknown provider.
    """
    provider, sep, name = model_id.partition("/")
    if not sep or not name:
        raise ModelError(f"model {model_id!r} must be named provider/model, e.g. llamacpp/smollm2 or openai/gpt-4o")
    known = backends()
    if provider not in known:
        raise ModelError(f"unknown model provider {provider!r} in {model_id!r}; known: {', '.join(known)}")
    return provider, name


def backend_of(model_id: str) -> Backend:
    """The registered backend of ``provider/model``. Raises ModelError as ``split_model_id``."""
    return backends()[split_model_id(model_id)[0]]


def is_free(model_id: str) -> bool:
    """Whether requests to ``model_id`` cost nothing (in-process engines); unknown names count as paid."""
    try:
        return backend_of(model_id).free
    except ModelError:
        return False


def get_model(model_id: str, options: ModelOptions | None = None) -> ModelAPI:
    """Build the backend for ``model_id``; heavy resources (weights, clients) load on first use.

    Raises:
        ModelError: unknown provider, unknown embedded model, missing file or API key, a ``-M`` argument the
            backend does not take.
    """
    provider, name = split_model_id(model_id)
    options = options or ModelOptions()
    cls = backends()[provider].load()
    check_args(provider, cls, dict(options.args))
    return cls(name, options)  # type: ignore[no-any-return]


def check_args(provider: str, cls: type, args: Mapping[str, Any]) -> dict[str, Any]:
    """``-M`` arguments validated by the backend's ``Options`` model (none allowed when it has none).

    Raises:
        ModelError: an unknown key or a bad value, naming the key and the backend's keys.
    """
    model = getattr(cls, "Options", None)
    if model is None:
        if args:
            raise ModelError(f"backend {provider!r} takes no -M options (got {', '.join(args)})")
        return {}
    from pydantic import ValidationError

    try:
        return dict(model(**args).model_dump())
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors())
        raise ModelError(
            f"-M options of {provider!r}: {problems} (its options: {', '.join(model.model_fields)})"
        ) from None


class ThreadedBatches:
    """Generation in process, one batch at a time in a worker thread: the model is shared, so a second batch waits
    for the first, and the event loop stays free meanwhile. The backends that run weights in this process
    (``hf``, ``seq2seq``) inherit ``generate`` and ``generate_batch`` from it and write ``_generate_all``; each
    sets ``self._lock = asyncio.Lock()`` in its ``__init__``."""

    _lock: asyncio.Lock

    def _generate_all(self, requests: list[GenerateRequest]) -> list[Completion]:
        raise NotImplementedError

    async def generate(self, request: GenerateRequest) -> Completion:
        return (await self.generate_batch([request]))[0]

    async def generate_batch(self, requests: list[GenerateRequest]) -> list[Completion]:
        async with self._lock:  # one generation at a time: the model is shared
            return await asyncio.to_thread(self._generate_all, requests)
