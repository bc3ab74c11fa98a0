"""``seq2seq/<hub id or local folder>``: an encoder–decoder text-to-text model in process (``transformers``):
MarianMT translation (``Helsinki-NLP/opus-mt-en-es``; XLingEval App. A's "M-MT") and AraBART grammatical error
correction (``CAMeL-Lab/arabart-zaebuc-gec-ged-13``; MedArabiQ §4.1.6).

Such a model has no chat: it maps a text to a text. It takes ``raw_prompt`` requests only (one user message, the
source text) and returns a failed ``Completion`` naming the problem for any other, so a chat prompt is never
silently fed to a translation model. MarianMT is trained on sentences and truncates at 512 tokens, so a text is
split into lines and each line into sentences (after ``. ! ? ؟ । 。 ！ ？``), every piece is generated (batched,
greedy, ``num_beams`` beams) and the pieces are joined back with their original separators (``-M split=none``
sends the text whole). A multilingual Marian model needs a target token before the text: ``-M prefix=>>ara<<``.

Generation is greedy or beam search (temperature is ignored: the requests of ``xlingmed translate`` and
``xlingmed variant`` are all τ = 0); ``num_beams`` and ``split`` are part of the model id recorded in the cache
key (``model_id``), so changing them never returns an answer made with other settings.
"""

from __future__ import annotations

import asyncio
import re
import time
import warnings
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from xlingmed.errors import ModelError
from xlingmed.models.base import ModelOptions, ThreadedBatches
from xlingmed.types import Completion, GenerateRequest

# a sentence ends after . ! ? and their Arabic, Devanagari and CJK forms; whitespace after it is kept as separator
_SENTENCE = re.compile(r"(?<=[.!?؟।。！？])(\s+)")
_LINE = re.compile(r"(\n+)")


def split_text(text: str, mode: str = "sentence") -> list[str]:
    """``text`` as alternating pieces and separators: ``[piece, sep, piece, sep, …, piece]``; joining the list
    gives ``text`` back. ``mode``: ``sentence`` (lines, then sentences) or ``none`` (one piece)."""
    if mode == "none":
        return [text]
    out: list[str] = []
    for k, line in enumerate(_LINE.split(text)):
        if k % 2:  # a run of newlines
            out.append(line)
            continue
        out.extend(_SENTENCE.split(line))  # [sentence, space, sentence, …]: the alternation goes on
    return out


