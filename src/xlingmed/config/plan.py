"""``RunPlan``: a run's configuration resolved once (``config.resolve``), frozen and typed. The engine is handed
this and never a ``RunConfig``: what to load (``BenchmarkRequest``), which shard, which perturbation, each task
with its options and context (``TaskPlan``), the backend of each role (``BackendSpec``), the budget, the executor
and what the stages after the plan read (``RunSettings``). Nothing here does I/O."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from xlingmed.config.values import Shard

if TYPE_CHECKING:
    from xlingmed.benchmarks.base import Benchmark
    from xlingmed.budget import Price
    from xlingmed.models.base import ModelOptions
    from xlingmed.tasks.context import TaskContext
    from xlingmed.tasks.registry import TaskOptions, TaskSpec


@dataclass(frozen=True)
class RunSettings:
    """The run's configuration as the stages after the plan need it.

    Attributes:
        out: the run folder; ``cache``: the completion cache.
        languages: the run's languages, in order (English first where it runs).
        private: ``--private`` (no question, reply or prompt text in the files a run shares).
        sharded: the run is one shard of several (it carries its completions for ``merge``).
        executor: ``local``, ``ray`` or ``cache``; ``retry_failed``: failed completions in the cache are sent again.
        identity: ``summary.json``'s head: benchmark, model, judge, translator, extractor (each ``None`` unused).
        given: the configuration as given (``manifest.json``'s ``config``).
        resolved: every protocol choice as resolved (``manifest.json``'s ``resolved``; ``resolve.resolved_protocol``).
    """

    out: Path
    cache: Path
    languages: tuple[str, ...]
    private: bool
    sharded: bool
    executor: str
    retry_failed: bool
    identity: dict[str, Any]
    given: dict[str, Any]
    resolved: dict[str, Any]


@dataclass(frozen=True)
class BenchmarkRequest:
    """What ``benchmarks.load_benchmark`` is called with.

    Attributes:
        name: the benchmark's registered name (``--benchmark``); ``spec``: its spec.
        data_dir: the folder with its files, or ``None`` (``$XLINGMED_DATA_DIR``, else a download).
        languages: ISO codes, in the run's order; ``limit``: the first N questions, or ``None``.
        seed: the loader's seed (the run's, 0 where it has none).
        options: the benchmark's own options, validated by its ``Options`` (``-B``, and the fields of 0.1).
    """

    name: str
    spec: Benchmark
    data_dir: Path | None
    languages: tuple[str, ...]
    limit: int | None
    seed: int
    options: Mapping[str, Any]


@dataclass(frozen=True)
class Perturbation:
    """``--perturb bias:…``: the cognitive biases injected into multiple-choice items (``perturbations.bias``).

    Attributes:
        biases: the bias names, parsed; ``mitigations``: the mitigation prompts (education, one_shot, few_shot).
        target_policy, target_render, position: ``--bias-target``, ``--bias-target-render``, ``--bias-position``.
        seed: the injector's seed (the run's, 0 where it has none).
    """

    biases: tuple[str, ...]
    mitigations: tuple[str, ...]
    target_policy: str
    target_render: str
    position: str
    seed: int


@dataclass(frozen=True)
class BackendSpec:
    """What one role's backend is built from (``models.base.get_model(model_id, options)``): picklable, so it is
    also the recipe a Ray actor builds its replica from.

    Attributes:
        model_id: ``provider/model``; ``options``: its settings (server, network, ``-M`` where it is the model).
    """

    model_id: str
    options: ModelOptions


@dataclass(frozen=True)
class TaskSetup:
    """One task of the run with its options: ``name``; ``spec``: its ``TaskSpec``; ``options``: its options
    (``-T``, else its defaults); ``roles``: the roles beside the model under test it sends requests to with them
    (``TaskSpec.roles``)."""

    name: str
    spec: TaskSpec
    options: TaskOptions
    roles: tuple[str, ...]


@dataclass(frozen=True)
class TaskPlan:
    """One task of the run, resolved once.

    Attributes:
        name: its registered name; ``spec``: its ``TaskSpec``; ``options``: its options (``-T``, else defaults).
        context: the run as the task sees it (``TaskContext``): what its builder and ``resolved`` hook read.
        roles: the roles beside the model under test it sends requests to (``TaskSpec.roles``).
        temperatures: the temperatures it sweeps (also in ``context``).
        resolved: its own protocol choices (``TaskSpec.resolved``; ``{}`` without the hook).
    """

    name: str
    spec: TaskSpec
    options: TaskOptions
    context: TaskContext
    roles: tuple[str, ...]
    temperatures: tuple[float, ...]
    resolved: Mapping[str, Any]


@dataclass(frozen=True)
class BudgetPlan:
    """``--max-requests``, ``--max-cost`` (USD) and the ``--price`` list (USD per 1M tokens), parsed."""

    max_requests: int | None
    max_cost: float | None
    prices: Mapping[str, Price]


@dataclass(frozen=True)
class ExecutorPlan:
    """``--executor``: ``local``, ``ray`` or ``cache``; ``args``: its ``-M`` options (``config.executor.RayOptions``,
    validated where the pool starts); ``address``: ``--ray-address`` or ``None``."""

    kind: str
    args: Mapping[str, Any]
    address: str | None


@dataclass(frozen=True)
class RunPlan:
    """A run's configuration resolved once (``config.resolve.resolve``): what the engine is handed.

    Attributes:
        benchmark: what to load; ``shard``: the run's shard (``i/N``) or ``None``; ``perturbation``: or ``None``.
        tasks: one ``TaskPlan`` per task, in ``--tasks`` order.
        roles: the backend of each role a task may send requests to (``model`` always; ``judge``, ``translator``,
            ``extractor`` where a task's options use it): the engine builds those its built tasks' stages use.
        sampling: ``top_p`` / ``top_k`` laid over the model's requests (only those given).
        budget, executor: see their types; ``settings``: what the stages after the plan read.
        fail_on_error: the share of failed requests tolerated (``None``: any but all).
    """

    benchmark: BenchmarkRequest
    shard: Shard | None
    perturbation: Perturbation | None
    tasks: tuple[TaskPlan, ...]
    roles: Mapping[str, BackendSpec]
    sampling: Mapping[str, Any]
    budget: BudgetPlan
    executor: ExecutorPlan
    settings: RunSettings
    fail_on_error: float | None
