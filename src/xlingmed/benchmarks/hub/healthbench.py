"""HealthBench (Arora et al., 2025, "HealthBench: Evaluating Large Language Models Towards Improved Human Health",
OpenAI; simple-evals ``healthbench_eval.py``) and its translations: conversations a model answers, each graded
against physicians' rubric criteria (the ``healthbench`` task).

- ``healthbench``, ``healthbench/hard``, ``healthbench/consensus``: the published JSONL files (simple-evals'
  URLs below; ``--data-dir DIR`` reads the same file names from ``DIR``), MIT. Each line: ``prompt_id``,
  ``prompt`` (chat messages ``{role, content}``), ``rubrics`` (``{criterion, points, tags}``; points may be
  negative; tags ``axis:…``, ``level:…``, ``cluster:…``), ``example_tags`` (``theme:…``…),
  ``ideal_completions_data``.
- ``healthbench-prox``: ``li-lab/HealthBench-ProX``, HealthBench Professional's 525 conversations machine
  translated (GPT-5.4) into 12 languages, one hub split per language; columns ``id`` (the same conversation in every
  language), ``conversation`` (``{"messages": [...]}``), ``rubric_items`` (``{criterion_text, points}``),
  ``physician_response``, ``specialty``, ``difficulty``, ``use_case``, ``type``.
- ``healthbenchx``: ``li-lab/HealthBenchX``, HealthBench's conversations machine translated (GPT-5) into Japanese
  and Korean: each message keeps ``role``/``content`` and adds ``content_<suffix>`` (``content_jp`` for Japanese);
  the rubrics are HealthBench's, joined by ``prompt_id`` from the ``healthbench`` file.

Every item's ``meta`` carries ``messages`` (what the model is sent, in order), ``rubric`` (``criterion``,
``points``, ``tags``) and ``example_tags``; ``question`` is the last user message (what views show).
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any, ClassVar, Literal

import pandas as pd

from xlingmed.benchmarks.base import BenchmarkOptions, LoadRequest, register_benchmark
from xlingmed.benchmarks.hub.base import HubBenchmark, HubOptions, load_frame
from xlingmed.errors import ConfigError, DataError, DataNotFoundError
from xlingmed.types import Item

BLOB = "https://openaipublic.blob.core.windows.net/simple-evals/healthbench/"
FILES = {
    "all": "2025-05-07-06-14-12_oss_eval.jsonl",
    "hard": "hard_2025-05-08-21-00-10.jsonl",
    "consensus": "consensus_2025-05-09-20-00-46.jsonl",
}
PROX_LANGUAGES = ("en", "de", "fr", "hi", "ig", "ja", "ko", "ms", "pt", "sw", "th", "zh", "zu")
X_SUFFIX = {"ja": "jp", "ko": "ko"}  # HealthBenchX's key suffix per language (content_jp…)


def conversation_item(
    name: str, item_id: str, lang: str, messages: list[dict[str, str]], rubric: list[dict[str, Any]],
    example_tags: list[str], reference: str, where: str, row: int, translation: str,
) -> Item:  # fmt: skip
    """One HealthBench conversation as an Item; errors name ``where`` and the row.

    Raises:
        DataError: no messages, a message without a role or content, the last not a user's, a rubric criterion
            without text or numeric points, or no positive points at all (the score would be undefined).
    """
    if not messages:
        raise DataError("no messages", file=where, row=row, column="prompt")
    for m in messages:
        if m.get("role") not in ("system", "user", "assistant") or not str(m.get("content") or "").strip():
            raise DataError(f"a message without a role or content: {str(m)[:80]}", file=where, row=row)
    if messages[-1]["role"] != "user":
        raise DataError("the conversation does not end with a user message", file=where, row=row)
    criteria: list[dict[str, Any]] = []
    for c in rubric:
        try:
            points = float(c["points"])
        except (KeyError, TypeError, ValueError):
            raise DataError(f"a rubric criterion without numeric points: {str(c)[:80]}", file=where, row=row) from None
        if not str(c.get("criterion") or "").strip():
            raise DataError("a rubric criterion without text", file=where, row=row)
        criteria.append({"criterion": str(c["criterion"]), "points": points, "tags": list(c.get("tags") or [])})
    if not any(c["points"] > 0 for c in criteria):
        raise DataError("the rubric has no positive points", file=where, row=row, column="rubrics")
    return Item(
        item_id=item_id,
        benchmark=name,
        lang=lang,
        question=str(messages[-1]["content"]),
        reference=reference,
        meta={
            "messages": [{"role": str(m["role"]), "content": str(m["content"])} for m in messages],
            "rubric": criteria,
            "example_tags": list(example_tags),
            "source_file": where,
            "row": row,
            "flags": [],
            "translation": translation,
        },
    )


def _plain(value: Any) -> Any:
    """numpy arrays and pandas' missing values (``datasets`` → pandas) as lists and ``None``."""
    if hasattr(value, "tolist"):
        return [_plain(v) for v in value.tolist()]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, float) and pd.isna(value):
        return None
    return value


