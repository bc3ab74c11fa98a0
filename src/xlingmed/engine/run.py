"""A run: plan → walk the stages through the cache → score → write the run folder.

``evaluate(config)`` resolves the configuration once (``config.resolve``: a ``RunPlan``; ``run_plan`` runs one),
loads the items, lets each task build its samples, sends every stage's requests through
the completion cache (only misses reach the backend), parses the completions, turns each task's rows into its
summary and its Scores, and writes the run folder in one step (a staged folder renamed into place).
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from xlingmed import output
from xlingmed.config import RunConfig
from xlingmed.config.plan import RunPlan
from xlingmed.config.resolve import resolve
from xlingmed.engine.generate import CachedBackend, Counters, NoProgress, Progress
from xlingmed.engine.manifest import build_manifest, build_summary
from xlingmed.engine.plan import prepare
from xlingmed.engine.scoring import record, score_task
from xlingmed.engine.scoring import with_translation as with_translation
from xlingmed.engine.walk import StageBatch, walk
from xlingmed.faults import explain
from xlingmed.score_spool import ScoreSpool
from xlingmed.store import CompletionCache
from xlingmed.tasks import get_task
from xlingmed.types import Completion, GenerateRequest, Parsed, Sample, Score

SHARD_COMPLETIONS = "completions.sqlite"  # in a --shard run's folder: every completion the shard used


@dataclass
class RunResult:
    """What ``evaluate`` returns: the run folder, the summary written to ``summary.json``, and the counters."""

    out_dir: Path
    summary: dict[str, Any]
    backend_calls: int
    cache_hits: int
    failed_requests: int
    wall_s: float
    files: list[Path] = field(default_factory=list)

    @property
    def requests(self) -> int:
        """Every request the run used: sent now or answered from the cache."""
        return self.backend_calls + self.cache_hits

    def failure(self, tolerance: float | None = 0.0) -> str | None:
        """Why the run counts as failed under ``tolerance`` (``RunConfig.fail_on_error``: the share of failed
        requests tolerated; ``None`` = any share but all), or ``None`` when it does not: the message names the
        count, the share, the reasons per language (``summary.json`` → ``failures``) and what to do."""
        if not self.failed_requests:
            return None
        share = self.failed_requests / max(self.requests, 1)
        nothing = self.failed_requests >= self.requests
        if not nothing and (tolerance is None or share <= tolerance):
            return None
        reasons: dict[str, int] = {}
        for kinds in self.summary.get("failures", {}).values():
            for kind, n in kinds.items():
                reasons[kind] = reasons.get(kind, 0) + n
        why = ", ".join(f"{k} {n}" for k, n in sorted(reasons.items(), key=lambda kv: -kv[1]))
        allowed = "every request failed" if nothing else (
            "--fail-on-error tolerates none" if not tolerance else f"--fail-on-error tolerates {100 * tolerance:g}%"
        )  # fmt: skip
        return (
            f"{self.failed_requests} of {self.requests} requests failed ({100 * share:.1f}%; {allowed}): {why}. "
            f"The run folder {self.out_dir} is written with them counted per language; the same command resends "
            "them (--retry-failed also resends the cached 400/413/422 failures)"
        )

    def scores(self) -> Any:
        """The run's Score records (``scores.parquet``) as a pandas DataFrame, one row per Score."""
        import pandas as pd

        return pd.read_parquet(self.out_dir / "scores.parquet")


def evaluate(config: RunConfig | None = None, progress: Progress | None = None, **fields: Any) -> RunResult:
    """Run ``config`` (or the ``RunConfig`` of ``fields``: ``evaluate(benchmark=…, model=…)``) end to end and
    write its run folder.

    Bad input (config, data, model name, API key) raises before anything is written or sent.

    Raises:
        ConfigError, DataError, DataNotFoundError, ModelError: see their docstrings.
        BudgetExhausted: ``max_requests`` / ``max_cost`` reached (nothing written; the same call resumes).
    """
    return asyncio.run(evaluate_async(config, progress, **fields))


