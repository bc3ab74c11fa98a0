"""plan: everything decided before the first request — items, tasks with their samples, a backend per role.

Everything that can fail on bad input (config, data, encoders, model names, API keys, prices) fails here,
before anything is sent or written.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from xlingmed import output
from xlingmed.benchmarks import load_benchmark
from xlingmed.budget import Budget, Price, parse_prices
from xlingmed.config import RunConfig
from xlingmed.config.plan import RunSettings
from xlingmed.engine.executors import CacheOnly, RayOptions, split_executor_args
from xlingmed.engine.memory import give_back_freed_memory
from xlingmed.engine.preflight import check_environment
from xlingmed.engine.settings import run_settings
from xlingmed.errors import ConfigError, DataError
from xlingmed.models.base import ModelAPI, ModelOptions, get_model
from xlingmed.store import default_cache_path
from xlingmed.tasks import Task, get_task
from xlingmed.types import Item, Sample


@dataclass
class TaskSamples:
    """A task's samples, made from its items a part at a time as the run walks them (``engine/walk.py``): a plan
    of a million requests never holds a million Samples. ``count`` comes from a first pass made with the plan,
    which also runs every check of ``Task.samples`` (a ``ConfigError``) before anything is sent.

    A task whose samples of some items are the samples of each item in turn says so (``samples_by_item = True``:
    every built-in task but HealthBench, whose non-English rubrics come from the English items); any other task's
    samples are made at once, as before."""

    task: Task
    items: Sequence[Item]
    count: int = 0

    @classmethod
    def of(cls, task: Task, items: Sequence[Item]) -> TaskSamples:
        self = cls(task, items)
        self.count = sum(len(part) for part in self.parts(8192))  # (the walk's parts may be of another size)
        return self

    def release(self) -> None:
        """Let the items go (the walk has made every part): with the plan's, the last reference to them."""
        self.items = ()

    def parts(self, size: int) -> Iterator[list[Sample]]:
        """The task's samples in order, about ``size`` at a time (a part of a per-item task ends with an item)."""
        if not self.task.samples_by_item:
            whole = self.task.samples(self.items)
            for start in range(0, len(whole), size):
                yield whole[start : start + size]
            return
        per_item = len(self.task.samples(self.items[:1])) if self.items else 1  # items per part, from the first
        step = max(1, size // max(per_item, 1))
        for start in range(0, len(self.items), step):
            part = self.task.samples(self.items[start : start + step])
            if part:
                yield part


@dataclass
class Plan:
    """Items, each task with its samples, and a backend per role (``model``, ``judge``, ``translator``,
    ``extractor``)."""

    items: list[Item]
    provenance: dict[str, Any]
    plans: list[tuple[Task, TaskSamples]]
    roles: dict[str, ModelAPI]
    backends: list[ModelAPI]
    budget: Budget
    settings: RunSettings  # what the stages after the plan read of the configuration (engine/settings.py)
    sampling: dict[str, Any] = field(default_factory=dict)  # --top-p/--top-k: laid over the model's requests

    async def aclose(self) -> None:
        for backend in self.backends:
            await backend.aclose()


def build_tasks(config: RunConfig) -> list[Task]:
    """The configured tasks, each built by its registered builder from its options (``tasks/registry.py``).
    Tasks load their encoders here, so a bad model path fails before any request.

    Raises:
        ConfigError: an encoder that cannot be loaded, or an invalid task setting.
    """
    return [get_task(name).build(config.task_context(name), config.options(name)) for name in config.tasks]


def make_plan(config: RunConfig) -> Plan:  # noqa: PLR0915 - becomes config.resolve (issue 63, part 1)
    """Load and check everything that can fail on bad input, and every package the run needs
    (``engine/preflight.py``).

    Raises:
        ConfigError, DataError, DataNotFoundError, ModelError: see their docstrings.
        EnvironmentFault: a package the run needs does not import (exit 5 on the command line).
    """
    output.check_run_dir(Path(config.out))
    check_environment((m, f"the {name} task's scoring") for name in config.tasks for m in get_task(name).imports)
    items, provenance = load_benchmark(
        config.spec,
        config.data_dir,
        config.languages,
        limit=config.limit,
        seed=config.seed or 0,
        **config.benchmark_options(),
    )
    give_back_freed_memory()  # the file's parse buffers, gone now (engine/memory.py)
    if not items:  # a run that would produce nothing never exits 0 (a header-only file, no row in these languages)
        raise DataError(f"{config.benchmark}: no items in the languages {', '.join(config.languages)}; nothing to run")
    if config.shard is not None:  # before perturbation: a question's bias variants stay in its shard
        from xlingmed.engine.shard import parse_shard, select_shard

        shard = parse_shard(config.shard)
        n_questions = len({it.item_id for it in items})
        items = select_shard(items, shard)
        if not items:
            raise ConfigError(
                f"shard {shard} holds none of the {n_questions} questions: use fewer shards than questions"
            )
        provenance["shard"] = {"shard": str(shard), "questions": len({it.item_id for it in items}),
                               "questions_in_all_shards": n_questions}  # fmt: skip
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
    plans = [(task, TaskSamples.of(task, items)) for task in tasks]
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
        cache_path=config.cache or default_cache_path(),
    )
    # one backend per distinct (model, server): a judge or translator that is the model shares its instance
    backends: dict[tuple[str, ModelOptions], ModelAPI] = {}

    def backend_for(model_id: str, opts: ModelOptions) -> ModelAPI:
        if (model_id, opts) not in backends:
            backends[(model_id, opts)] = get_model(model_id, opts)
        return backends[(model_id, opts)]

    # -M options are the model under test's (less the executor's); a judge or translator that is the same model
    # shares its instance
    backend_args, executor_args = split_executor_args(config.model_args)
    model_opts = replace(options, args=tuple(sorted(backend_args.items())))
    roles: dict[str, ModelAPI] = {"model": backend_for(config.model, model_opts)}
    if any(stage.role == "judge" for task in tasks for stage in task.stages):
        judge_opts = model_opts if config.judge_model == config.model else options
        roles["judge"] = backend_for(
            config.judge_model, replace(judge_opts, base_url=config.judge_base_url or config.base_url)
        )
    if config.uses("translator") and any(s.role == "translator" for task in tasks for s in task.stages):
        tr_opts = model_opts if config.translator_model == config.model else options
        roles["translator"] = backend_for(
            config.translator_model,
            replace(tr_opts, base_url=config.translator_base_url or config.judge_base_url or config.base_url),
        )
    extractor = config.extractor_model
    if extractor is not None and any(s.role == "extractor" for task in tasks for s in task.stages):
        ex_opts = model_opts if extractor == config.model else options
        roles["extractor"] = backend_for(
            extractor, replace(ex_opts, base_url=config.extractor_base_url or config.judge_base_url or config.base_url)
        )
    budget = Budget(max_requests=config.max_requests, max_cost=config.max_cost, prices=parse_prices(config.prices))
    for backend in roles.values():  # a backend that knows its list price (litellm/) fills in what --price left out
        lookup = getattr(backend, "list_price", None)
        if backend.model_id not in budget.prices and lookup is not None:
            found = lookup()
            if found is not None:
                budget.prices[backend.model_id] = Price(*found)
                budget.price_sources[backend.model_id] = "LiteLLM cost map"
    budget.check_prices(sorted({b.model_id for b in roles.values()}))
    specs = {id(b): key for key, b in backends.items()}  # how a Ray actor builds each backend again
    roles, executors = executor_backends(config, roles, executor_args, specs)
    sampling = {k: v for k, v in (("top_p", config.top_p), ("top_k", config.top_k)) if v is not None}
    return Plan(items, provenance, plans, roles, executors, budget, run_settings(config), sampling)


