"""The contract between benchmarks, tasks, models and the store.

Everything that flows between stages is one of these small frozen records:
``Item`` (a question in one language) → ``Sample`` (one thing a task asks about an item) →
``GenerateRequest`` (what a backend is sent) → ``Completion`` (what came back) → ``Record`` (the parsed
result of one sample, which metrics aggregate).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from xlingmed.cells import cell as cell  # a table cell as Python: rows live or read back from a CSV
from xlingmed.cells import number as number
from xlingmed.unicode_text import scalar_text

Role = Literal["system", "user", "assistant"]

@dataclass(frozen=True)
class Message:
    role: Role
    content: str


@dataclass(frozen=True, slots=True)  # slots: a million-request plan holds 4 per item (no __dict__ each)
class Choice:
    """One option of a multiple-choice item: canonical Latin label (``"A"``…), the label as printed, its text."""

    label: str
    raw_label: str
    text: str


@dataclass(frozen=True, slots=True)
class Item:
    """One benchmark question in one language.

    ``item_id`` is shared by the same question in every language (``liveqa-0042`` in en, es, zh, hi), so every
    cross-language comparison can be paired on it.

    Attributes:
        item_id: stable id, ``<dataset>-<4-digit source id>``.
        benchmark: registry name, e.g. ``xlinghealth/liveqa``.
        lang: ISO 639-1 code of ``question`` and ``reference``.
        question: the question text in ``lang``.
        reference: the expert (gold) answer in ``lang``; ``""`` when the source cell is empty.
        negatives: answers to *other* questions shipped as verifiability negatives, in ``lang``.
        choices: the options of a multiple-choice item, in order (empty for open questions).
        gold_label: canonical label (``"A"``…) of the correct option; ``None`` for open questions.
        meta: source file/row, ``defects`` (list of strings; empty when the item is clean), and anything a
            loader wants to keep.
    """

    item_id: str
    benchmark: str
    lang: str
    question: str
    reference: str
    negatives: tuple[str, ...] = ()
    choices: tuple[Choice, ...] = ()
    gold_label: str | None = None
    meta: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    @property
    def defects(self) -> list[str]:
        return list(self.meta.get("defects", []))


ITEM_FEATURES: dict[str, str] = {
    "question": "an open question a model answers in free text, on its own (no options, no conversation)",
    "reference": "an expert (gold) answer in the item's language (Item.reference)",
    "negatives": "answers to other questions, false claims about the question (Item.negatives)",
    "choices": "options with one gold label (Item.choices, Item.gold_label)",
    "conversation": "chat messages the model continues (Item.meta['messages'])",
    "criteria": "criteria with points a grader checks the answer against (HealthBench's Item.meta key)",
    "free_text": "answered in free text: implied by question or conversation",
    "logged_outcome": "another tool's own per-sample outcome, logged with its answer (xlingmed import): no benchmark "
    "provides it, so a task that requires it scores imports only",
}
"""What a benchmark's items can provide (``Benchmark.provides``) and a task can require (``TaskSpec.requires``):
a task runs on every benchmark that provides all it requires, plugins included."""


def item_features(provides: tuple[str, ...] | frozenset[str]) -> frozenset[str]:
    """``provides`` with what it implies (``free_text`` from ``question`` or ``conversation``).

    Raises:
        ValueError: a feature not in ``ITEM_FEATURES`` (the message lists them).
    """
    unknown = sorted(set(provides) - set(ITEM_FEATURES))
    if unknown:
        raise ValueError(f"unknown item feature(s) {unknown}; known: {', '.join(ITEM_FEATURES)}")
    have = set(provides)
    if have & {"question", "conversation"}:
        have.add("free_text")
    return frozenset(have)


# What an uncapped request (``max_tokens=None``) is counted as where a number is needed: a budget's worst case, a
# tokens-per-minute reservation, a dry run's estimate, an API that requires a cap (Anthropic's Messages API).
UNCAPPED_TOKENS = 4096


@dataclass(frozen=True)
class GenerateRequest:
    """Messages plus every sampling setting that can change the answer.

    ``cache_key(model_id)`` hashes all fields and the model id, so K samples at several temperatures never
    collapse into one cached answer. ``sample_index`` is part of the key even when the seed is fixed.

    ``max_tokens`` ``None`` sets no cap: the model writes until it stops or its context ends (XLingEval's
    consistency answers); ``limit()`` gives a number where one is needed (an estimate, an API that requires one).

    ``top_k`` (``None``: the engine's default; OpenAI's API has none, vLLM and llama.cpp servers take it) and
    ``raw_prompt`` (the one user message is the whole prompt, sent verbatim with no chat template: MedAlpaca's
    Alpaca prompts, spec xlingeval.md §6.2) came in 0.3; at their defaults they are left out of the key, so
    answers cached before then are still found.
    """

    messages: tuple[Message, ...]
    temperature: float = 0.0
    top_p: float = 1.0
    max_tokens: int | None = 1000
    seed: int | None = None
    sample_index: int = 0
    logprobs: bool = False
    top_logprobs: int = 0
    top_k: int | None = None
    raw_prompt: bool = False

    def limit(self, uncapped: int = UNCAPPED_TOKENS) -> int:
        """``max_tokens``, or ``uncapped`` where the request sets no cap (budgets, pacing, dry runs, APIs that
        require a number)."""
        return self.max_tokens if self.max_tokens is not None else uncapped

    def cache_key(self, model_id: str) -> str:
        return cache_key_of(model_id, self.to_json())

    def to_json(self) -> dict[str, Any]:
        """``dataclasses.asdict(self)``, built by hand: it runs for every request and asdict's deep copy is slow."""
        out: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        out["messages"] = [{"role": m.role, "content": m.content} for m in self.messages]
        for name, default in _KEY_DEFAULTS:  # fields added after 0.2: absent at their default (stable keys)
            if out[name] == default:
                del out[name]
        return out

    @property
    def prompt_text(self) -> str:
        """The verbatim prompt of a ``raw_prompt`` request (its last message)."""
        return self.messages[-1].content if self.messages else ""