async def evaluate_async(
    config: RunConfig | None = None,
    progress: Progress | None = None,
    *,
    amend: Callable[[dict[str, Any], dict[str, Any]], None] | None = None,
    **fields: Any,
) -> RunResult:
    """``evaluate`` for callers that already run an event loop (notebooks, servers). ``amend(summary, manifest)``
    may change both before they are written (``xlingmed merge`` records its shards there)."""
    if config is None:
        from xlingmed.config import make_config

        config = make_config(**fields)
    elif fields:
        raise TypeError("evaluate takes a RunConfig or its fields, not both")
    return await run_plan(resolve(config), progress, amend=amend)


async def run_plan(
    plan: RunPlan,
    progress: Progress | None = None,
    *,
    amend: Callable[[dict[str, Any], dict[str, Any]], None] | None = None,
) -> RunResult:
    """Run the resolved ``plan`` (``config.resolve``) end to end and write its run folder: ``evaluate_async`` for
    a plan made once (the engine reads the plan, never the ``RunConfig``).

    Raises:
        as ``evaluate``; a fault of the machine (``OSError``, ``sqlite3.Error``) as one ``explain``-ed line.
    """
    out, cache_path = plan.settings.out, plan.settings.cache
    counters = Counters()
    try:
        return await _evaluate(plan, progress or NoProgress(), amend, counters)
    except (OSError, sqlite3.Error) as exc:  # the machine, not the input: one line saying what and what was kept
        sent, hits = counters.backend_calls, counters.cache_hits
        if sent:
            kept = f"the {sent} completion(s) received before it are kept in the cache {cache_path}"
        elif hits:
            kept = f"nothing was sent (every answer came from the cache {cache_path}, which is unchanged)"
        else:
            kept = "nothing was sent"
        fault = explain(exc, cache=cache_path, out=out, kept=kept)
        if fault is None:
            raise
        raise fault from exc


