"""``xlingmed variant``: a benchmark's texts rewritten by a named transform, as a ``qa:``/``mcq:`` file whose item
ids and languages are the source's, so a run of the variant pairs item by item with a run of the original.

MedArabiQ built two of its seven tasks this way (spec ``medarabiq.md`` §2.6, §2.7, §7):

* ``paraphrase`` (§4.1.7): an LLM rewrites each **question** with the paper's system prompt ("You are a helpful
  assistant that paraphrases text while keeping its meaning intact."); answers are kept. The paper used GPT-4o
  and gives neither the user message nor the temperature: the question alone, at τ = 0 unless told.
* ``dediacritize``: Arabic diacritics removed with CAMeL Tools (``camel_tools.utils.dediac.dediac_ar``), the first
  step of the paper's GEC pipeline, also useful alone (question and answer).
* ``gec`` (§4.1.6): dediacritisation, then grammatical error correction of **question and answer** by an
  encoder–decoder (default ``CAMeL-Lab/arabart-zaebuc-gec-ged-13``, AraBART fine-tuned on QALB-2014, QALB-2015
  and ZAEBUC, through the ``seq2seq/`` backend). The paper's pipeline also ran CAMeL Tools' morphological
  disambiguation and fed a GED model's 13-class error tags (``CAMeL-Lab/camelbert-msa-zaebuc-ged-13``) to the
  GEC model, which needs CAMeL-Lab/arabic-gec's fork of transformers; plain generation without the tags is a
  **degraded approximation**, recorded as ``pipeline: degraded (no GED tags, no morphological disambiguation)``
  in the file's record. A user with the fork can run it and load the result as a ``qa:`` file.

Each transform's configuration (model, prompt, temperature, library version) goes into the record beside the file
and into the ``transform`` column of every row; model calls go through the completion cache, whose key holds the
model and the whole request. A text the transform failed on is never replaced by the original: its item is left
out and counted.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any, ClassVar, Protocol

from xlingmed.benchmarks import get_benchmark, load_benchmark
from xlingmed.construct.files import (
    benchmark_row,
    check_out_path,
    item_texts,
    kind_of,
    map_texts,
    texts_of,
    write_benchmark_file,
)
from xlingmed.construct.generate import ConstructResult, Generator, run_step, write_record
from xlingmed.construct.prompts import load_prompts, prompt_id
from xlingmed.engine.generate import Progress
from xlingmed.errors import ConfigError, DataError
from xlingmed.types import GenerateRequest, Item, Message

DEFAULT_GEC_MODEL = "seq2seq/CAMeL-Lab/arabart-zaebuc-gec-ged-13"


@dataclass(frozen=True)
class TransformOptions:
    """What the command line gives a transform: ``model`` (``--model``), ``prompts`` (a YAML laid over the shipped
    prompts), ``temperature``, ``max_tokens`` (``None``: the transform's own default) and ``seed``."""

    model: str | None = None
    prompts: Path | None = None
    temperature: float = 0.0
    max_tokens: int | None = None
    seed: int | None = None


class Transform(Protocol):
    """A named rewrite of texts: ``fields`` it applies to by default, ``languages`` it accepts (empty: any),
    ``build`` (from the command line's options; raises ConfigError), ``config()`` (recorded), and ``apply`` (a
    text per input, ``None`` where it failed, with the reason). Add one: a class here (or in a plugin) and
    ``register_transform(TheClass)``."""

    name: ClassVar[str]
    fields: ClassVar[tuple[str, ...]]
    languages: ClassVar[tuple[str, ...]]

    @classmethod
    def build(cls, options: TransformOptions) -> Transform: ...

    def config(self) -> dict[str, Any]: ...

    async def apply(
        self, texts: Sequence[str], gen: Generator, progress: Progress
    ) -> list[tuple[str | None, str | None]]: ...


def _dediac(texts: Sequence[str]) -> list[str]:
    try:
        from camel_tools.utils.dediac import dediac_ar
    except ImportError:
        raise ConfigError("this transform needs CAMeL Tools: pip install 'xlingmed[arabic]' (camel-tools)") from None
    return [dediac_ar(t) for t in texts]


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


@dataclass
class Paraphrase:
    """MedArabiQ §4.1.7: an LLM paraphrase of each question (system prompt of ``prompts/construct.yaml``)."""

    model: str
    prompt: dict[str, str]
    temperature: float = 0.0
    max_tokens: int = 1024
    seed: int | None = None
    name: ClassVar[str] = "paraphrase"
    fields: ClassVar[tuple[str, ...]] = ("question",)
    languages: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def build(cls, options: TransformOptions) -> Paraphrase:
        if not options.model:
            raise ConfigError("--transform paraphrase needs --model provider/model (the paper: openai/gpt-4o)")
        prompt = load_prompts(options.prompts)["paraphrase"]
        return cls(options.model, prompt, options.temperature, options.max_tokens or 1024, options.seed)

    def config(self) -> dict[str, Any]:
        return {
            "transform": self.name,
            "model": self.model,
            "prompt": self.prompt,
            "prompt_id": prompt_id("paraphrase", self.prompt),
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "seed": self.seed,
        }

    async def apply(
        self, texts: Sequence[str], gen: Generator, progress: Progress
    ) -> list[tuple[str | None, str | None]]:
        requests = [
            GenerateRequest(
                messages=(
                    Message("system", self.prompt["system"]),
                    Message("user", self.prompt["user"].format(text=t)),
                ),
                temperature=self.temperature,
                max_tokens=self.max_tokens,
                seed=self.seed,
            )
            for t in texts
        ]
        progress.start(f"paraphrase ({self.model})", len(requests))
        comps = await gen.answer(self.model, requests, progress)
        return [(c.text.strip(), None) if c.ok and c.text.strip() else (None, c.error or "empty reply") for c in comps]


@dataclass
class Dediacritize:
    """Arabic diacritics removed (CAMeL Tools ``dediac_ar``): question and answer."""

    name: ClassVar[str] = "dediacritize"
    fields: ClassVar[tuple[str, ...]] = ("question", "reference", "options")
    languages: ClassVar[tuple[str, ...]] = ("ar",)

    @classmethod
    def build(cls, options: TransformOptions) -> Dediacritize:
        if options.model:
            raise ConfigError("--transform dediacritize takes no --model")
        return cls()

    def config(self) -> dict[str, Any]:
        return {"transform": self.name, "function": "camel_tools.utils.dediac.dediac_ar",
                "camel_tools": _version("camel-tools")}  # fmt: skip

    async def apply(
        self, texts: Sequence[str], gen: Generator, progress: Progress
    ) -> list[tuple[str | None, str | None]]:
        progress.start("dediacritize", len(texts))
        out = _dediac(texts)
        progress.advance(len(texts))
        return [(t, None) for t in out]


@dataclass
class GEC:
    """MedArabiQ §4.1.6: dediacritisation, then an encoder–decoder GEC model on question and answer (degraded:
    without GED tags; see the module)."""

    model: str = DEFAULT_GEC_MODEL
    max_tokens: int = 512
    name: ClassVar[str] = "gec"
    fields: ClassVar[tuple[str, ...]] = ("question", "reference")
    languages: ClassVar[tuple[str, ...]] = ("ar",)

    @classmethod
    def build(cls, options: TransformOptions) -> GEC:
        return cls(options.model or DEFAULT_GEC_MODEL, options.max_tokens or 512)

    def config(self) -> dict[str, Any]:
        return {
            "transform": self.name,
            "model": self.model,
            "steps": ["dediacritize (camel_tools.utils.dediac.dediac_ar)", f"correct ({self.model})"],
            "pipeline": "degraded (no GED tags, no morphological disambiguation)",
            "paper_pipeline": "CAMeL Tools disambiguation + dediacritisation, camelbert-msa-zaebuc-ged-13 tags fed to "
            "arabart-zaebuc-gec-ged-13 through CAMeL-Lab/arabic-gec's transformers fork",
            "camel_tools": _version("camel-tools"),
            "max_tokens": self.max_tokens,
        }

    async def apply(
        self, texts: Sequence[str], gen: Generator, progress: Progress
    ) -> list[tuple[str | None, str | None]]:
        plain = _dediac(texts)
        requests = [
            GenerateRequest(messages=(Message("user", t),), temperature=0.0, max_tokens=self.max_tokens,
                            raw_prompt=True)
            for t in plain
        ]  # fmt: skip
        progress.start(f"gec ({self.model})", len(requests))
        comps = await gen.answer(self.model, requests, progress)
        return [(c.text.strip(), None) if c.ok and c.text.strip() else (None, c.error or "empty output") for c in comps]


TRANSFORMS: dict[str, type[Transform]] = {}


def register_transform(cls: type[Transform]) -> type[Transform]:
    """Make ``cls`` available as ``--transform <cls.name>`` (replacing one of the same name)."""
    TRANSFORMS[cls.name] = cls
    return cls


for _cls in (Paraphrase, GEC, Dediacritize):
    register_transform(_cls)


def make_transform(name: str, **options: Any) -> Transform:
    """The transform ``name`` (a key of ``TRANSFORMS``) built from ``TransformOptions(**options)``.

    Raises:
        ConfigError: an unknown transform, or options it cannot take (``paraphrase`` without a model, a model
            given to ``dediacritize``).
    """
    if name not in TRANSFORMS:
        raise ConfigError(f"unknown transform {name!r}; known: {', '.join(TRANSFORMS)}")
    return TRANSFORMS[name].build(TransformOptions(**options))


@dataclass(frozen=True)
class VariantSettings:
    """What ``make_variant`` does: ``benchmark`` (name or ``qa:``/``mcq:`` file), ``out`` (.jsonl/.csv/.parquet),
    ``languages`` (default: the transform's, else the benchmark's), ``fields`` (default: the transform's),
    ``data_dir``, ``limit``, ``benchmark_options`` as for a run."""

    benchmark: str
    out: Path
    languages: tuple[str, ...] | None = None
    fields: tuple[str, ...] | None = None
    data_dir: Path | None = None
    limit: int | None = None
    benchmark_options: dict[str, Any] = field(default_factory=dict)


VariantResult = ConstructResult  # the name of 0.1, kept for callers


def make_variant(
    settings: VariantSettings, transform: Transform, generator: Generator | None = None,
    progress: Progress | None = None,
) -> VariantResult:  # fmt: skip
    """Apply ``transform`` to ``settings.benchmark`` and write ``settings.out`` with its record (see the module).

    Raises:
        ConfigError, DataError, DataNotFoundError, ModelError: bad settings, data or model, before any request.
        BudgetExhausted: the generator's ``max_requests`` was reached (nothing written; the same call resumes).
    """

    return run_step(lambda gen, prog: _variant(settings, transform, gen, prog), generator, progress)


async def _variant(s: VariantSettings, tf: Transform, gen: Generator, progress: Progress) -> VariantResult:
    check_out_path(s.out)
    spec = get_benchmark(s.benchmark)
    languages = s.languages or tf.languages or spec.languages_for(s.benchmark_options)
    wrong = [lang for lang in languages if tf.languages and lang not in tf.languages]
    if wrong:
        raise ConfigError(f"--transform {tf.name} applies to {', '.join(tf.languages)} text only, not {wrong}")
    fields = s.fields or tf.fields
    model = getattr(tf, "model", None)
    if model:
        gen.backend(model)  # a bad model name fails before anything is sent
    items, provenance = load_benchmark(spec, s.data_dir, list(languages), limit=s.limit, seed=0,
                                       **s.benchmark_options)  # fmt: skip
    if not items:
        raise DataError(f"no item in {', '.join(languages)}", file=str(s.data_dir or s.benchmark))
    kind = kind_of(items)
    texts = {(it.item_id, it.lang): item_texts(it) for it in items}
    wanted: dict[str, None] = {}
    for t in texts.values():
        for key, value in t.items():
            if key in fields:
                for text in texts_of(value):
                    wanted.setdefault(text)
    order = list(wanted)
    results = await tf.apply(order, gen, progress)
    done = dict(zip(order, results, strict=True))
    now = datetime.now(UTC).isoformat(timespec="seconds")
    config = tf.config()
    if model:
        config["model"] = gen.model_id(model)
    rows, failures, similarity, changed = _variant_rows(items, texts, fields, done, (tf.name, config, now))
    summary = [
        {"field": f, "items": len(items), "changed": changed[f], "failed": sum(f in x["fields"] for x in failures),
         "char_similarity_mean": (sum(v) / len(v)) if (v := similarity[f]) else None}
        for f in fields if any(f in t for t in texts.values())
    ]  # fmt: skip
    write_benchmark_file(s.out, rows)
    record = {
        "what": "xlingmed variant",
        "created": now,
        "benchmark": s.benchmark,
        "kind": kind,
        "languages": list(languages),
        "fields": list(fields),
        "transform": config,
    }
    return write_record("variant", record, s.out, kind, rows, summary, failures, provenance, gen)


def _variant_rows(
    items: list[Item], texts: dict[tuple[str, str], dict[str, Any]], fields: Sequence[str],
    done: dict[str, tuple[str | None, str | None]], transform: tuple[str, dict[str, Any], str],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, list[float]], dict[str, int]]:  # fmt: skip
    """The rows of the variant file (``done``: text → its transform, or None and why; ``transform``: name, config,
    time), the items that failed, and per field the character similarities and the number of texts changed."""
    name, config, now = transform
    rows, failures = [], []
    similarity: dict[str, list[float]] = {f: [] for f in fields}
    changed: dict[str, int] = {f: 0 for f in fields}
    for it in items:
        src = texts[(it.item_id, it.lang)]
        new = dict(src)
        bad = []
        for key in fields:
            if key not in src:
                continue
            out = map_texts(src[key], lambda t: done[t][0])
            if out is None:
                bad.append(key)
                continue
            new[key] = out
            a, b = json.dumps(src[key], ensure_ascii=False), json.dumps(out, ensure_ascii=False)
            similarity[key].append(difflib.SequenceMatcher(None, a, b).ratio())
            changed[key] += a != b
        if bad:
            errors = {done[t][1] for k in bad for t in texts_of(src[k]) if done[t][0] is None}
            failures.append({"item_id": it.item_id, "lang": it.lang, "fields": bad,
                             "error": "; ".join(sorted(e for e in errors if e))[:300]})  # fmt: skip
            continue
        rows.append(benchmark_row(it, it.lang, new, transform=name, transform_config=config,
                                  transformed_at=now, original_question=src["question"]))  # fmt: skip
    return rows, failures, similarity, changed
