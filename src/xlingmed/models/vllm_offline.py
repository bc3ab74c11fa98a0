"""``vllm/<hub id or folder>``: vLLM's offline engine (``vllm.LLM``) in process, given a whole stage at once.

The generation loop hands ``generate_batch`` every cache miss of a stage. They go to one ``LLM.generate`` call,
which schedules them with continuous batching; prefix caching is on, so the long shared system prompts of a task
are computed once. Requests that differ only in their sample index and seed (consistency's K samples of one
question at one temperature) become one request with ``n = K``: the prompt is prefilled once and the K outputs
are stored under their own sample indices, so a re-run, or a later run on another engine with the same cache,
finds each of them. The group's seed is that of its first sample, so the K answers reproduce for the same plan
(a group of the 5 samples still missing is another group than the full 10).

Prompts use the tokenizer's chat template when it has one, else the plain rendering (as ``hf/``); a
``raw_prompt`` request (``--preset medalpaca``) is given verbatim. Logprobs (``request.logprobs``) are vLLM's
per-token logprobs with ``top_logprobs`` alternatives.

``-M tensor_parallel_size``, ``dtype``, ``gpu_memory_utilization``, ``max_model_len``, ``enable_prefix_caching``,
``trust_remote_code`` and ``template`` pass to vLLM. Needs a GPU and ``pip install xlingmed[vllm]``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from xlingmed.errors import ModelError
from xlingmed.models.base import ModelOptions
from xlingmed.types import Completion, GenerateRequest, TokenLogprob


def n_groups(requests: Sequence[GenerateRequest]) -> list[list[int]]:
    """Positions of ``requests`` grouped for ``n``-sampling: sampled requests (temperature > 0) equal in every
    field but ``sample_index`` and ``seed`` form one group, in order; a greedy request is a group of its own
    (its samples would all be the same answer, and each is its own cache entry)."""
    groups: dict[Any, list[int]] = {}
    out: list[list[int]] = []
    for i, r in enumerate(requests):
        if r.temperature <= 0:
            out.append([i])
            continue
        key = replace(r, sample_index=0, seed=None)
        if key not in groups:
            groups[key] = []
            out.append(groups[key])
        groups[key].append(i)
    return out


class VLLMModel:
    """vLLM offline engine, in process (``vllm/<hub id or folder>``)."""

    supports_logprobs = True
    max_concurrency = 1
    # cache misses handed to one engine call: enough for continuous batching to keep a GPU busy; each call's
    # answers are committed to the cache when it returns, so an interruption loses at most one call's work
    batch_requests = 4096

    class Options(BaseModel):
        """``-M`` options, passed to ``vllm.LLM``: ``tensor_parallel_size`` (GPUs per replica), ``dtype``,
        ``gpu_memory_utilization`` (share of each GPU's memory vLLM may take), ``max_model_len`` (context),
        ``enable_prefix_caching`` (on), ``trust_remote_code``; ``template`` (chat: the tokenizer's; plain)."""

        model_config = ConfigDict(extra="forbid")
        tensor_parallel_size: int = Field(default=1, ge=1)
        dtype: Literal["auto", "float16", "bfloat16", "float32"] = "auto"
        gpu_memory_utilization: float = Field(default=0.9, gt=0, le=1)
        max_model_len: int | None = Field(default=None, ge=16)
        enable_prefix_caching: bool = True
        trust_remote_code: bool = False
        template: Literal["chat", "plain"] | None = None

    def __init__(self, name: str, options: ModelOptions) -> None:
        self.name = name
        self.model_id = f"vllm/{name}"
        self.options = options
        self.args = self.Options(**dict(options.args))
        self._llm: Any = None
        self._lock = asyncio.Lock()
        self.engine_calls = 0  # LLM.generate calls (a test and bench figure)

    def _load(self) -> Any:
        if self._llm is None:
            try:
                from vllm import LLM
            except ImportError:
                raise ModelError("the vllm/ backend needs vLLM and a GPU: pip install 'xlingmed[vllm]'") from None
            source = str(Path(self.name).expanduser()) if Path(self.name).expanduser().exists() else self.name
            try:
                self._llm = LLM(
                    model=source,
                    tensor_parallel_size=self.args.tensor_parallel_size,
                    dtype=self.args.dtype,
                    gpu_memory_utilization=self.args.gpu_memory_utilization,
                    max_model_len=self.args.max_model_len,
                    enable_prefix_caching=self.args.enable_prefix_caching,
                    trust_remote_code=self.args.trust_remote_code,
                )
            except (OSError, ValueError, RuntimeError) as exc:
                raise ModelError(f"vllm/{self.name}: cannot start the engine: {exc}") from None
        return self._llm

    def prompt(self, request: GenerateRequest) -> str:
        """The text the model continues: a ``raw_prompt`` verbatim, else the chat template or the plain
        rendering (``models/hf.py``)."""
        if request.raw_prompt:
            return request.prompt_text
        tokenizer = self._load().get_tokenizer()
        template = self.args.template or ("chat" if getattr(tokenizer, "chat_template", None) else "plain")
        if template == "chat":
            messages = [{"role": m.role, "content": m.content} for m in request.messages]
            return str(tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False))
        from xlingmed.models.hf import render

        return render(request.messages, "plain")

    async def generate(self, request: GenerateRequest) -> Completion:
        return (await self.generate_batch([request]))[0]

    async def generate_batch(self, requests: list[GenerateRequest]) -> list[Completion]:
        async with self._lock:  # one engine call at a time: the engine schedules the batch itself
            return await asyncio.to_thread(self._generate_all, requests)

    def _generate_all(self, requests: list[GenerateRequest]) -> list[Completion]:
        try:
            llm = self._load()
        except ModelError as exc:
            return [Completion(text="", error=str(exc)[:500]) for _ in requests]
        from vllm import SamplingParams

        groups = n_groups(requests)
        prompts, params = [], []
        for group in groups:
            first = requests[group[0]]
            kwargs: dict[str, Any] = {
                "n": len(group),
                "temperature": first.temperature,
                "top_p": first.top_p,
                "max_tokens": first.max_tokens,
                "seed": first.seed,
            }
            if first.top_k is not None:
                kwargs["top_k"] = first.top_k
            if first.logprobs:
                kwargs["logprobs"] = max(1, first.top_logprobs)
            prompts.append(self.prompt(first))
            params.append(SamplingParams(**kwargs))
        begin = time.perf_counter()
        try:
            self.engine_calls += 1
            results = llm.generate(prompts, params, use_tqdm=False)
        except (ValueError, RuntimeError) as exc:  # e.g. a prompt longer than max_model_len
            return [Completion(text="", error=f"{type(exc).__name__}: {exc}"[:500]) for _ in requests]
        each = (time.perf_counter() - begin) / max(1, len(requests))
        out: list[Completion | None] = [None] * len(requests)
        for group, result in zip(groups, results, strict=True):
            n_prompt = len(result.prompt_token_ids or ())
            for index, sample in zip(group, result.outputs, strict=True):
                out[index] = Completion(
                    text=sample.text,
                    finish_reason=sample.finish_reason,
                    prompt_tokens=n_prompt,
                    completion_tokens=len(sample.token_ids),
                    logprobs=_logprobs(sample) if requests[index].logprobs else None,
                    latency_s=each,
                )
        return [c for c in out if c is not None]

    async def aclose(self) -> None:
        self._llm = None


def _logprobs(sample: Any) -> tuple[TokenLogprob, ...] | None:
    """vLLM's per-position ``{token_id: Logprob}`` (the sampled token always among them) → ``TokenLogprob``."""
    steps = getattr(sample, "logprobs", None)
    if not steps:
        return None
    out = []
    for token_id, alternatives in zip(sample.token_ids, steps, strict=False):
        chosen = alternatives.get(token_id)
        top = {(lp.decoded_token or ""): float(lp.logprob) for lp in alternatives.values()}
        out.append(
            TokenLogprob(
                token=(chosen.decoded_token or "") if chosen is not None else "",
                logprob=float(chosen.logprob) if chosen is not None else float("nan"),
                top=top,
            )
        )
    return tuple(out)
