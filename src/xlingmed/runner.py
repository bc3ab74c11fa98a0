"""plan → generate → score → write.

``evaluate(config)`` loads the items, lets each task build its samples, sends every stage's requests through
the completion cache (only misses reach the backend, with bounded concurrency), parses the completions,
summarises them per language and writes the run folder.
"""

from __future__ import annotations

import asyncio
import platform
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any, Protocol

from xlingmed import output
from xlingmed.benchmarks import load_benchmark
from xlingmed.budget import Budget, parse_prices, request_tokens
from xlingmed.config import RunConfig
from xlingmed.errors import BudgetExhausted
from xlingmed.models.base import ModelAPI, ModelOptions, get_model, is_free
from xlingmed.parsing.methods import parse_counts, parse_key
from xlingmed.store import CompletionCache, default_cache_path
from xlingmed.tasks import Task, get_task
from xlingmed.types import Completion, GenerateRequest, Sample, Score


class Progress(Protocol):
    """What the runner reports while it works (the CLI draws rich progress bars from it)."""

    def start(self, description: str, total: int) -> None: ...

    def advance(self, n: int = 1) -> None: ...


class _NoProgress:
    def start(self, description: str, total: int) -> None:
        pass

    def advance(self, n: int = 1) -> None:
        pass


@dataclass
class Counters:
    backend_calls: int = 0
    cache_hits: int = 0
    failed: int = 0


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


async def generate_all(
    model: ModelAPI,
    requests: Sequence[GenerateRequest],
    cache: CompletionCache | None,
    counters: Counters,
    progress: Progress,
    budget: Budget | None = None,
    retry_failed: bool = False,
) -> list[tuple[Completion, bool]]:
    """Answer ``requests`` in order, from the cache where possible.

    Identical requests are sent once. Misses go to the backend through ``model.max_concurrency`` workers (the
    backend paces itself further: ``models/pacing.py``); each completion is committed to the cache as soon as
    it arrives, so an interrupted run resumes with nothing lost or sent twice. Failed requests come back with
    ``error`` set; only permanent failures are cached, and ``retry_failed`` resends those too.

    Returns:
        ``(completion, from_cache)`` per request, in the order of ``requests``.

    Raises:
        BudgetExhausted: ``budget`` ran out; the requests in flight were finished and cached first.
    """
    keys = [r.cache_key(model.model_id) for r in requests]
    results: dict[str, tuple[Completion, bool]] = {}
    todo: dict[str, GenerateRequest] = {}
    for key, req in zip(keys, requests, strict=True):
        if key in results or key in todo:
            continue
        hit = cache.get(key) if cache is not None else None
        if hit is not None and not (retry_failed and not hit.ok):
            results[key] = (hit, True)
            counters.cache_hits += 1
            progress.advance()
        else:
            todo[key] = req
    queue: asyncio.Queue[tuple[str, GenerateRequest]] = asyncio.Queue()
    for item in todo.items():
        queue.put_nowait(item)

    async def worker() -> None:
        while True:
            try:
                key, req = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            reserved = 0.0
            if budget is not None:
                est = budget.try_reserve(model.model_id, req)
                if est is None:
                    return  # over budget: send nothing more; the others stop at their next request
                reserved = est
            comp = await model.generate(req)
            counters.backend_calls += 1
            if budget is not None:
                budget.settle(model.model_id, reserved, comp)
            if cache is not None:
                cache.put(key, model.model_id, req, comp)  # transient failures are not stored
            if not comp.ok:
                counters.failed += 1
            results[key] = (comp, False)
            progress.advance()

    n_workers = min(model.max_concurrency, len(todo))
    if n_workers:
        await asyncio.gather(*(worker() for _ in range(n_workers)))
    if budget is not None and budget.stopped is not None:
        raise BudgetExhausted(
            f"{budget.stopped}: stopped after {counters.backend_calls} backend calls; every answer so far is "
            "cached and the same command resumes the run (nothing was written to the run folder)"
        )
    return [results[k] for k in keys]


def build_tasks(config: RunConfig) -> list[Task]:
    """The configured tasks, each built by its registered builder from its options (``tasks/registry.py``).
    Tasks load their encoders here, so a bad model path fails before any request.

    Raises:
        ConfigError: an encoder that cannot be loaded, or an invalid task setting.
    """
    return [get_task(name).build(config, config.options(name)) for name in config.tasks]