async def _evaluate(  # noqa: PLR0915 - one run's stages in order; the plan and scoring live elsewhere (issue 63)
    run: RunPlan,
    progress: Progress,
    amend: Callable[[dict[str, Any], dict[str, Any]], None] | None,
    counters: Counters,
) -> RunResult:
    started = datetime.now(UTC)
    t0 = time.perf_counter()
    plan = prepare(run)  # everything that can fail on bad input happens before the first request
    settings = plan.settings  # what the stages after the plan read of the configuration (config/plan.py)
    try:
        cache = CompletionCache(settings.cache)
    except BaseException:
        await plan.aclose()  # the model clients opened by the plan (no "Unclosed client session")
        raise
    failures: dict[str, dict[str, int]] = {lang: {} for lang in settings.languages}
    wrapped: dict[int, CachedBackend] = {}
    # samples.jsonl is spooled to disk as completions arrive (memory stays flat)
    samples_log = output.JsonlSpool(settings.out)
    # a shard's run folder carries the completions it used, so that merge needs nothing but the run folders
    shard_log = output.SqliteSpool(settings.out) if settings.sharded else None
    shard_store = CompletionCache(shard_log.path) if shard_log is not None else None

    parses: dict[tuple[int, str], Parsed | None] = {}  # (sample, stage) → its reply parsed, for the chunk's record

    async def answer(batch: StageBatch) -> list[Completion]:
        task, stage, backend, samples, requests = batch.task, batch.stage, batch.backend, batch.samples, batch.requests
        cached = wrapped.setdefault(
            id(backend), CachedBackend(backend, cache, counters, plan.budget, settings.retry_failed)
        )
        progress.start(f"{task.name}: {stage.name} ({backend.model_id})", len(requests))
        answers = await cached.answer(requests, progress, task=f"{task.name}:{stage.name}")
        for sample, req, (comp, from_cache) in zip(samples, requests, answers, strict=True):
            if shard_store is not None:
                shard_store.put(req.cache_key(backend.model_id), backend.model_id, req, comp)
            if not comp.ok:
                kinds = failures.setdefault(sample.item.lang, {})
                kinds[failure_kind(comp.error)] = kinds.get(failure_kind(comp.error), 0) + 1
            parsed = parses[(id(sample), stage.name)] = task.parse(stage.name, sample, comp)  # once: see record
            value, method = (parsed.value, parsed.method) if parsed else (None, None)
            samples_log.write(
                _log_line(task.name, stage.name, backend.model_id, sample, req, comp, from_cache, value, method)
            )
        return [comp for comp, _ in answers]

    summaries: dict[str, Any] = {}
    task_rows: dict[str, Sequence[dict[str, Any]]] = {}
    scores = ScoreSpool(settings.out)  # the spine every statistic reads (scores.parquet), on disk
    made = translations(plan.items)
    n_items = {lang: sum(1 for it in plan.items if it.lang == lang) for lang in settings.languages}
    plan.items = []  # each task's samples hold them while it is walked (a plan of 10⁶ requests: 10⁵ items)
    spools: list[Any] = [scores]
    try:
        records: output.RecordSpool | None = None
        async for task, samples, done, last in walk(plan, answer):
            if records is None:  # a task's records go to disk chunk by chunk: the reply texts are not held
                records = output.RecordSpool(settings.out)
                spools.append(records)
            records.extend(record(task, s, done[i], {n: parses.get((id(s), n)) for n in done[i]})
                           for i, s in enumerate(samples))  # fmt: skip
            parses.clear()  # the chunk's samples are recorded (their ids may be reused)
            if not last:
                continue
            progress.start(f"{task.name}: scoring", 1)
            scored = score_task(task, get_task(task.name), records, settings.languages, scores, made=made)
            records = None
            progress.advance()
            task_rows[task.name] = scored.rows
            task_rows.update(scored.tables)
            summaries[task.name] = scored.summary
    except BaseException:
        samples_log.discard()
        for spool in spools:
            spool.discard()
        if shard_log is not None:
            shard_log.discard()
        raise
    finally:
        try:
            cache.close()
            if shard_store is not None:
                shard_store.close()
        finally:
            await plan.aclose()  # even when the cache could not be closed (a full disk)

    # write: failed completions this run uses, sent now or cached earlier (permanent failures are cached)
    wall = time.perf_counter() - t0
    out_dir = settings.out
    summary = build_summary(settings, n_items, plan.provenance, summaries, counters, failures, plan.budget, wall)
    manifest = build_manifest(settings, plan.provenance, started, datetime.now(UTC), wall)
    summary.update(scored_items(scores, settings.languages))
    if settings.executor != "local":  # what the executor did: replicas, deaths, resends (engine/ray_pool.py)
        summary["executor"] = {
            "kind": settings.executor,
            "backends": {b.model_id: b.stats() for b in plan.backends if hasattr(b, "stats")},
        }
    if amend is not None:
        amend(summary, manifest)
    try:
        names = output.write_run(
            out_dir, samples=samples_log, tables=task_rows, scores=scores, summary=summary, manifest=manifest,
            private=settings.private, spools={SHARD_COMPLETIONS: shard_log} if shard_log is not None else None,
        )  # fmt: skip
    finally:
        samples_log.discard()
        for spool in spools:
            spool.discard()
        if shard_log is not None:
            shard_log.discard()
    return RunResult(
        out_dir=out_dir,
        summary=summary,
        backend_calls=counters.backend_calls,
        cache_hits=counters.cache_hits,
        failed_requests=summary["failed_requests"],
        wall_s=wall,
        files=[out_dir / name for name in names],
    )


