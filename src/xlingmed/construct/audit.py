"""``xlingmed audit``: LLM raters judge a dataset's quality item by item (MedArabiQ App. L; spec §4.7), beside
structural checks that need no model.

Seven metrics, each prompted **on its own** with only its definition in the preprompt (App. L.2), zero-shot, with
a one-sentence justification: accuracy, relevance, factuality and consistency on a Likert 1–5 scale; parameter
alignment, coherence and specificity on a binary scale (0/1). Definitions are App. L.1's.

A rating is read by ``parse_rating``, which says how it read each reply; a reply it cannot read is counted as
unparsed per rater, metric and language and never turned into a plausible number. The folder written:

* ``ratings.csv``: one row per (item, language, rater, metric): value, parse method, justification, reply;
* ``items.csv``: one row per item and language: each metric's mean over raters, the structural checks, whether
  the item is ``suspect`` and why;
* ``summary.csv``: Table L1's layout: per rater and metric, mean ± SD and n, and the unparsed count;
* ``agreement.csv``: per metric, agreement across raters on the items all of them rated: Fleiss' κ on the
  ratings as categories (statsmodels), and for Likert metrics the mean pairwise Spearman ρ (scipy);
* ``audit.json``: settings, prompts, raters, counters.

Structural checks (``structural_flags``): an empty question or answer, duplicated option texts, a gold label that
is no option, the same question text on two items, plus every flag the benchmark's loader raised (MedArabiQ's
known ones: ``mitigation_text_from_other_bias``, ``duplicate_option_text``, ``gold_from_english`` …).
"""

from __future__ import annotations

import statistics
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from xlingmed import output
from xlingmed.benchmarks import get_benchmark, load_benchmark
from xlingmed.construct.generate import Generator, run_step
from xlingmed.construct.prompts import load_prompts, prompt_id
from xlingmed.engine.generate import Progress
from xlingmed.errors import ConfigError, DataError
from xlingmed.languages import get_language
from xlingmed.parsing.rating import justification, parse_rating
from xlingmed.types import GenerateRequest, Item, Message, Parsed


@dataclass(frozen=True)
class Metric:
    """One App. L metric: ``title`` as the paper writes it, ``scale`` (``likert``: 1–5, ``binary``: 0/1) and its
    definition (App. L.1, verbatim)."""

    name: str
    title: str
    scale: str
    definition: str


METRICS: dict[str, Metric] = {m.name: m for m in (
    Metric("accuracy", "Accuracy", "likert",
           "the extent to which the information in the question and answer pair correctly reflects established "
           "medical knowledge. A question is accurate if its content is error-free and matches verified sources, "
           "with no factual mistakes, outdated information, or misleading statements."),
    Metric("relevance", "Relevance", "likert",
           "how well the question and its answer relate to the intended medical topic. A relevant item directly "
           "addresses a real-world clinical or educational need, and its content is meaningful and useful for the "
           "target audience."),
    Metric("factuality", "Factuality", "likert",
           "whether the question and answer are correct and supported by medical sources. High factuality means all "
           "claims are true and verifiable; low factuality indicates claims are false or unsupported."),
    Metric("consistency", "Consistency", "likert",
           "whether information within the question and answer pair is logically coherent and free from "
           "contradictions. Consistent data maintains the same facts, terminology, and logic throughout, without "
           "conflicting statements."),
    Metric("parameter_alignment", "Parameter Alignment", "binary",
           "the extent to which all key parameters or values mentioned in the question are accurately represented "
           "within the provided answer. There should be no missing, extraneous, or hallucinated parameters."),
    Metric("coherence", "Coherence", "binary",
           "the degree to which the wording, structure, and logical flow of the question and its answer are clear "
           "and make sense in a real-world medical context. The question and answer should be logically related and "
           "free from confusing or disjointed phrasing."),
    Metric("specificity", "Specificity", "binary",
           "the completeness and precision of information provided in the question. All necessary details required "
           "to answer the question should be present, with no ambiguity or missing information."),
)}  # fmt: skip

# --------------------------------------------------------------------------------------------------------------
# Structural checks