def _package_versions() -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for name in (
        "xlingmed",
        "llama-cpp-python",
        "openai",
        "pandas",
        "openpyxl",
        "scikit-learn",
        "numpy",
        "torch",
        "transformers",
        "bert-score",
        "sentence-transformers",
        "gensim",
        "langid",
        "nltk",
    ):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def evaluate(config: RunConfig, progress: Progress | None = None) -> RunResult:
    """Run ``config`` end to end and write its run folder.

    Bad input (config, data, model name, API key) raises before anything is written or sent.

    Raises:
        ConfigError, DataError, DataNotFoundError, ModelError: see their docstrings.
    """
    return asyncio.run(evaluate_async(config, progress))


@dataclass
class _Plan:
    """Everything decided before the first request: items, tasks with their samples, and a backend per role."""

    items: list[Any]
    provenance: dict[str, Any]
    plans: list[tuple[Task, list[Sample]]]
    roles: dict[str, ModelAPI]
    backends: list[ModelAPI]
    budget: Budget

    async def aclose(self) -> None:
        for backend in self.backends:
            await backend.aclose()


def _make_plan(config: RunConfig) -> _Plan:
    """Load and check everything that can fail on bad input (data, config, encoders, model names, API keys).

    Raises:
        ConfigError, DataError, DataNotFoundError, ModelError: see their docstrings.
    """
    output.check_run_dir(Path(config.out))
    items, provenance = load_benchmark(
        config.spec,
        config.data_dir,
        config.languages,
        limit=config.limit,
        seed=config.seed or 0,
        **config.benchmark_options(),
    )
    if config.perturb is not None:
        from xlingmed.perturbations import BiasInjector, parse_perturb

        injector = BiasInjector(
            biases=parse_perturb(config.perturb),
            mitigations=config.mitigations,
            target_policy=config.bias_target,
            target_render=config.bias_target_render,
            position=config.bias_position,
            seed=config.seed or 0,
        )
        items = injector.apply(items)
        provenance["perturbation"] = injector.settings()
    tasks = build_tasks(config)
    plans: list[tuple[Task, list[Sample]]] = [(task, task.samples(items)) for task in tasks]
    options = ModelOptions(
        base_url=config.base_url,
        api_key_env=config.api_key_env,
        max_concurrency=config.max_concurrency,
        max_retries=config.max_retries,
        timeout_s=config.timeout_s,
        retry_cap_s=config.retry_cap_s,
        rpm=config.rpm,
        tpm=config.tpm,
        n_ctx=config.n_ctx,
    )
    # one backend per distinct (model, server): a judge or translator that is the model shares its instance
    backends: dict[tuple[str, ModelOptions], ModelAPI] = {}

    def backend_for(model_id: str, opts: ModelOptions) -> ModelAPI:
        if (model_id, opts) not in backends:
            backends[(model_id, opts)] = get_model(model_id, opts)
        return backends[(model_id, opts)]

    # -M options are the model under test's; a judge or translator that is the same model shares its instance
    model_opts = replace(options, args=tuple(sorted(config.model_args.items())))
    roles: dict[str, ModelAPI] = {"model": backend_for(config.model, model_opts)}
    if any(stage.role == "judge" for task in tasks for stage in task.stages):
        judge_opts = model_opts if config.judge_model == config.model else options
        roles["judge"] = backend_for(
            config.judge_model, replace(judge_opts, base_url=config.judge_base_url or config.base_url)
        )
    if config.consistency_paper_mode and any(s.role == "translator" for task in tasks for s in task.stages):
        tr_opts = model_opts if config.translator_model == config.model else options
        roles["translator"] = backend_for(
            config.translator_model,
            replace(tr_opts, base_url=config.translator_base_url or config.judge_base_url or config.base_url),
        )
    budget = Budget(max_requests=config.max_requests, max_cost=config.max_cost, prices=parse_prices(config.prices))
    budget.check_prices(sorted({b.model_id for b in roles.values()}))
    return _Plan(items, provenance, plans, roles, list(backends.values()), budget)


