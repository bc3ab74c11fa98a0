"""``xlingmed translate``: a benchmark into new languages, as a ``qa:``/``mcq:`` file that pairs with its source.

XLingEval built XLingHealth this way (App. A): every question and answer machine-translated, the translations'
quality rated. Here every text a task reads is translated (question, reference answer, verifiability negatives,
options), item ids are kept so each new language pairs with the source item by item, and option letters and the
answer key are copied, never translated. The source rows are written too, so a run of the file compares every
new language with the source on the same items.

Each translated text is checked (``quality.py``): back-translated into the source language and compared with it
(chrF, BERTScore), optionally scored by COMET-QE, and its language identified; an item whose weakest text falls
below a threshold is flagged (``flagged``, ``flag_reason``), or left out with ``exclude_flagged``. A text the
translator failed on (an error, or an empty reply) is never replaced by anything: its item is left out of that
language and counted as ``failed``.

Every translation goes through the completion cache: an interrupted command resumes, a re-run sends nothing.
The record beside the file (``<name>.translation.json``) holds the settings, the source's provenance, the
per-language summary and the failures.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from xlingmed.benchmarks import get_benchmark, load_benchmark
from xlingmed.construct.files import (
    TEXT_FIELDS,
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
from xlingmed.construct.quality import DEFAULT_CHECKS, QualityChecker, Thresholds, flag_reasons
from xlingmed.construct.translators import Translator, clean_translation, make_translator
from xlingmed.engine.generate import NoProgress, Progress
from xlingmed.errors import ConfigError, DataError
from xlingmed.languages import get_language
from xlingmed.types import Item

CHECKED_FIELDS = ("question", "reference", "options")  # back-translated and scored (negatives are references)


@dataclass(frozen=True)
class TranslateSettings:
    """What ``translate_benchmark`` does.

    Attributes:
        benchmark: a registered name or ``qa:FILE``/``mcq:FILE``.
        targets: ISO codes to translate into.
        translator: ``provider/model``, ``marian`` or ``marian:ORG/MODEL``.
        out: the file to write (``.jsonl``, ``.csv`` or ``.parquet``).
        source: the source language (default: the benchmark's first).
        back_translator: the engine of the back-translation check (default: the translator, reversed).
        data_dir, limit, benchmark_options: as for a run.
        fields: the fields to translate (default: every field the benchmark's items have).
        max_tokens: the longest translation of one text, in tokens.
        checks: quality checks (``quality.CHECKS``); empty for none.
        thresholds: when an item is flagged.
        exclude_flagged: leave flagged items out of the file (they stay counted in the record).
        bertscore_model, bertscore_layer, comet_model, device: the checks' encoders.
        prompts: a YAML file laid over the shipped translation prompt.
        seed: sent with every LLM request.
    """

    benchmark: str
    targets: tuple[str, ...]
    translator: str
    out: Path
    source: str | None = None
    back_translator: str | None = None
    data_dir: Path | None = None
    limit: int | None = None
    benchmark_options: dict[str, Any] = field(default_factory=dict)
    fields: tuple[str, ...] | None = None
    max_tokens: int = 2048
    checks: tuple[str, ...] = DEFAULT_CHECKS
    thresholds: Thresholds = field(default_factory=Thresholds)
    exclude_flagged: bool = False
    bertscore_model: str | None = None
    bertscore_layer: int | None = None
    comet_model: str | None = None
    device: str = "cpu"
    prompts: Path | None = None
    seed: int | None = None


TranslationResult = ConstructResult  # the name of 0.1, kept for callers


def translate_benchmark(
    settings: TranslateSettings, generator: Generator | None = None, progress: Progress | None = None
) -> TranslationResult:
    """Translate ``settings.benchmark`` into ``settings.targets`` and write ``settings.out`` (see the module).
    ``generator`` (default: a new one on the default cache) is closed at the end.

    Raises:
        ConfigError, DataError, DataNotFoundError, ModelError: bad settings, data or model names, before any
            request is sent.
        BudgetExhausted: the generator's ``max_requests`` was reached (nothing written; the same call resumes).
    """

    return run_step(lambda gen, prog: _translate(settings, gen, prog), generator, progress)


async def translate_benchmark_async(
    settings: TranslateSettings, generator: Generator, progress: Progress | None = None
) -> TranslationResult:
    """``translate_benchmark`` for callers that already run an event loop (they close ``generator``)."""
    return await _translate(settings, generator, progress or NoProgress())


def _fields(asked: Sequence[str] | None) -> tuple[str, ...]:
    """The fields to translate (default: every text field), checked: known, the question among them."""
    fields = tuple(asked) if asked else TEXT_FIELDS
    unknown = [f for f in fields if f not in TEXT_FIELDS]
    if unknown:
        raise ConfigError(f"--fields: unknown field(s) {unknown}; fields: {', '.join(TEXT_FIELDS)}")
    if "question" not in fields:
        raise ConfigError("--fields must include question")
    return fields


def _source_rows(
    items: list[Item], source_texts: dict[str, dict[str, Any]], source: str, fields: Sequence[str]
) -> list[dict[str, Any]]:
    """The source language's own rows of the translated file, first in it."""
    rows: list[dict[str, Any]] = []
    for it in items:
        texts = {k: v for k, v in source_texts[it.item_id].items() if k in fields or k == "question"}
        _fill_untranslated(texts, source_texts[it.item_id], fields)
        rows.append(benchmark_row(it, source, texts, source_lang="", translator=""))
    return rows


async def _translate(s: TranslateSettings, gen: Generator, progress: Progress) -> TranslationResult:
    check_out_path(s.out)
    spec = get_benchmark(s.benchmark)
    source = s.source or spec.languages_for(s.benchmark_options)[0]
    get_language(source)
    targets = tuple(dict.fromkeys(s.targets))
    if not targets:
        raise ConfigError("--to: name at least one language to translate into")
    prompt = load_prompts(s.prompts)["translate"]
    translators = {t: make_translator(s.translator, source, t, prompt) for t in targets}
    checker = QualityChecker(
        s.checks, source, s.bertscore_model, s.bertscore_layer, s.comet_model, s.device
    ) if s.checks else None  # fmt: skip
    backs = (
        {t: tr.reverse(s.back_translator) for t, tr in translators.items()}
        if checker is not None and checker.needs_back_translation()
        else {}
    )
    for tr in [*translators.values(), *backs.values()]:
        gen.backend(tr.model)  # an unknown provider or bad -M option fails before anything is sent
    items, provenance = load_benchmark(spec, s.data_dir, [source], limit=s.limit, seed=0, **s.benchmark_options)
    items = [it for it in items if it.lang == source]
    if not items:
        raise DataError(f"no {source} item to translate", file=str(s.data_dir or s.benchmark))
    kind = kind_of(items)
    fields = _fields(s.fields)
    now = datetime.now(UTC).isoformat(timespec="seconds")
    source_texts = {it.item_id: item_texts(it) for it in items}
    rows = _source_rows(items, source_texts, source, fields)
    summary: list[dict[str, Any]] = []
    failures: list[dict[str, Any]] = []
    for target, tr in translators.items():
        rows_t, summ, fails = await _one_language(
            s, gen, progress, items, source_texts, fields, tr, backs.get(target), checker, now
        )
        rows.extend(rows_t)
        summary.append(summ)
        failures.extend(fails)

    write_benchmark_file(s.out, rows)
    record = {
        "what": "xlingmed translate",
        "created": now,
        "benchmark": s.benchmark,
        "kind": kind,
        "source_lang": source,
        "targets": list(targets),
        "fields": list(fields),
        "translator": {t: gen.model_id(tr.model) for t, tr in translators.items()},
        "back_translator": {t: gen.model_id(b.model) for t, b in backs.items()},
        "prompt": prompt if any(tr.engine == "llm" for tr in translators.values()) else None,
        "prompt_id": prompt_id("translate", prompt),
        "max_tokens": s.max_tokens,
        "checks": checker.settings() if checker is not None else {"checks": []},
        "thresholds": asdict(s.thresholds),
        "exclude_flagged": s.exclude_flagged,
    }
    return write_record("translation", record, s.out, kind, rows, summary, failures, provenance, gen)


def _fill_untranslated(texts: dict[str, Any], source: dict[str, Any], fields: Sequence[str]) -> None:
    """A multiple-choice row needs its options and an open one its reference even when they are not translated:
    such a field is left out of the file rather than copied in the source language (a run then says so)."""
    for key in ("options", "reference"):
        if key in source and key not in texts:
            texts[key] = source[key] if key in fields else None


async def _translations(
    s: TranslateSettings, gen: Generator, progress: Progress, tr: Translator,
    source_texts: dict[str, dict[str, Any]], fields: Sequence[str],
) -> tuple[dict[str, str | None], dict[str, str]]:  # fmt: skip
    """Every distinct text of ``fields`` translated once, whatever field and item it comes from: text →
    translation (``None`` where it failed), and text → why it failed."""
    wanted: dict[str, None] = {}
    for texts in source_texts.values():
        for key, value in texts.items():
            if key in fields:
                for text in texts_of(value):
                    wanted.setdefault(text)
    order = list(wanted)
    progress.start(f"translate {tr.source}→{tr.target}", len(order))
    comps = await gen.answer(tr.model, [tr.request(t, s.max_tokens, s.seed) for t in order], progress)
    translated: dict[str, str | None] = {}
    errors: dict[str, str] = {}
    for text, comp in zip(order, comps, strict=True):
        cleaned = clean_translation(comp.text) if comp.ok else ""
        translated[text] = cleaned or None
        if not cleaned:
            errors[text] = comp.error or "empty translation"
    return translated, errors


async def _quality(
    s: TranslateSettings, gen: Generator, progress: Progress, engines: tuple[Translator, Translator | None],
    checker: QualityChecker | None, source_texts: dict[str, dict[str, Any]], fields: Sequence[str],
    translated: dict[str, str | None],
) -> dict[tuple[str, str], dict[str, Any]]:  # fmt: skip
    """(item, field) → the quality scores of the checked fields that were translated, with their back-translation
    (``engines``: the translator and the back-translator)."""
    tr, back = engines
    checked = [
        (item_id, key, text)
        for item_id, texts in source_texts.items()
        for key, value in texts.items()
        if key in fields and key in CHECKED_FIELDS
        for text in [_joined(value)]
    ]
    scores: dict[tuple[str, str], dict[str, Any]] = {}
    if checker is not None:
        pairs = [(i, k, t, _translate_joined(source_texts[i][k], translated)) for i, k, t in checked]
        pairs = [p for p in pairs if p[3] is not None]
        back_texts: list[str | None] = [None] * len(pairs)
        if back is not None and pairs:
            progress.start(f"back-translate {tr.target}→{tr.source}", len(pairs))
            bcomps = await gen.answer(
                back.model, [back.request(str(p[3]), s.max_tokens, s.seed) for p in pairs], progress
            )
            back_texts = [(clean_translation(c.text) or None) if c.ok else None for c in bcomps]
        measured = checker.score([p[2] for p in pairs], [str(p[3]) for p in pairs], back_texts)
        for (i, k, _, _), m, b in zip(pairs, measured, back_texts, strict=True):
            scores[(i, k)] = {**m, "back": b}
    return scores


def _item_texts(
    texts: dict[str, Any], fields: Sequence[str], translated: dict[str, str | None]
) -> tuple[dict[str, Any], list[str], int]:
    """One item's translated fields, the fields that failed, and the negatives left out (a negative that failed is
    left out of the list, counted, not the item)."""
    new: dict[str, Any] = {}
    missing = []
    dropped = 0
    for key, value in texts.items():
        if key not in fields:
            continue
        out: Any
        if key == "negatives":
            out = [t for v in value if (t := translated.get(str(v)))]
            dropped = len(value) - len(out)
        else:
            out = map_texts(value, translated.get)
        if out is None:
            missing.append(key)
        new[key] = out
    return new, missing, dropped


async def _one_language(
    s: TranslateSettings,
    gen: Generator,
    progress: Progress,
    items: list[Item],
    source_texts: dict[str, dict[str, Any]],
    fields: Sequence[str],
    tr: Translator,
    back: Translator | None,
    checker: QualityChecker | None,
    now: str,
) -> tuple[list[dict[str, Any]], dict[str, Any], list[dict[str, Any]]]:
    """Translate, check and lay out the rows of one target language: (rows, summary row, failures)."""
    target = tr.target
    translated, errors = await _translations(s, gen, progress, tr, source_texts, fields)
    # back-translation of the checked texts that were translated
    scores = await _quality(s, gen, progress, (tr, back), checker, source_texts, fields, translated)
    rows: list[dict[str, Any]] = []
    failures: list[dict[str, Any]] = []
    n_flagged = n_written = n_dropped = 0
    model_id = gen.model_id(tr.model)
    pid = prompt_id("translate", dict(tr.prompt)) if tr.engine == "llm" else ""
    for it in items:
        texts = source_texts[it.item_id]
        new, missing, dropped = _item_texts(texts, fields, translated)
        if missing:
            why = "; ".join(sorted({errors.get(t, "") for k in missing for t in texts_of(texts[k])} - {""}))
            failures.append({"item_id": it.item_id, "lang": target, "fields": missing, "error": why[:300]})
            continue
        _fill_untranslated(new, texts, fields)
        item_scores = [scores[(it.item_id, k)] for k in CHECKED_FIELDS if (it.item_id, k) in scores]
        reasons = [
            r for k in CHECKED_FIELDS if (it.item_id, k) in scores
            for r in flag_reasons(scores[(it.item_id, k)], target, k, s.thresholds)
        ]  # fmt: skip
        flagged = bool(reasons)
        n_flagged += flagged
        if flagged and s.exclude_flagged:
            continue
        q = scores.get((it.item_id, "question"), {})
        rows.append(
            benchmark_row(
                it, target, new, source_lang=tr.source, translator=model_id, translation_prompt=pid,
                translated_at=now, qe_chrf=_min(item_scores, "chrf"), qe_bertscore=_min(item_scores, "bertscore"),
                qe_comet=_min(item_scores, "comet"), qe_lang=q.get("lang"), back_translation=q.get("back"),
                flagged=flagged, flag_reason="; ".join(reasons), **({"negatives_dropped": dropped} if dropped else {}),
            )
        )  # fmt: skip
        n_written += 1
        n_dropped += dropped
    summary = _language_summary(target, model_id, len(items), len(failures), (n_flagged, n_written, n_dropped), scores)
    return rows, summary, failures


def _language_summary(
    target: str, model_id: str, n_items: int, n_failed: int, counts: tuple[int, int, int],
    scores: dict[tuple[str, str], dict[str, Any]],
) -> dict[str, Any]:  # fmt: skip
    """A target language's summary row (``counts``: flagged, written, negatives dropped)."""
    n_flagged, n_written, n_dropped = counts
    langs = [sc["lang"] for sc in scores.values() if sc.get("lang") is not None]
    return {
        "lang": target,
        "translator": model_id,
        "items": n_items,
        "translated": n_items - n_failed,
        "failed": n_failed,
        "flagged": n_flagged,
        "written": n_written,
        "negatives_dropped": n_dropped,
        "chrf_mean": _mean([sc.get("chrf") for sc in scores.values()]),
        "bertscore_mean": _mean([sc.get("bertscore") for sc in scores.values()]),
        "comet_mean": _mean([sc.get("comet") for sc in scores.values()]),
        "lang_match": sum(x == target for x in langs) / len(langs) if langs else None,
    }


def _joined(value: Any) -> str:
    """A field's text as one string (options as ``A. text`` lines) for the back-translation check."""
    if isinstance(value, dict):
        return "\n".join(f"{k}. {v}" for k, v in value.items())
    return str(value)


def _translate_joined(value: Any, translated: dict[str, str | None]) -> str | None:
    out = map_texts(value, translated.get)
    if out is None:
        return None
    return _joined(out)


def _min(rows: Sequence[dict[str, Any]], key: str) -> float | None:
    values = [r[key] for r in rows if r.get(key) is not None]
    return min(values) if values else None


def _mean(values: Sequence[Any]) -> float | None:
    vals = [float(v) for v in values if v is not None]
    return sum(vals) / len(vals) if vals else None