def cache_key_of(model_id: str, request_json: dict[str, Any]) -> str:
    """The cache key of a request given as ``GenerateRequest.to_json()`` (as a cache stores it): a sha256 of the
    model id and every field. ``cache import`` recomputes it to check a row from someone else's file."""
    payload = {"model": model_id, **request_json}
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


_KEY_DEFAULTS: tuple[tuple[str, Any], ...] = (("top_k", None), ("raw_prompt", False))


@dataclass(frozen=True)
class TokenLogprob:
    """One generated token with its log-probability and the top alternatives (token → logprob)."""

    token: str
    logprob: float
    top: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:  # a byte-level token may be half a character (unicode_text.scalar_text)
        object.__setattr__(self, "token", scalar_text(self.token))
        object.__setattr__(self, "top", {scalar_text(k): v for k, v in self.top.items()})


@dataclass(frozen=True)
class Completion:
    """What a backend returned for one request.

    Exactly one of ``text`` (possibly ``""``) and ``error`` is meaningful: ``error`` is set when the request
    failed after retries. ``permanent`` marks a failure that resending the same request cannot fix (the prompt
    exceeds the context window, HTTP 400/413/422): those are cached like answers, while transient failures (429,
    5xx, timeouts, connection and authentication errors) are not, so a re-run retries them. ``refusal`` is set
    when the server says the model refused (content filter or an explicit refusal field).
    """

    text: str
    finish_reason: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    logprobs: tuple[TokenLogprob, ...] | None = None
    latency_s: float = 0.0
    error: str | None = None
    permanent: bool = False
    refusal: str | None = None

    def __post_init__(self) -> None:  # written to every file of the run: Unicode scalar values only
        for name in ("text", "error", "refusal"):
            if isinstance(value := getattr(self, name), str):
                object.__setattr__(self, name, scalar_text(value))

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_json(self) -> dict[str, Any]:
        """``dataclasses.asdict(self)`` by hand (it runs for every completion; asdict deep-copies)."""
        out: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        if self.logprobs is not None:
            out["logprobs"] = [{"token": t.token, "logprob": t.logprob, "top": dict(t.top)} for t in self.logprobs]
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Completion:
        lps = data.get("logprobs")
        return cls(
            text=data.get("text", ""),
            finish_reason=data.get("finish_reason"),
            prompt_tokens=int(data.get("prompt_tokens", 0)),
            completion_tokens=int(data.get("completion_tokens", 0)),
            logprobs=None if lps is None else tuple(TokenLogprob(**t) for t in lps),
            latency_s=float(data.get("latency_s", 0.0)),
            error=data.get("error"),
            permanent=bool(data.get("permanent", False)),
            refusal=data.get("refusal"),
        )


@dataclass(frozen=True, slots=True)
class Sample:
    """One question a task asks about an item (e.g. one claim to verify, one of K answers).

    ``key`` is unique within (item_id, lang, task); ``target`` is the gold value where the task has one.
    """

    item: Item
    task: str
    key: str
    target: Any = None
    temperature: float = 0.0
    sample_index: int = 0
    meta: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)


ParseKind = Literal["read", "fallback", "unread", "refused", "error"]
PARSE_KINDS: tuple[ParseKind, ...] = ("read", "fallback", "unread", "refused", "error")
_METHOD_KINDS: dict[str, ParseKind] = {}


def declare_parse_methods(kinds: Mapping[str, ParseKind]) -> None:
    """Declare a parser's methods and their kinds (``parsing.methods`` says what each kind means). Each parser
    module declares its own methods at import, next to the code that returns them: no central table lists them.

    Raises:
        ValueError: an unknown kind, or a method already declared with another kind.
    """
    for method, kind in kinds.items():
        if kind not in PARSE_KINDS:
            raise ValueError(f"parse method {method!r}: unknown kind {kind!r}; kinds: {', '.join(PARSE_KINDS)}")
        if _METHOD_KINDS.setdefault(method, kind) != kind:
            raise ValueError(f"parse method {method!r} declared as {_METHOD_KINDS[method]} and as {kind}")


