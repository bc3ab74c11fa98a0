"""Translation engines: an LLM (any ``provider/model``, with the prompt of ``prompts/construct.yaml``) or MarianMT
(``marian``, ``marian:ORG/MODEL``; the ``seq2seq/`` backend), each as the requests it answers.

XLingEval built XLingHealth with three engines (App. A, Table A2): ChatGPT ("C-GPT"), Google Translate and
MarianMT ("M-MT"). Google Translate is a web service without a maintained Python client; an LLM or Marian take
its place here. ``marian`` names the Helsinki-NLP OPUS-MT model of each language pair
(``Helsinki-NLP/opus-mt-{source}-{target}``), which exists for many pairs and not for all: ``marian:ORG/MODEL``
(a hub id or a local folder) names one explicitly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xlingmed.errors import ConfigError
from xlingmed.languages import get_language
from xlingmed.models.base import split_model_id
from xlingmed.types import GenerateRequest, Message

_FENCE = re.compile(r"```")
_LEAD = re.compile(r"^\s*(?:output|translation)\s*:\s*", re.IGNORECASE)


@dataclass(frozen=True)
class Translator:
    """One engine in one direction.

    Attributes:
        spec: what the user wrote (``openai/gpt-4o``, ``marian``, ``marian:ORG/MODEL``).
        model: the ``provider/model`` that answers (``seq2seq/Helsinki-NLP/opus-mt-en-ar`` for ``marian``).
        engine: ``llm`` or ``marian``.
        source, target: ISO codes.
        prompt: the LLM prompt (``system``, ``user``); empty for Marian.
    """

    spec: str
    model: str
    engine: str
    source: str
    target: str
    prompt: tuple[tuple[str, str], ...] = ()

    def request(self, text: str, max_tokens: int, seed: int | None = None) -> GenerateRequest:
        """The request that translates ``text`` (τ = 0). Marian: the text itself as a raw prompt."""
        if self.engine == "marian":
            return GenerateRequest(
                messages=(Message("user", text),), temperature=0.0, max_tokens=max_tokens, raw_prompt=True
            )
        prompt = dict(self.prompt)
        user = prompt["user"].format(
            source=get_language(self.source).name, target=get_language(self.target).name, text=text
        )
        return GenerateRequest(
            messages=(Message("system", prompt["system"]), Message("user", user)),
            temperature=0.0,
            max_tokens=max_tokens,
            seed=seed,
        )

    def reverse(self, spec: str | None = None) -> Translator:
        """The back-translator (target → source): ``spec`` if given, else the same engine reversed (``marian`` →
        the opposite OPUS-MT pair; an LLM translates back itself).

        Raises:
            ConfigError: ``marian:ORG/MODEL`` cannot be reversed; a back-translator must be named.
        """
        if spec is None:
            if self.engine == "marian" and self.spec != "marian":
                raise ConfigError(
                    f"--translator {self.spec} names one direction only: name the back-translator with "
                    "--back-translator (marian:ORG/MODEL of the opposite pair, or an LLM)"
                )
            spec = self.spec
        return make_translator(spec, self.target, self.source, dict(self.prompt) or None)


def clean_translation(text: str) -> str:
    """An LLM's translation without triple backticks, a leading ``Output:``/``Translation:`` and surrounding
    whitespace (XLingEval spec §3.2 strips the backticks)."""
    return _LEAD.sub("", _FENCE.sub("", text)).strip()


def make_translator(spec: str, source: str, target: str, prompt: dict[str, str] | None = None) -> Translator:
    """The engine named by ``spec`` for ``source`` → ``target``.

    Args:
        spec: ``provider/model`` (an LLM), ``marian`` or ``marian:ORG/MODEL``.
        source, target: ISO codes.
        prompt: the LLM prompt (``system``, ``user`` with ``{source}``, ``{target}``, ``{text}``); default: the
            shipped ``translate`` prompt.

    Raises:
        ConfigError: an unknown language, or a spec that is neither.
        ModelError: an unknown provider.
    """
    get_language(source), get_language(target)
    if source == target:
        raise ConfigError(f"cannot translate {source} into itself: --to must differ from the source language")
    if spec == "marian" or spec.startswith("marian:"):
        name = spec.partition(":")[2] or f"Helsinki-NLP/opus-mt-{source}-{target}"
        return Translator(spec, f"seq2seq/{name}", "marian", source, target)
    if "/" not in spec:
        raise ConfigError(f"--translator must be provider/model, marian or marian:ORG/MODEL, got {spec!r}")
    split_model_id(spec)
    if prompt is None:
        from xlingmed.construct.prompts import load_prompts

        prompt = load_prompts()["translate"]
    return Translator(spec, spec, "llm", source, target, tuple(sorted(prompt.items())))