class HealthBenchOptions(HubOptions):
    """``-B limit_order``: which conversations ``--limit N`` keeps: ``simple-evals`` (``random.Random(0).sample``
    of the file's, as ``healthbench_eval.py`` draws them) or ``first`` (the file's first N)."""

    limit_order: Literal["simple-evals", "first"] = "simple-evals"


def limited(ids: list[str], request: LoadRequest) -> list[str]:
    """``ids`` cut to ``--limit`` as ``-B limit_order`` says (simple-evals: ``Random(0).sample``, in its order)."""
    if request.limit is None or request.limit >= len(ids):
        return ids
    if request.options.get("limit_order", "simple-evals") == "first":
        return ids[: request.limit]
    return random.Random(0).sample(ids, request.limit)


class ConversationBenchmark(HubBenchmark):
    """HealthBench and its translations, with simple-evals' sampler defaults: answers of up to 2,048 tokens at
    temperature 0.5 (``--max-tokens`` and ``--temperatures`` override them)."""

    Options: ClassVar[type[BenchmarkOptions]] = HealthBenchOptions

    def max_tokens(self) -> int:
        return 2048

    def temperatures(self, task: str, model: str, model_class: str = "auto") -> tuple[float, ...] | None:
        return (0.5,)


class HealthBench(ConversationBenchmark):
    """The English HealthBench files; ``dataset`` is the file key of ``FILES``."""

    def source(self, request: LoadRequest) -> str | Path:
        name = FILES[self.dataset]
        if request.data_dir is None:
            return BLOB + name
        path = Path(request.data_dir) / name
        if not path.is_file():
            raise DataNotFoundError(f"{path} not found: --data-dir must hold HealthBench's {name} (from {BLOB}{name})")
        return path

    def load(self, request: LoadRequest) -> tuple[list[Item], dict[str, Any]]:
        if list(request.languages) != ["en"]:
            raise ConfigError(f"{self.name} is English; healthbench-prox and healthbenchx hold its translations")
        source = self.source(request)
        df = load_frame("json", None, "train", self.name, data_files=str(source))
        items = []
        for k, rec in enumerate(df.to_dict(orient="records")):
            rec = {key: _plain(v) for key, v in rec.items()}
            ideal = rec.get("ideal_completions_data") or {}
            items.append(
                conversation_item(
                    self.name, str(rec["prompt_id"]), "en", rec["prompt"], rec["rubrics"],
                    rec.get("example_tags") or [], str(ideal.get("ideal_completion") or ""), str(source), k + 1,
                    "original",
                )
            )  # fmt: skip
        order = {i: k for k, i in enumerate(limited([it.item_id for it in items], request))}
        items = sorted((it for it in items if it.item_id in order), key=lambda it: order[it.item_id])
        digest = hashlib.sha256(Path(source).read_bytes()).hexdigest() if isinstance(source, Path) else None
        return items, _provenance(self, source, digest, items)


class HealthBenchProX(ConversationBenchmark):
    def load(self, request: LoadRequest) -> tuple[list[Item], dict[str, Any]]:
        source = self.source(request)
        by_lang: dict[str, list[Item]] = {}
        for lang in request.languages:
            if lang not in self.languages:
                raise ConfigError(f"{self.name} has no language {lang!r}; its languages: {', '.join(self.languages)}")
            df = load_frame(source, None, lang, self.name)
            where = f"{self.dataset} (split {lang})"
            out = []
            for k, rec in enumerate(df.to_dict(orient="records")):
                rec = {key: _plain(v) for key, v in rec.items()}
                conv = rec["conversation"]
                messages = conv["messages"] if isinstance(conv, dict) else conv
                rubric = [{"criterion": r.get("criterion_text"), "points": r.get("points"), "tags": r.get("tags")}
                          for r in rec["rubric_items"]]  # fmt: skip
                # its own fields as tags, named by field (use_case:…): never shown as HealthBench's theme: tags
                tags = [f"{key}:{rec[key]}" for key in ("use_case", "type", "difficulty", "specialty") if rec.get(key)]
                out.append(
                    conversation_item(
                        self.name, str(rec["id"]), lang, messages, rubric, tags,
                        str(rec.get("physician_response") or ""), where, k + 2, self.translation_of(lang),
                    )
                )  # fmt: skip
            by_lang[lang] = out
        items = _paired(self, request, by_lang)
        return items, _provenance(self, source, None, items)


