"""``hf/<hub id or local folder>``: Hugging Face ``transformers`` generation in process.

The model and tokenizer load with ``AutoModelForCausalLM`` / ``AutoTokenizer`` from a hub id (users with network)
or a local folder, or from a GGUF file with ``-M gguf_file=NAME`` (transformers de-quantizes it; needs the
``gguf`` package). Prompts use the tokenizer's chat template when it has one, else a plain ``User:``/``Assistant:``
rendering (``-M template=plain``) or the Alpaca template (``-M template=alpaca``, MedAlpaca's). A ``raw_prompt``
request (``--preset medalpaca``) is given to the model verbatim.

Batching: greedy requests (temperature 0) of one stage are generated together, sorted by prompt length, left
padded, ``-M batch_size`` at a time; the batch is halved on an out-of-memory error. A sampled request is generated
alone, after ``torch.manual_seed(seed)``, so that each of K samples has its own seed and a re-run reproduces it.
Logprobs (``request.logprobs``) are those of each generated token, with the ``top_logprobs`` alternatives: the
verifiability AUC reads the first.
"""

from __future__ import annotations

import asyncio
import threading
import time
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from xlingmed.errors import ModelError
from xlingmed.models.base import ModelOptions, ThreadedBatches
from xlingmed.types import Completion, GenerateRequest, Message, TokenLogprob

ALPACA = (
    "Below is an instruction that describes a task. Write a response that appropriately completes the request.\n\n"
    "### Instruction:\n{instruction}\n\n### Response:\n"
)


@dataclass(eq=False)
class _Weights:
    """A loaded model and tokenizer, with the lock every generation on them takes (``torch.manual_seed`` is
    process-wide, so two runs sampling on shared weights at once would mix their seeds)."""

    model: Any
    tokenizer: Any
    lock: threading.Lock = field(default_factory=threading.Lock)


# Weights loaded in this process, shared by every HFModel with the same source and load options while one of them
# holds them: a notebook's second evaluate() (or a test's) does not load them again (a GGUF is de-quantized anew,
# ~20 s for a 135M model on CPU). Weak: they are freed when the last run holding them is closed.
_LOADED: weakref.WeakValueDictionary[tuple[Any, ...], _Weights] = weakref.WeakValueDictionary()
_LOADING = threading.Lock()


def render(messages: tuple[Message, ...], template: str) -> str:
    """A prompt for a model without a chat template: ``plain`` (``User:``/``Assistant:`` turns, as the llama.cpp
    backend renders a base model's prompt) or ``alpaca`` (the system and user messages as the instruction)."""
    if template == "alpaca":
        return ALPACA.format(instruction="\n\n".join(m.content for m in messages))
    from xlingmed.models.llamacpp import render_plain

    return str(render_plain(messages))