def parse_kind(method: str | None) -> ParseKind:
    """The declared kind of a parse method; ``error`` for none (the request failed); ``unread`` for a method no
    loaded parser declares (a table from a plugin not installed here): never counted as read by default."""
    if method is None:
        return "error"
    return _METHOD_KINDS.get(method, "unread")


def declared_parse_methods() -> dict[str, ParseKind]:
    """Every declared method → its kind (the parsers imported so far)."""
    return dict(_METHOD_KINDS)


# Methods any parser or task may return: nothing to read, a refusal, a failed or missing request.
declare_parse_methods({"unparsed": "unread", "empty": "unread", "empty_answer": "unread", "ambiguous": "unread",
                       "invalid": "unread", "refused": "refused", "error": "error", "missing": "error"})  # fmt: skip


@dataclass(frozen=True)
class Parsed:
    """A parser's result: the value, how it was obtained (``"marker"``, ``"paper_tail"``, ``"unparsed"``…) and
    that method's kind (``read``, ``fallback``, ``unread``, ``refused``, ``error``), as its parser declared it
    (``declare_parse_methods``).

    Raises:
        ValueError: ``method`` was never declared (a parser must say what kind of reading each method is).
    """

    value: Any
    method: str

    def __post_init__(self) -> None:
        if self.method not in _METHOD_KINDS:
            raise ValueError(f"undeclared parse method {self.method!r}: declare it with declare_parse_methods")

    @property
    def kind(self) -> ParseKind:
        return _METHOD_KINDS[self.method]


def _missing(v: Any) -> bool:
    """A missing table cell: ``None``, NaN, or pandas' ``NA`` (named by its type: pandas is not imported here)."""
    return v is None or (isinstance(v, float) and math.isnan(v)) or type(v).__name__ == "NAType"


@dataclass(frozen=True, slots=True)
class Score:
    """One scored outcome: the spine that statistics, the report and ``scores.parquet`` read.

    One record per (item, language, task, metric, temperature, condition, unit): ``unit`` names the thing scored
    inside an item when there are several (a verifiability claim ``c2``; ``""`` otherwise), and the same
    ``(item_id, unit)`` in another language is the paired observation.

    Attributes:
        item_id: shared by the same question in every language.
        lang: ISO 639-1 code.
        task: the task that scored it (``correctness``…).
        metric: what was measured (``more_comprehensive``, ``correct``, ``bertscore_f1``…).
        value: the outcome; ``None`` when the reply could not be scored (failed request, unread reply): such a
            record is kept so that losses are counted, and is excluded from every statistic.
        temperature: the sampling temperature of the answer; ``None`` for a value over several temperatures.
        condition: a prompt variant (a bias condition ``biased|recency``); ``None`` = the plain question.
        unit: see above.
        kind: ``binary`` (0/1) or ``continuous``.
        higher_is_better: the direction of a better model.
        parse_method: how the reply behind the value was read (``parsing.methods``), where one was parsed.
        answer: what was read from the reply, where the value compares a reading with a gold: the judge's label
            (``more``, ``no_response``…), ``yes``/``no``, the chosen option's letter; ``None`` where nothing was
            read or nothing is compared.
        target: the gold that ``answer`` is compared with (the claim's truth, the correct option), if any.
        probability: the model's probability of the positive reading, where its backend returned logprobs
            (P(yes) of a yes/no claim: the AUC's score); ``None`` otherwise.
        group: the item's subgroup where the benchmark has one (a category, specialty or subject).
        translation: how the item's text in ``lang`` was made, where the benchmark says (``original``,
            ``human``, ``post-edited``, ``machine``, ``unstated``; ``benchmarks.hub``); ``None`` otherwise.
    """

    item_id: str
    lang: str
    task: str
    metric: str
    value: float | None
    temperature: float | None = None
    condition: str | None = None
    unit: str = ""
    kind: Literal["binary", "continuous"] = "continuous"
    higher_is_better: bool = True
    parse_method: str | None = None
    answer: str | None = None
    target: str | None = None
    probability: float | None = None
    group: str | None = None
    translation: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Score:
        """A Score from a row of ``scores.parquet`` (``RunResult.scores()``, ``analysis.read_scores``): a missing
        cell (NaN, ``None``, an absent column of an older file) is ``None``, or the field's default."""
        out: dict[str, Any] = {}
        for f in fields(cls):
            v: Any = row.get(f.name)
            if _missing(v):
                if f.name in ("item_id", "lang", "task", "metric", "value"):
                    out[f.name] = None if f.name == "value" else ""
                continue
            if f.name in ("value", "temperature", "probability"):
                v = float(v)
            elif f.name == "higher_is_better":
                v = bool(v)
            else:
                v = str(v)
            out[f.name] = v
        return cls(**out)