def executor_backends(
    config: RunConfig,
    roles: dict[str, ModelAPI],
    executor_args: dict[str, Any],
    specs: dict[int, tuple[str, ModelOptions]],
) -> tuple[dict[str, ModelAPI], list[ModelAPI]]:
    """Each role's backend as the executor answers it (``engine/executors.py``): itself (``local``), a Ray pool
    of its replicas (``ray``: the model under test, and a judge or translator that is the same model; another
    judge stays on the driver) or a stand-in that sends nothing (``cache``); and the backends to close.
    ``specs`` maps each backend (by ``id``) to the ``(provider/model, ModelOptions)`` it was built from.

    Raises:
        ConfigError: a bad ``-M`` executor option; ModelError: ``ray`` without the ``[ray]`` extra.
    """
    if config.executor == "local":
        return roles, list({id(b): b for b in roles.values()}.values())
    wrapped: dict[int, ModelAPI] = {}
    for backend in roles.values():
        if id(backend) in wrapped:
            continue
        if config.executor == "cache":
            wrapped[id(backend)] = CacheOnly(backend.model_id)
        elif backend is not roles["model"]:
            # a judge or translator other than the model under test stays on the driver: the -M replica
            # settings (GPUs per replica…) are the model's, and an HTTP API gains nothing from an actor
            wrapped[id(backend)] = backend
        else:
            from pydantic import ValidationError

            from xlingmed.engine.ray_pool import RayPool, import_ray

            import_ray()  # a missing extra fails here, before anything is sent or written
            try:
                ray_options = RayOptions(**executor_args)
            except ValidationError as exc:
                raise ConfigError(f"--executor ray: {exc.errors()[0]['loc'][0]}: {exc.errors()[0]['msg']}") from None
            model_id, opts = specs[id(backend)]
            wrapped[id(backend)] = RayPool(backend, model_id, opts, ray_options, address=config.ray_address)
    return {role: wrapped[id(b)] for role, b in roles.items()}, list(wrapped.values())