def dry_run(config: RunConfig) -> list[dict[str, Any]]:
    """What ``evaluate(config)`` would send, without calling any model or writing anything.

    One row per task × stage × model × language × temperature: ``requests`` (distinct), ``cached`` (answered
    from the cache), ``to_send``, ``prompt_tokens`` (estimated, ≈ 4 characters per token), ``max_completion_tokens``
    (the upper bound sent as ``max_tokens``) and ``cost_usd`` (worst case, when the model has a price).
    Later stages (judge, translation) are built from the cached answers where there are some; where an answer is
    not known yet, the prompt holds a stand-in of full ``max_tokens`` length and ``upper_bound`` is true.

    Raises:
        ConfigError, DataError, DataNotFoundError, ModelError: as ``evaluate``.
    """
    plan = _make_plan(config)
    asyncio.run(plan.aclose())
    cache_path = config.cache or default_cache_path()
    cache = CompletionCache.open_readonly(cache_path)
    rows: dict[tuple[str, str, str, str, float], dict[str, Any]] = {}
    seen: set[str] = set()
    try:
        for task, samples in plan.plans:
            done: list[dict[str, Completion]] = [{} for _ in samples]
            guessed = [False] * len(samples)  # an earlier stage of this sample is not cached: estimates only
            for stage in task.stages:
                backend = plan.roles.get(stage.role)
                if backend is None:
                    continue
                price = plan.budget.price(backend.model_id)
                priced = backend.model_id in plan.budget.prices or is_free(backend.model_id)
                for i, sample in enumerate(samples):
                    req = task.request(stage.name, sample, done[i])
                    if req is None:
                        continue
                    key = req.cache_key(backend.model_id)
                    hit = cache.get(key) if cache is not None else None
                    usable = hit is not None and not (config.retry_failed and not hit.ok)
                    # later stages see the cached answer when there is one, else one of full max_tokens length
                    done[i][stage.name] = hit if hit and usable else Completion(_placeholder(req.max_tokens))
                    if key in seen:
                        continue
                    seen.add(key)
                    row = rows.setdefault(
                        (task.name, stage.name, backend.model_id, sample.item.lang, req.temperature),
                        {
                            "task": task.name,
                            "stage": stage.name,
                            "model": backend.model_id,
                            "lang": sample.item.lang,
                            "temperature": req.temperature,
                            "requests": 0,
                            "cached": 0,
                            "to_send": 0,
                            "prompt_tokens": 0,
                            "max_completion_tokens": 0,
                            "cost_usd": 0.0 if priced else None,
                            "upper_bound": False,
                        },
                    )
                    row["requests"] += 1
                    row["upper_bound"] = row["upper_bound"] or guessed[i]
                    if usable:
                        row["cached"] += 1
                        continue
                    guessed[i] = True
                    tokens = request_tokens(req)
                    row["to_send"] += 1
                    row["prompt_tokens"] += tokens
                    row["max_completion_tokens"] += req.max_tokens
                    if row["cost_usd"] is not None:
                        row["cost_usd"] += price.cost(tokens, req.max_tokens)
    finally:
        if cache is not None:
            cache.close()
    return list(rows.values())