def scored_items(scores: Iterable[Score], languages: Sequence[str]) -> dict[str, Any]:
    """``scored_items``: per task and language, the items with at least one scored outcome; ``uneven_losses``:
    per task, the languages with fewer than the most (failed requests and unread replies lost more of their items,
    which biases a comparison: the report and the command line mark them)."""
    seen: dict[str, dict[str, set[str]]] = {}
    for s in scores:
        if s.value is not None:
            seen.setdefault(s.task, {}).setdefault(s.lang, set()).add(s.item_id)
    counts = {task: {lang: len(per.get(lang, ())) for lang in languages} for task, per in seen.items()}
    uneven = {}
    for task, per in counts.items():
        most = max(per.values(), default=0)
        fewer = {lang: n for lang, n in per.items() if n < most}
        if fewer:
            uneven[task] = {"most": most, "fewer": fewer}
    return {"scored_items": counts, "uneven_losses": uneven}


def translations(items: Sequence[Any]) -> dict[tuple[str, str], str]:
    """(item_id, lang) → how the item's text was made (``Item.meta["translation"]``, set by the hub sets)."""
    return {(it.item_id, it.lang): it.meta["translation"] for it in items if it.meta.get("translation")}


# A failed request's reason, from the error text the backends write (models/*.py): the first rule that matches.
# A refused connection is ``connect``, never a timeout; the HTTP status decides where there is one.
_REASONS: tuple[tuple[str, str], ...] = (
    ("connect", r"^connection error|connection refused|cannot connect|name or service not known|"
                r"nodename nor servname|network is unreachable|no route to host|connect call failed"),
    ("timeout", r"^timeout|timed out"),
    ("rate_limit", r"\(429\)|ratelimit|rate limit"),
    ("auth", r"\((401|403)\)|authentication|permissiondenied|api key"),
    ("not_found", r"\(404\)|notfounderror"),
    ("bad_request", r"\((400|413|422)\)|badrequest|unprocessable|context length|context window"),
    ("server_error", r"\(5\d\d\)|internalservererror|serviceunavailable|no choices|overloaded"),
    ("malformed", r"^malformed response"),
    ("not_cached", r"^not in the cache"),
    ("batch", r"^batch line failed"),
    ("worker", r"^ray: "),
)  # fmt: skip
REASONS: tuple[str, ...] = (*(name for name, _ in _REASONS), "engine")


def failure_kind(error: str | None) -> str:
    """Why a request failed, as one of ``REASONS``: ``connect`` (refused, unreachable, DNS), ``timeout``,
    ``rate_limit`` (429), ``auth`` (401/403, a bad key), ``not_found`` (404: a wrong model or URL),
    ``bad_request`` (400/413/422: the prompt is too long, a bad parameter), ``server_error`` (5xx, a reply without
    choices), ``malformed`` (a 200 whose body is not a completion), ``not_cached`` (a merge's missing answer),
    ``batch`` (a batch API's failed line), ``worker`` (a Ray replica), ``engine`` (an in-process engine's error:
    llama.cpp, transformers, vLLM). The full message is in ``samples.jsonl``."""
    text = (error or "").strip().lower()
    for name, pattern in _REASONS:
        if re.search(pattern, text):
            return name
    return "engine"


def _log_line(
    task: str,
    stage: str,
    model_id: str,
    sample: Sample,
    req: GenerateRequest,
    comp: Completion,
    cached: bool,
    parsed: Any,
    method: str | None,
) -> dict[str, Any]:
    return {
        "item_id": sample.item.item_id,
        "lang": sample.item.lang,
        "task": task,
        "sample": sample.key,
        "stage": stage,
        "model": model_id,
        "temperature": req.temperature,
        "top_p": req.top_p,
        "top_k": req.top_k,
        "seed": req.seed,
        "raw_prompt": req.raw_prompt,
        "prompt": [{"role": m.role, "content": m.content} for m in req.messages],
        "response": comp.text,
        "finish_reason": comp.finish_reason,
        "parsed": parsed,
        "parse_method": method,
        "error": comp.error,
        "refusal": comp.refusal,
        "cached": cached,
        "latency_s": round(comp.latency_s, 4),
        "prompt_tokens": comp.prompt_tokens,
        "completion_tokens": comp.completion_tokens,
    }