def structural_flags(items: Sequence[Item]) -> dict[tuple[str, str], list[str]]:
    """(item_id, lang) → the problems found without a model (see the module), loader flags included."""
    out: dict[tuple[str, str], list[str]] = {}
    seen: dict[tuple[str, str], list[str]] = defaultdict(list)
    for it in items:
        seen[(it.lang, _norm(str(it.meta.get("stem") or it.question)))].append(it.item_id)
    for it in items:
        flags = [str(f) for f in it.meta.get("flags", [])]
        if not it.question.strip():
            flags.append("empty_question")
        if it.choices:
            texts = [_norm(c.text) for c in it.choices]
            if len(set(texts)) < len(texts) and "duplicate_option_text" not in flags:
                flags.append("duplicate_option_text")
            if it.gold_label not in {c.label for c in it.choices} and "gold_not_among_options" not in flags:
                flags.append("gold_not_among_options")
        elif not it.reference.strip():
            flags.append("empty_answer")
        twins = [i for i in seen[(it.lang, _norm(str(it.meta.get("stem") or it.question)))] if i != it.item_id]
        if twins:
            flags.append(f"same_question_as:{','.join(twins[:3])}")
        out[(it.item_id, it.lang)] = list(dict.fromkeys(flags))
    return out


def _norm(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split()).casefold()


# --------------------------------------------------------------------------------------------------------------
# The audit


@dataclass(frozen=True)
class AuditSettings:
    """What ``audit_benchmark`` does.

    Attributes:
        benchmark: a registered name or ``qa:FILE``/``mcq:FILE``.
        raters: ``provider/model`` of each rater.
        out: the audit folder to write (replaced whole if it is an earlier audit).
        metrics: a subset of ``METRICS`` (default: all seven).
        languages, data_dir, limit, benchmark_options: as for a run.
        dataset: how the prompt names the data (default: "a <language> medical dataset").
        min_likert: an item whose raters' mean on a Likert metric is below this is suspect.
        max_tokens: the longest rating reply (tokens).
        temperature: the raters' (App. L: not given; 0).
        prompts: a YAML file laid over the shipped audit prompt.
        seed: sent with every request.
    """

    benchmark: str
    raters: tuple[str, ...]
    out: Path
    metrics: tuple[str, ...] = tuple(METRICS)
    languages: tuple[str, ...] | None = None
    data_dir: Path | None = None
    limit: int | None = None
    benchmark_options: dict[str, Any] = field(default_factory=dict)
    dataset: str | None = None
    min_likert: float = 3.0
    max_tokens: int = 256
    temperature: float = 0.0
    prompts: Path | None = None
    seed: int | None = None


@dataclass
class AuditResult:
    out: Path
    ratings: list[dict[str, Any]]
    items: list[dict[str, Any]]
    summary: list[dict[str, Any]]
    agreement: list[dict[str, Any]]
    stats: dict[str, Any]


def render_item(item: Item) -> str:
    """The item as the rater sees it: question, options (multiple choice) and answer."""
    if item.choices:
        stem = str(item.meta.get("stem") or item.question)
        options = "\n".join(f"{c.label}. {c.text}" for c in item.choices)
        return f"Question: {stem}\nChoices:\n{options}\nCorrect answer: {item.gold_label}"
    return f"Question: {item.question}\nAnswer: {item.reference}"


def audit_request(item: Item, metric: Metric, prompt: dict[str, str], s: AuditSettings) -> GenerateRequest:
    """App. L.2's request for one item and one metric (only that metric's definition in the preprompt)."""
    mc = bool(item.choices)
    scale = prompt["likert_scale" if metric.scale == "likert" else "binary_scale"].format(
        metric_lower=metric.title.lower(), parts="choices" if mc else "answer"
    )
    system = prompt["system"].format(
        dataset=s.dataset or f"a {get_language(item.lang).name} medical dataset",
        kind="medical multiple-choice questions" if mc else "medical questions and their answers",
        metric=metric.title,
        definition=metric.definition,
        scale=scale,
    )
    return GenerateRequest(
        messages=(Message("system", system), Message("user", prompt["user"].format(item=render_item(item)))),
        temperature=s.temperature,
        max_tokens=s.max_tokens,
        seed=s.seed,
    )