def _placeholder(max_tokens: int) -> str:
    """An answer of about ``max_tokens`` tokens, standing in for one not generated yet (dry runs)."""
    words = "the patient should ask a doctor about this medicine "
    return (words * (4 * max_tokens // len(words) + 1))[: 4 * max_tokens]


async def evaluate_async(config: RunConfig, progress: Progress | None = None) -> RunResult:
    """``evaluate`` for callers that already run an event loop (notebooks, servers).

    Raises:
        BudgetExhausted: ``max_requests`` / ``max_cost`` reached (nothing written; the same call resumes).
    """
    progress = progress or _NoProgress()
    started = datetime.now(UTC)
    t0 = time.perf_counter()

    # plan: everything that can fail on bad input happens before the first request
    plan = _make_plan(config)
    items, provenance, plans, roles, budget = plan.items, plan.provenance, plan.plans, plan.roles, plan.budget
    cache_path = config.cache or default_cache_path()
    cache = CompletionCache(cache_path)
    counters = Counters()
    failures: dict[str, dict[str, int]] = {lang: {} for lang in config.languages}

    # generate and score; samples.jsonl is spooled to disk as completions arrive (memory stays flat)
    samples_log = output.JsonlSpool(Path(config.out))
    summaries: dict[str, Any] = {}
    task_rows: dict[str, list[dict[str, Any]]] = {}
    scores: list[Score] = []
    try:
        for task, samples in plans:
            done: list[dict[str, Completion]] = [{} for _ in samples]
            for stage in task.stages:
                backend = roles.get(stage.role)
                if backend is None:
                    continue
                pending = [
                    (i, req) for i, s in enumerate(samples) if (req := task.request(stage.name, s, done[i])) is not None
                ]
                progress.start(f"{task.name}: {stage.name} ({backend.model_id})", len(pending))
                answers = await generate_all(
                    backend, [r for _, r in pending], cache, counters, progress, budget, config.retry_failed
                )
                for (i, req), (comp, cached) in zip(pending, answers, strict=True):
                    done[i][stage.name] = comp
                    if not comp.ok:
                        kinds = failures.setdefault(samples[i].item.lang, {})
                        kinds[failure_kind(comp.error)] = kinds.get(failure_kind(comp.error), 0) + 1
                    parsed = task.parse(stage.name, samples[i], comp)
                    samples_log.write(
                        _log_line(
                            task.name,
                            stage.name,
                            backend.model_id,
                            samples[i],
                            req,
                            comp,
                            cached,
                            parsed.value if parsed else None,
                            parsed.method if parsed else None,
                        )
                    )
            records = [task.record(s, done[i]) for i, s in enumerate(samples)]
            progress.start(f"{task.name}: scoring", 1)
            result = task.score(records, config.languages)
            progress.advance()
            task_rows[task.name] = result.rows
            task_rows.update(result.tables)
            score_rows = get_task(task.name).scores
            if score_rows is not None:  # the spine every statistic reads (scores.parquet)
                scores.extend(score_rows(result.rows))
            summaries[task.name] = result.summary
            key = parse_key(result.rows)
            if key is not None:  # every parse visible: per language × method, with the >5 % warnings
                summaries[task.name]["parsing"] = parse_counts(result.rows, config.languages, method_key=key)
    except BaseException:
        samples_log.discard()
        raise
    finally:
        cache.close()
        await plan.aclose()

    # write
    # failed completions this run uses, sent now or cached earlier (permanent failures are cached)
    n_failed = sum(n for kinds in failures.values() for n in kinds.values())
    finished = datetime.now(UTC)
    wall = time.perf_counter() - t0
    out_dir = Path(config.out)
    summary = {
        "benchmark": config.benchmark,
        "model": config.model,
        "judge": config.judge_model if {"correctness", "rubric"} & set(config.tasks) else None,
        "translator": config.translator_model
        if ("consistency" in config.tasks and config.consistency_paper_mode)
        else None,
        "languages": list(config.languages),
        "n_items_per_language": {lang: sum(1 for it in items if it.lang == lang) for lang in config.languages},
        "dataset": {
            k: provenance[k]
            for k in ("file", "sha256", "version", "rows_used", "quirks", "flagged_items", "perturbation")
            if k in provenance
        },
        "tasks": summaries,
        "parse_warnings": {
            name: s["parsing"]["warnings"] for name, s in summaries.items() if s.get("parsing", {}).get("warnings")
        },
        "backend_calls": counters.backend_calls,
        "cache_hits": counters.cache_hits,
        "failed_requests": n_failed,
        "failures": {lang: kinds for lang, kinds in failures.items() if kinds},
        "cost_usd": round(budget.spent, 6) if budget.prices else None,
        "wall_s": round(wall, 3),
    }
    manifest = {
        "xlingmed_version": _package_versions()["xlingmed"],
        "config": config.model_dump(mode="json"),
        "resolved": config.resolved(),
        "argv": sys.argv,
        "packages": _package_versions(),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "dataset": provenance,
        "cache": str(cache_path),
        "started_at": started.isoformat(),
        "finished_at": finished.isoformat(),
        "wall_s": round(wall, 3),
    }
    names = ["samples.jsonl", "summary.json", "manifest.json"]
    try:
        with output.staged_dir(out_dir) as staging:
            samples_log.move_to(staging / names[0])
            for name, rows in task_rows.items():
                output.write_csv(staging / f"{name}.csv", rows)
                names.append(f"{name}.csv")
            names += output.write_scores(staging, scores)
            output.write_json(staging / names[1], summary)
            output.write_json(staging / names[2], manifest)
    finally:
        samples_log.discard()
    files = [out_dir / name for name in names]
    return RunResult(
        out_dir=out_dir,
        summary=summary,
        backend_calls=counters.backend_calls,
        cache_hits=counters.cache_hits,
        failed_requests=n_failed,
        wall_s=wall,
        files=files,
    )


def failure_kind(error: str | None) -> str:
    """The reason of a failed request without its details: ``"RateLimitError (429)"``, ``"timeout"``…"""
    head = re.sub(r" after \d+ attempts$", "", (error or "unknown").split(":", 1)[0].strip())
    return head or "unknown"


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
        "seed": req.seed,
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