class HealthBenchX(ConversationBenchmark):
    """Japanese and Korean conversations; the rubric of each comes from HealthBench by ``prompt_id``."""

    def load(self, request: LoadRequest) -> tuple[list[Item], dict[str, Any]]:
        english = HEALTHBENCH.load(LoadRequest(request.data_dir, ("en",), None, request.seed, request.options))[0]
        rubrics = {it.item_id: it for it in english}
        source = self.source(request)
        df = load_frame(source, None, self.split_of(request), self.name)
        where = f"{self.dataset} (split {self.split_of(request)})"
        by_lang: dict[str, list[Item]] = {lang: [] for lang in request.languages}
        for k, rec in enumerate(df.to_dict(orient="records")):
            rec = {key: _plain(v) for key, v in rec.items()}
            base = rubrics.get(str(rec["prompt_id"]))
            if base is None:
                raise DataError(f"prompt_id {rec['prompt_id']} is not in HealthBench", file=where, row=k + 2)
            for lang in request.languages:
                if lang == "en":
                    by_lang[lang].append(base)
                    continue
                key = f"content_{X_SUFFIX[lang]}"
                if any(key not in m for m in rec["prompt"]):
                    continue  # this row is in the other language's file
                messages = [{"role": m["role"], "content": m[key]} for m in rec["prompt"]]
                by_lang[lang].append(
                    conversation_item(
                        self.name, base.item_id, lang, messages, base.meta["rubric"], base.meta["example_tags"],
                        "", where, k + 2, self.translation_of(lang),
                    )
                )  # fmt: skip
        items = _paired(self, request, by_lang)
        return items, _provenance(self, source, None, items)


def _paired(spec: HubBenchmark, request: LoadRequest, by_lang: dict[str, list[Item]]) -> list[Item]:
    """Items ordered by conversation then language; only conversations every language has (paired), the first
    ``limit`` of them."""
    ids = [it.item_id for it in next(iter(by_lang.values()))]
    common = limited([i for i in dict.fromkeys(ids) if all(any(x.item_id == i for x in v) for v in by_lang.values())],
                     request)  # fmt: skip
    index = {(it.item_id, it.lang): it for v in by_lang.values() for it in v}
    items = [index[(i, lang)] for i in common for lang in request.languages]
    if not items:
        raise DataError(f"{spec.name}: no conversation is in every language of {', '.join(request.languages)}")
    return items


def _provenance(spec: HubBenchmark, source: Any, digest: str | None, items: list[Item]) -> dict[str, Any]:
    counts: dict[str, dict[str, int]] = {}
    for it in items:
        per = counts.setdefault(it.lang, {})
        per[it.meta["translation"]] = per.get(it.meta["translation"], 0) + 1
    fingerprint = digest or hashlib.sha256(
        json.dumps([[it.item_id, it.lang, it.meta["messages"], it.meta["rubric"]] for it in items],
                   ensure_ascii=False).encode("utf-8")).hexdigest()  # fmt: skip
    return {
        "file": str(source),
        "sha256": fingerprint,
        "kind": "conversation",
        "dataset": spec.dataset,
        "parallel": spec.parallel,
        "shared_id": spec.shared_id or None,
        "licence": spec.licence,
        "translation": counts,
        "questions_used": len({it.item_id for it in items}),
        "rubric_criteria": sum(len(it.meta["rubric"]) for it in items),
    }


_TASKS = (("conversation", "criteria"), ("healthbench",))  # (what the items provide, the default tasks)
HEALTHBENCH = register_benchmark(
    HealthBench(
        "healthbench", ("en",), *_TASKS, licence="MIT", kind="conversation", dataset="all", shared_id="prompt_id",
        description="HealthBench: 5,000 conversations graded against physicians' rubrics (simple-evals)",
        translation=(("en", "original"),), home=BLOB + FILES["all"],
    )
)  # fmt: skip
for _subset, _what in (("hard", "the 1,000 hardest"), ("consensus", "the criteria physicians agreed on")):
    register_benchmark(
        HealthBench(
            f"healthbench/{_subset}", ("en",), *_TASKS, licence="MIT", kind="conversation", dataset=_subset,
            shared_id="prompt_id", description=f"HealthBench, {_what}", translation=(("en", "original"),),
            home=BLOB + FILES[_subset],
        )
    )  # fmt: skip
PROX = register_benchmark(
    HealthBenchProX(
        "healthbench-prox", PROX_LANGUAGES, *_TASKS, kind="conversation",
        licence="unstated (derived from HealthBench Professional, not from HealthBench)",
        dataset="li-lab/HealthBench-ProX", shared_id="id", run_languages=("en", "zh", "hi", "sw", "ja"),
        description="HealthBench-ProX: HealthBench Professional's 525 conversations, 13 languages (machine translated)",
        translation=tuple((lang, "original" if lang == "en" else "machine") for lang in PROX_LANGUAGES),
        home="https://huggingface.co/datasets/li-lab/HealthBench-ProX",
    )
)  # fmt: skip
X = register_benchmark(
    HealthBenchX(
        "healthbenchx", ("en", "ja", "ko"), *_TASKS, licence="MIT", kind="conversation", dataset="li-lab/HealthBenchX",
        shared_id="prompt_id", split="train",
        description="HealthBenchX: HealthBench's conversations in Japanese and Korean (machine translated)",
        translation=(("en", "original"), ("ja", "machine"), ("ko", "machine")),
        home="https://huggingface.co/datasets/li-lab/HealthBenchX",
    )
)  # fmt: skip