def audit_benchmark(
    settings: AuditSettings, generator: Generator | None = None, progress: Progress | None = None
) -> AuditResult:
    """Rate every item of ``settings.benchmark`` by every rater on every metric and write the audit folder.
    ``generator`` (default: a new one) is closed at the end.

    Raises:
        ConfigError, DataError, DataNotFoundError, ModelError: bad settings, data or rater, before any request.
        BudgetExhausted: the generator's ``max_requests`` was reached (nothing written; the same call resumes).
    """

    return run_step(lambda gen, prog: _audit(settings, gen, prog), generator, progress)


async def _audit(s: AuditSettings, gen: Generator, progress: Progress) -> AuditResult:
    if not s.raters:
        raise ConfigError("--rater: name at least one provider/model")
    unknown = [m for m in s.metrics if m not in METRICS]
    if unknown:
        raise ConfigError(f"--metrics: unknown metric(s) {unknown}; known: {', '.join(METRICS)}")
    if s.out.exists() and (not s.out.is_dir() or (any(s.out.iterdir()) and not (s.out / "audit.json").is_file())):
        raise ConfigError(f"--out {s.out}: exists and is not an audit folder; choose another --out")
    for rater in s.raters:
        gen.backend(rater)
    spec = get_benchmark(s.benchmark)
    languages = s.languages or spec.languages_for(s.benchmark_options)
    items, provenance = load_benchmark(spec, s.data_dir, list(languages), limit=s.limit, seed=0,
                                       **s.benchmark_options)  # fmt: skip
    if not items:
        raise DataError(f"no item in {', '.join(languages)}", file=str(s.data_dir or s.benchmark))
    prompt = load_prompts(s.prompts)["audit"]
    metrics = [METRICS[m] for m in s.metrics]
    ratings: list[dict[str, Any]] = []
    for rater in s.raters:
        keys = [(it, m) for it in items for m in metrics]
        progress.start(f"audit ({rater})", len(keys))
        comps = await gen.answer(rater, [audit_request(it, m, prompt, s) for it, m in keys], progress)
        for (it, m), comp in zip(keys, comps, strict=True):
            parsed = parse_rating(comp.text, m.scale) if comp.ok else Parsed(None, "error")
            ratings.append({
                "item_id": it.item_id, "lang": it.lang, "rater": rater, "metric": m.name, "scale": m.scale,
                "value": parsed.value, "parse_method": parsed.method,
                "justification": justification(comp.text) if parsed.value is not None else "",
                "reply": comp.text, "error": comp.error or "",
            })  # fmt: skip
    flags = structural_flags(items)
    item_rows = _item_table(items, ratings, metrics, flags, s.min_likert)
    summary = _summary(ratings, s.raters, metrics)
    agreement = _agreement(ratings, s.raters, metrics)
    settings = {
        "what": "xlingmed audit",
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "benchmark": s.benchmark,
        "languages": list(languages),
        "raters": list(s.raters),
        "metrics": {m.name: {"title": m.title, "scale": m.scale, "definition": m.definition} for m in metrics},
        "prompt": prompt,
        "prompt_id": prompt_id("audit", prompt),
        "temperature": s.temperature,
        "max_tokens": s.max_tokens,
        "min_likert": s.min_likert,
        "source_provenance": provenance,
        "unparsed": _unparsed(ratings),
        "generation": gen.stats(),
        "n_items": len(items),
        "n_suspect": sum(bool(r["suspect"]) for r in item_rows),
    }
    with output.staged_dir(s.out) as staging:
        output.write_csv(staging / "ratings.csv", ratings)
        output.write_csv(staging / "items.csv", item_rows)
        output.write_csv(staging / "summary.csv", summary)
        output.write_csv(staging / "agreement.csv", agreement)
        output.write_json(staging / "audit.json", settings)
    return AuditResult(s.out, ratings, item_rows, summary, agreement, gen.stats())


def _item_table(
    items: Sequence[Item],
    ratings: Sequence[dict[str, Any]],
    metrics: Sequence[Metric],
    flags: dict[tuple[str, str], list[str]],
    min_likert: float,
) -> list[dict[str, Any]]:
    by: dict[tuple[str, str, str], list[int]] = defaultdict(list)
    for r in ratings:
        if r["value"] is not None:
            by[(r["item_id"], r["lang"], r["metric"])].append(int(r["value"]))
    rows = []
    for it in items:
        row: dict[str, Any] = {"item_id": it.item_id, "lang": it.lang}
        reasons = list(flags[(it.item_id, it.lang)])
        for m in metrics:
            values = by.get((it.item_id, it.lang, m.name), [])
            mean = sum(values) / len(values) if values else None
            row[f"{m.name}_mean"] = mean
            row[f"{m.name}_n"] = len(values)
            if mean is not None and m.scale == "likert" and mean < min_likert:
                reasons.append(f"{m.name} {mean:.2f} < {min_likert:g}")
            if mean is not None and m.scale == "binary" and mean < 0.5:
                reasons.append(f"{m.name}: most raters say no")
        row["checks"] = "; ".join(flags[(it.item_id, it.lang)])
        row["suspect"] = bool(reasons)
        row["suspect_reasons"] = "; ".join(reasons)
        rows.append(row)
    return rows