class HFModel(ThreadedBatches):
    """Hugging Face transformers, in process (``hf/<hub id or folder>``)."""

    supports_logprobs = True
    max_concurrency = 1

    class Options(BaseModel):
        """``-M`` options: ``device`` (cpu, cuda, mps, auto), ``dtype`` (auto, float32, bfloat16, float16),
        ``gguf_file`` (a GGUF file inside the folder), ``template`` (chat: the tokenizer's; plain; alpaca),
        ``batch_size`` (greedy prompts generated at once) and ``trust_remote_code``."""

        model_config = ConfigDict(extra="forbid")
        device: Literal["cpu", "cuda", "mps", "auto"] = "cpu"
        dtype: Literal["auto", "float32", "bfloat16", "float16"] = "auto"
        gguf_file: str | None = None
        template: Literal["chat", "plain", "alpaca"] | None = None
        batch_size: int = Field(default=8, ge=1)
        trust_remote_code: bool = False

    def __init__(self, name: str, options: ModelOptions) -> None:
        self.name = name
        self.model_id = f"hf/{name}"
        self.options = options
        self.args = self.Options(**dict(options.args))
        self._weights: _Weights | None = None
        self._lock = asyncio.Lock()

    def _load(self) -> tuple[Any, Any]:
        weights = self._load_weights()
        return weights.model, weights.tokenizer

    def _load_weights(self) -> _Weights:
        if self._weights is not None:
            return self._weights
        source = str(Path(self.name).expanduser()) if Path(self.name).expanduser().exists() else self.name
        a = self.args
        key = (source, a.gguf_file, a.dtype, a.device, a.trust_remote_code)
        with _LOADING:
            weights = _LOADED.get(key)
            if weights is None:
                weights = _LOADED[key] = self._read(source)
        self._weights = weights
        return weights

    def _read(self, source: str) -> _Weights:
        """Load the weights and tokenizer (``ModelError`` when they cannot be read)."""
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        common: dict[str, Any] = {"trust_remote_code": self.args.trust_remote_code}
        if self.args.gguf_file:
            common["gguf_file"] = self.args.gguf_file
        try:
            tokenizer = AutoTokenizer.from_pretrained(source, **common)
            dtype = "auto" if self.args.dtype == "auto" else getattr(torch, self.args.dtype)
            model: Any = AutoModelForCausalLM.from_pretrained(
                source, dtype=dtype, device_map="auto" if self.args.device == "auto" else None, **common
            )
        except (OSError, ValueError, ImportError) as exc:
            raise ModelError(
                f"hf/{self.name}: cannot load the model (no such folder, no network for a hub id, or a "
                f"missing package such as gguf): {exc}"
            ) from None
        if self.args.device != "auto":
            model = model.to(self.args.device)
        model.eval()
        tokenizer.padding_side = "left"  # generation continues every row from its own last token
        if tokenizer.pad_token is None:
            tokenizer.pad_token = tokenizer.eos_token
        return _Weights(model, tokenizer)

    def _template(self) -> str:
        _, tokenizer = self._load()
        if self.args.template is not None:
            return self.args.template
        return "chat" if getattr(tokenizer, "chat_template", None) else "plain"

    def prompt(self, request: GenerateRequest) -> str:
        """The text the model continues: a ``raw_prompt`` verbatim (after the tokenizer's BOS, as a tokenizer
        adds it by default), else the chat template applied, or ``render``."""
        _, tokenizer = self._load()
        if request.raw_prompt:
            bos = tokenizer.bos_token or ""
            text = request.prompt_text
            return text if text.startswith(bos) else bos + text
        template = self._template()
        if template == "chat":
            messages = [{"role": m.role, "content": m.content} for m in request.messages]
            return str(tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False))
        return render(request.messages, template)

    def _generate_all(self, requests: list[GenerateRequest]) -> list[Completion]:
        try:
            weights = self._load_weights()
        except ModelError as exc:
            return [Completion(text="", error=str(exc)[:500]) for _ in requests]
        with weights.lock:  # shared weights: one generation at a time in this process
            return self._generate_locked(requests)

    def _generate_locked(self, requests: list[GenerateRequest]) -> list[Completion]:
        out: list[Completion | None] = [None] * len(requests)
        greedy = [i for i, r in enumerate(requests) if r.temperature == 0]
        # greedy prompts together, shortest first (little padding); sampled ones alone, each with its seed
        prompts = {i: self.prompt(requests[i]) for i in range(len(requests))}
        greedy.sort(key=lambda i: len(prompts[i]))
        size = self.args.batch_size
        start = 0
        while start < len(greedy):
            chunk = greedy[start : start + size]
            try:
                done = self._run([requests[i] for i in chunk], [prompts[i] for i in chunk])
            except RuntimeError as exc:
                if "out of memory" in str(exc).lower() and size > 1:
                    size = max(1, size // 2)  # then retry the same chunk smaller
                    continue
                done = [Completion(text="", error=f"RuntimeError: {exc}"[:500]) for _ in chunk]
            for i, comp in zip(chunk, done, strict=True):
                out[i] = comp
            start += len(chunk)
        for i, r in enumerate(requests):
            if out[i] is None:
                try:
                    out[i] = self._run([r], [prompts[i]])[0]
                except RuntimeError as exc:
                    out[i] = Completion(text="", error=f"RuntimeError: {exc}"[:500])
        return [c for c in out if c is not None]

    def _run(self, requests: list[GenerateRequest], prompts: list[str]) -> list[Completion]:
        """One ``model.generate`` call for requests that share their sampling settings (one request when
        sampled)."""
        import torch

        model, tokenizer = self._load()
        first = requests[0]
        begin = time.perf_counter()
        enc = tokenizer(prompts, return_tensors="pt", padding=True, add_special_tokens=False).to(model.device)
        kwargs: dict[str, Any] = {
            "max_new_tokens": max(r.limit(_context(model) - enc["input_ids"].shape[1]) for r in requests),
            "pad_token_id": tokenizer.pad_token_id,
            "return_dict_in_generate": True,
            "output_logits": any(r.logprobs for r in requests),  # raw logits: the model's own distribution
        }
        if first.temperature > 0:
            if first.seed is not None:
                torch.manual_seed(first.seed)
            kwargs.update(do_sample=True, temperature=first.temperature, top_p=first.top_p)
            if first.top_k is not None:  # else the model's generation_config (transformers: 50)
                kwargs["top_k"] = first.top_k
        else:
            kwargs.update(do_sample=False, temperature=None, top_p=None, top_k=None)
        with torch.inference_mode():
            result = model.generate(**enc, **kwargs)
        elapsed = (time.perf_counter() - begin) / len(requests)
        width = enc["input_ids"].shape[1]
        completions = []
        for row, r in enumerate(requests):
            new = result.sequences[row, width:][: r.limit(len(result.sequences[row]))]
            ended = (new == tokenizer.eos_token_id).nonzero()
            n = int(ended[0, 0]) if len(ended) else len(new)
            text = tokenizer.decode(new[:n], skip_special_tokens=True)
            logprobs = None
            if r.logprobs and result.logits:
                logprobs = self._logprobs(result.logits, row, new[:n], max(1, r.top_logprobs))
            completions.append(
                Completion(
                    text=text,
                    finish_reason="stop" if len(ended) else "length",
                    prompt_tokens=int(enc["attention_mask"][row].sum()),
                    completion_tokens=n,
                    logprobs=logprobs,
                    latency_s=elapsed,
                )
            )
        return completions

    def _logprobs(self, logits: Any, row: int, tokens: Any, top_k: int) -> tuple[TokenLogprob, ...]:
        import torch

        _, tokenizer = self._load()
        out = []
        for step, token in enumerate(tokens):
            logp = torch.log_softmax(logits[step][row].float(), dim=-1)
            values, ids = torch.topk(logp, top_k)
            top: dict[str, float] = {}
            for v, t in zip(values.tolist(), ids.tolist(), strict=True):
                top.setdefault(tokenizer.decode([t]), float(v))
            out.append(TokenLogprob(token=tokenizer.decode([int(token)]), logprob=float(logp[int(token)]), top=top))
        return tuple(out)

    async def aclose(self) -> None:
        self._weights = None  # freed once no other open run holds the same weights


def _context(model: Any) -> int:
    """The model's context window (its config's ``max_position_embeddings``; 2,048 where it states none): an
    uncapped request writes until it stops or the window is full."""
    return int(getattr(model.config, "max_position_embeddings", None) or 2048)
