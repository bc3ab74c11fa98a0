"""plan: what the resolved plan (``config.resolve``: ``RunPlan``) needs done with I/O before the first request —
items loaded, sharded and perturbed, tasks built with their samples, a backend per role, prices looked up.

Everything that can fail on bad input (data, encoders, model names, API keys, prices) fails here, before anything
is sent or written (the configuration itself failed earlier, when it was validated and resolved).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from xlingmed import output
from xlingmed.benchmarks import load_benchmark
from xlingmed.budget import Budget, Price
from xlingmed.config.plan import (
    BackendSpec,
    BenchmarkRequest,
    BudgetPlan,
    ExecutorPlan,
    Perturbation,
    RunPlan,
    RunSettings,
    TaskPlan,
)
from xlingmed.config.resolve import as_plan
from xlingmed.config.values import Shard
from xlingmed.engine.executors import CacheOnly, RayOptions
from xlingmed.engine.memory import give_back_freed_memory
from xlingmed.engine.preflight import check_environment
from xlingmed.errors import ConfigError, DataError
from xlingmed.models.base import ModelAPI, ModelOptions, get_model
from xlingmed.tasks import Task
from xlingmed.types import Item, Sample

if TYPE_CHECKING:
    from xlingmed.config import RunConfig


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
    settings: RunSettings  # what the stages after the plan read of the configuration (config/plan.py)
    sampling: dict[str, Any] = field(default_factory=dict)  # --top-p/--top-k: laid over the model's requests

    async def aclose(self) -> None:
        for backend in self.backends:
            await backend.aclose()


def build_tasks(config: RunPlan | RunConfig) -> list[Task]:
    """The plan's tasks, each built by its registered builder from its context and options (``tasks/registry.py``).
    Tasks load their encoders here, so a bad model path fails before any request. A ``RunConfig`` (the API of 0.2)
    is resolved first.

    Raises:
        ConfigError: an encoder that cannot be loaded, or an invalid task setting.
    """
    return build(as_plan(config).tasks)


def build(tasks: Sequence[TaskPlan]) -> list[Task]:
    """Each task of the plan built from its context and options (``build_tasks``)."""
    return [t.spec.build(t.context, t.options) for t in tasks]


def make_plan(config: RunPlan | RunConfig) -> Plan:
    """``prepare(resolve(config))``: the API of 0.2, for a ``RunConfig``; a ``RunPlan`` is prepared as it is."""
    return prepare(as_plan(config))


def prepare(plan: RunPlan) -> Plan:
    """Load and check everything that can fail on bad input, and every package the run needs
    (``engine/preflight.py``), for the resolved ``plan``.

    Raises:
        ConfigError, DataError, DataNotFoundError, ModelError: see their docstrings.
        EnvironmentFault: a package the run needs does not import (exit 5 on the command line).
    """
    output.check_run_dir(Path(plan.settings.out))
    check_environment((m, f"the {t.name} task's scoring") for t in plan.tasks for m in t.spec.imports)
    items, provenance = load_items(plan.benchmark, plan.shard, plan.perturbation)
    tasks = build(plan.tasks)
    plans = [(task, TaskSamples.of(task, items)) for task in tasks]
    roles, specs = role_backends(plan.roles, tasks)
    budget = price_budget(plan.budget, roles)
    roles, executors = executor_backends(plan.executor, roles, specs)
    return Plan(items, provenance, plans, roles, executors, budget, plan.settings, dict(plan.sampling))


def load_items(
    request: BenchmarkRequest, shard: Shard | None, bias: Perturbation | None
) -> tuple[list[Item], dict[str, Any]]:
    """The run's items (``request``), of its ``shard`` and perturbed (``bias``), with their provenance.

    Raises:
        ConfigError, DataError, DataNotFoundError: a shard without questions, no items, bad data.
    """
    items, provenance = load_benchmark(
        request.spec, request.data_dir, request.languages, limit=request.limit, seed=request.seed, **request.options
    )
    give_back_freed_memory()  # the file's parse buffers, gone now (engine/memory.py)
    if not items:  # a run that would produce nothing never exits 0 (a header-only file, no row in these languages)
        raise DataError(f"{request.name}: no items in the languages {', '.join(request.languages)}; nothing to run")
    if shard is not None:  # before perturbation: a question's bias variants stay in its shard
        from xlingmed.engine.shard import select_shard

        n_questions = len({it.item_id for it in items})
        items = select_shard(items, shard)
        if not items:
            raise ConfigError(
                f"shard {shard} holds none of the {n_questions} questions: use fewer shards than questions"
            )
        provenance["shard"] = {"shard": str(shard), "questions": len({it.item_id for it in items}),
                               "questions_in_all_shards": n_questions}  # fmt: skip
    if bias is not None:
        from xlingmed.perturbations import BiasInjector

        injector = BiasInjector(
            biases=bias.biases, mitigations=bias.mitigations, target_policy=bias.target_policy,
            target_render=bias.target_render, position=bias.position, seed=bias.seed,
        )  # fmt: skip
        items = injector.apply(items)
        provenance["perturbation"] = injector.settings()
    return items, provenance


def role_backends(
    wanted: Mapping[str, BackendSpec], tasks: Sequence[Task]
) -> tuple[dict[str, ModelAPI], dict[int, tuple[str, ModelOptions]]]:
    """A backend for the model under test, and for each other role of ``wanted`` that a built task's stages send
    to; one backend per distinct ``BackendSpec`` (a judge or translator that is the model shares its instance).
    Returns (role → backend, ``id(backend)`` → the ``(provider/model, ModelOptions)`` it was built from: how a Ray
    actor builds it again).

    Raises:
        ModelError: an unknown provider or a model that cannot be set up.
    """
    backends: dict[BackendSpec, ModelAPI] = {}

    def backend_for(spec: BackendSpec) -> ModelAPI:
        if spec not in backends:
            backends[spec] = get_model(spec.model_id, spec.options)
        return backends[spec]

    used = {stage.role for task in tasks for stage in task.stages}
    roles = {"model": backend_for(wanted["model"])}
    for role in ("judge", "translator", "extractor"):
        if role in wanted and role in used:
            roles[role] = backend_for(wanted[role])
    return roles, {id(b): (spec.model_id, spec.options) for spec, b in backends.items()}


def price_budget(plan: BudgetPlan, roles: Mapping[str, ModelAPI]) -> Budget:
    """The run's ``Budget``: the ``--price`` list, with the list price a backend knows (litellm/) where it left one
    out.

    Raises:
        ConfigError: ``--max-cost`` and a remote model without a price.
    """
    budget = Budget(max_requests=plan.max_requests, max_cost=plan.max_cost, prices=dict(plan.prices))
    for backend in roles.values():  # a backend that knows its list price (litellm/) fills in what --price left out
        lookup = getattr(backend, "list_price", None)
        if backend.model_id not in budget.prices and lookup is not None:
            found = lookup()
            if found is not None:
                budget.prices[backend.model_id] = Price(*found)
                budget.price_sources[backend.model_id] = "LiteLLM cost map"
    budget.check_prices(sorted({b.model_id for b in roles.values()}))
    return budget


def executor_backends(
    executor: ExecutorPlan,
    roles: dict[str, ModelAPI],
    specs: dict[int, tuple[str, ModelOptions]],
) -> tuple[dict[str, ModelAPI], list[ModelAPI]]:
    """Each role's backend as the executor answers it (``engine/executors.py``): itself (``local``), a Ray pool
    of its replicas (``ray``: the model under test, and a judge or translator that is the same model; another
    judge stays on the driver) or a stand-in that sends nothing (``cache``); and the backends to close.
    ``specs`` maps each backend (by ``id``) to the ``(provider/model, ModelOptions)`` it was built from.

    Raises:
        ConfigError: a bad ``-M`` executor option; ModelError: ``ray`` without the ``[ray]`` extra.
    """
    if executor.kind == "local":
        return roles, list({id(b): b for b in roles.values()}.values())
    wrapped: dict[int, ModelAPI] = {}
    for backend in roles.values():
        if id(backend) in wrapped:
            continue
        if executor.kind == "cache":
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
                ray_options = RayOptions(**executor.args)
            except ValidationError as exc:
                raise ConfigError(f"--executor ray: {exc.errors()[0]['loc'][0]}: {exc.errors()[0]['msg']}") from None
            model_id, opts = specs[id(backend)]
            wrapped[id(backend)] = RayPool(backend, model_id, opts, ray_options, address=executor.address)
    return {role: wrapped[id(b)] for role, b in roles.items()}, list(wrapped.values())