def _summary(
    ratings: Sequence[dict[str, Any]], raters: Sequence[str], metrics: Sequence[Metric]
) -> list[dict[str, Any]]:
    """Table L1: one row per rater, per metric ``<metric>`` = "mean ± SD", ``<metric>_n``, ``<metric>_unparsed``;
    a final ``Overall Mean`` row (the mean of the raters' means, as the paper's)."""
    rows: list[dict[str, Any]] = []
    means: dict[str, list[float]] = defaultdict(list)
    for rater in raters:
        row: dict[str, Any] = {"rater": rater}
        for m in metrics:
            mine = [r for r in ratings if r["rater"] == rater and r["metric"] == m.name]
            values = [float(r["value"]) for r in mine if r["value"] is not None]
            mean = statistics.fmean(values) if values else None
            sd = statistics.stdev(values) if len(values) > 1 else None
            row[m.name] = None if mean is None else (f"{mean:.3f}" if sd is None else f"{mean:.3f} ± {sd:.3f}")
            row[f"{m.name}_mean"] = mean
            row[f"{m.name}_n"] = len(values)
            row[f"{m.name}_unparsed"] = sum(r["value"] is None and r["parse_method"] != "error" for r in mine)
            if mean is not None:
                means[m.name].append(mean)
        rows.append(row)
    overall: dict[str, Any] = {"rater": "Overall Mean"}
    for m in metrics:
        v = means[m.name]
        overall[m.name] = f"{statistics.fmean(v):.3f}" if v else None
        overall[f"{m.name}_mean"] = statistics.fmean(v) if v else None
    rows.append(overall)
    return rows


def _agreement(
    ratings: Sequence[dict[str, Any]], raters: Sequence[str], metrics: Sequence[Metric]
) -> list[dict[str, Any]]:
    """Per metric: ``n_items`` every rater rated, ``fleiss_kappa`` (``None`` with fewer than two raters or when
    undefined), ``spearman_mean`` (Likert: mean pairwise Spearman ρ; ``None`` where undefined)."""
    from xlingmed.analysis.agreement import fleiss_kappa, mean_spearman

    rows = []
    for m in metrics:
        table: dict[tuple[str, str], dict[str, int]] = defaultdict(dict)
        for r in ratings:
            if r["metric"] == m.name and r["value"] is not None:
                table[(r["item_id"], r["lang"])][r["rater"]] = int(r["value"])
        complete = [k for k, v in table.items() if all(x in v for x in raters)]
        kappa = rho = None
        if len(raters) > 1 and complete:
            cats = [1, 2, 3, 4, 5] if m.scale == "likert" else [0, 1]
            kappa = fleiss_kappa([[Counter(table[k].values())[c] for c in cats] for k in complete])
            if m.scale == "likert":
                rho = mean_spearman([[table[k][r] for k in complete] for r in raters])
        rows.append({"metric": m.name, "scale": m.scale, "raters": len(raters), "n_items": len(complete),
                     "fleiss_kappa": kappa, "spearman_mean": rho})  # fmt: skip
    return rows


def _unparsed(ratings: Sequence[dict[str, Any]]) -> dict[str, dict[str, dict[str, int]]]:
    """rater → language → method → count, for the replies not read (``unparsed``, ``ambiguous``,
    ``out_of_scale``, ``error``)."""
    out: dict[str, dict[str, dict[str, int]]] = defaultdict(lambda: defaultdict(dict))
    for r in ratings:
        if r["value"] is None:
            d = out[r["rater"]][r["lang"]]
            d[r["parse_method"]] = d.get(r["parse_method"], 0) + 1
    return {k: dict(v) for k, v in out.items()}