class Seq2SeqModel(ThreadedBatches):
    """A ``transformers`` encoder–decoder (``AutoModelForSeq2SeqLM``) in process (``seq2seq/<name>``)."""

    supports_logprobs = False
    max_concurrency = 1

    class Options(BaseModel):
        """``-M`` options: ``device`` (cpu, cuda, mps), ``num_beams`` (beam search width; 1 = greedy),
        ``split`` (sentence: generate line by line and sentence by sentence; none: the whole text at once),
        ``prefix`` (text put before every piece, e.g. ``>>ara<<`` for a multilingual Marian model),
        ``batch_size`` (pieces generated at once) and ``max_input_tokens`` (longer pieces are truncated, and the
        completion says so in ``finish_reason``)."""

        model_config = ConfigDict(extra="forbid")
        device: Literal["cpu", "cuda", "mps"] = "cpu"
        num_beams: int = Field(default=1, ge=1)
        split: Literal["sentence", "none"] = "sentence"
        prefix: str = ""
        batch_size: int = Field(default=16, ge=1)
        max_input_tokens: int = Field(default=512, ge=8)

    def __init__(self, name: str, options: ModelOptions) -> None:
        self.name = name
        self.args = self.Options(**dict(options.args))
        # settings that change the text are part of the id, hence of every cache key
        extra = []
        if self.args.num_beams != 1:
            extra.append(f"beams={self.args.num_beams}")
        if self.args.split != "sentence":
            extra.append(f"split={self.args.split}")
        if self.args.prefix:
            extra.append(f"prefix={self.args.prefix}")
        self.model_id = f"seq2seq/{name}" + (f"[{','.join(extra)}]" if extra else "")
        self._model: Any = None
        self._tokenizer: Any = None
        self._lock = asyncio.Lock()

    def _load(self) -> tuple[Any, Any]:
        if self._model is None:
            from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

            from xlingmed.metrics import quiet_transformers

            quiet_transformers()
            local = Path(self.name).expanduser()
            source = str(local) if local.exists() else self.name
            try:
                with warnings.catch_warnings():  # Marian's tokenizer recommends sacremoses, which it does not need
                    warnings.filterwarnings("ignore", message=".*sacremoses.*")
                    tokenizer = AutoTokenizer.from_pretrained(source)
                model = AutoModelForSeq2SeqLM.from_pretrained(source)
            except (OSError, ValueError, ImportError) as exc:
                raise ModelError(
                    f"seq2seq/{self.name}: cannot load the model (no such folder, no network for a hub id, or a "
                    f"missing package such as sentencepiece): {exc}"
                ) from None
            model = model.to(self.args.device)
            model.eval()
            self._model, self._tokenizer = model, tokenizer
        return self._model, self._tokenizer

    def _generate_all(self, requests: list[GenerateRequest]) -> list[Completion]:
        try:
            self._load()
        except ModelError as exc:
            return [Completion(text="", error=str(exc)[:500], permanent=False) for _ in requests]
        out: list[Completion | None] = [None] * len(requests)
        pieces: list[tuple[int, int, str]] = []  # (request, position in its split list, text)
        splits: dict[int, list[str]] = {}
        for i, r in enumerate(requests):
            if not r.raw_prompt or len(r.messages) != 1:
                out[i] = Completion(
                    text="",
                    error=f"{self.model_id} is a text-to-text model: it takes the source text as one raw prompt "
                    "(xlingmed translate / variant build such requests), not a chat",
                    permanent=True,
                )
                continue
            splits[i] = split_text(r.prompt_text, self.args.split)
            pieces.extend((i, k, p) for k, p in enumerate(splits[i]) if k % 2 == 0 and p.strip())
        begin = time.perf_counter()
        truncated: set[int] = set()
        results: dict[tuple[int, int], str] = {}
        tokens: dict[int, list[int]] = {}
        order = sorted(pieces, key=lambda p: len(p[2]))  # similar lengths together: little padding
        size = self.args.batch_size
        for start in range(0, len(order), size):
            chunk = order[start : start + size]
            try:
                texts, n_in, n_out, cut = self._run(
                    [p[2] for p in chunk], max(requests[p[0]].limit(512) for p in chunk)
                )
            except RuntimeError as exc:
                for i, _, _ in chunk:
                    out[i] = Completion(text="", error=f"RuntimeError: {exc}"[:500])
                continue
            for (i, k, _), text, a, b, c in zip(chunk, texts, n_in, n_out, cut, strict=True):
                results[(i, k)] = text
                tokens.setdefault(i, [0, 0])
                tokens[i][0] += a
                tokens[i][1] += b
                if c:
                    truncated.add(i)
        elapsed = (time.perf_counter() - begin) / max(1, len(requests))
        for i, parts in splits.items():
            if out[i] is not None:
                continue
            joined = "".join(results.get((i, k), p) if k % 2 == 0 and p.strip() else p for k, p in enumerate(parts))
            counts = tokens.get(i, [0, 0])
            out[i] = Completion(
                text=joined.strip(),
                finish_reason="length" if i in truncated else "stop",
                prompt_tokens=counts[0],
                completion_tokens=counts[1],
                latency_s=elapsed,
            )
        return [c if c is not None else Completion(text="", error="not generated") for c in out]

    def _run(self, texts: list[str], max_new: int) -> tuple[list[str], list[int], list[int], list[bool]]:
        """One ``generate`` call: (outputs, input tokens, output tokens, whether the input or output was cut)."""
        import torch

        model, tokenizer = self._load()
        sources = [self.args.prefix + (" " if self.args.prefix else "") + t for t in texts]
        enc = tokenizer(
            sources, return_tensors="pt", padding=True, truncation=True, max_length=self.args.max_input_tokens
        ).to(model.device)
        full = tokenizer(sources, truncation=False)["input_ids"]
        with torch.inference_mode():
            result = model.generate(**enc, max_new_tokens=max_new, num_beams=self.args.num_beams, do_sample=False)
        decoded = tokenizer.batch_decode(result, skip_special_tokens=True)
        n_in = [int(m.sum()) for m in enc["attention_mask"]]
        pad = tokenizer.pad_token_id
        n_out = [int((row != pad).sum()) for row in result]
        cut = [len(f) > self.args.max_input_tokens or n >= max_new for f, n in zip(full, n_out, strict=True)]
        return [d.strip() for d in decoded], n_in, n_out, cut

    async def aclose(self) -> None:
        self._model = None
        self._tokenizer = None
