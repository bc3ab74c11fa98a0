"""The checks of a whole run configuration that span several fields, each raising ValueError (pydantic reports
it as the configuration's error): the executor's options, the tasks against the benchmark, the roles
(``config.roles``) and the cognitive-bias perturbation. They take plain values and work out what they read once
(``Checked``: the benchmark's options, each task's options and roles, the parsed biases), which ``config.resolve``
then builds the plan from."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from xlingmed.config.executor import EXECUTOR_ARGS
from xlingmed.config.plan import TaskSetup
from xlingmed.config.roles import RoleNames, check_roles
from xlingmed.errors import ConfigError
from xlingmed.tasks.registry import check_tasks, get_task, options_for

if TYPE_CHECKING:
    from xlingmed.benchmarks.base import Benchmark


def tasks_for(benchmark: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(tasks a benchmark supports, its default tasks): ``tasks.registry.tasks_for`` and ``Benchmark.default_tasks``.

    Raises:
        ConfigError: unknown benchmark.
    """
    from xlingmed.benchmarks.base import get_benchmark
    from xlingmed.tasks.registry import tasks_for as compatible

    spec = get_benchmark(benchmark)
    return compatible(spec), spec.default_tasks


def task_setups(tasks: tuple[str, ...], task_args: Mapping[str, Any]) -> tuple[TaskSetup, ...]:
    """Each of ``tasks`` (registered names, in order) with its options from ``task_args`` (``-T``) and its roles.

    Raises:
        ConfigError: an unknown task; pydantic.ValidationError: a bad option value (``options_for``).
    """
    setups = []
    for name in tasks:
        spec, options = get_task(name), options_for(name, task_args)
        setups.append(TaskSetup(name, spec, options, tuple(spec.roles(options))))
    return tuple(setups)


@dataclass(frozen=True)
class Checked:
    """What the checks worked out, each once: ``spec``: the benchmark; ``benchmark_options``: its options
    validated by its ``Options``; ``tasks``: each task with its options and roles; ``roles``: the run's roles as
    given; ``biases``: ``--perturb``'s bias names parsed (``None`` without ``--perturb``)."""

    spec: Benchmark
    benchmark_options: dict[str, Any]
    tasks: tuple[TaskSetup, ...]
    roles: RoleNames
    biases: tuple[str, ...] | None


def check_run(
    spec: Benchmark,
    tasks: tuple[str, ...],
    task_args: Mapping[str, Any],
    benchmark_given: Mapping[str, Any],
    roles: RoleNames,
    executor: tuple[str, str | None, Mapping[str, Any]],
    perturb: tuple[str | None, tuple[str, ...]],
) -> Checked:
    """Every cross-field check, in order (the first failure is the one reported).

    ``benchmark_given``: the benchmark options as given (``-B`` over the fields of 0.1); ``executor``: (kind,
    ``--ray-address``, ``-M`` options); ``perturb``: (``--perturb``, ``--mitigations``).

    Raises:
        ValueError: the first check that fails.
    """
    check_executor(*executor)
    try:
        check_tasks(spec, tasks)
        options = spec.check_options(benchmark_given)
    except ConfigError as exc:
        raise ValueError(str(exc)) from None
    setups = task_setups(tasks, task_args)
    check_roles(roles, setups)
    return Checked(spec, options, setups, roles, check_perturbation(*perturb, spec, setups))


def check_executor(kind: str, ray_address: str | None, model_args: Mapping[str, Any]) -> None:
    """``-M`` replica options and ``--ray-address`` belong to ``--executor ray``."""
    given = sorted(set(model_args) & set(EXECUTOR_ARGS))
    if given and kind != "ray":
        raise ValueError(f"-M {', '.join(given)} are options of --executor ray (the executor is {kind})")
    if ray_address is not None and kind != "ray":
        raise ValueError("--ray-address needs --executor ray")


def check_perturbation(
    perturb: str | None, mitigations: tuple[str, ...], spec: Benchmark, tasks: tuple[TaskSetup, ...]
) -> tuple[str, ...] | None:
    """``--perturb bias:…`` needs multiple choice and a benchmark without its own bias variants; ``--mitigations``
    needs ``--perturb``. Returns the bias names parsed (``None`` without ``--perturb``)."""
    if perturb is None:
        if mitigations:
            raise ValueError("--mitigations needs --perturb bias:…")
        return None
    from xlingmed.perturbations.bias import parse_perturb

    try:
        biases = tuple(parse_perturb(perturb))
    except ConfigError as exc:
        raise ValueError(str(exc)) from None
    if not any("choices" in t.spec.requires for t in tasks):
        raise ValueError("--perturb bias:… applies to multiple-choice benchmarks (mcq:FILE, MedArabiQ's mcq…)")
    if spec.perturbed:
        raise ValueError(f"{spec.name} already holds its own bias variants; {spec.perturbed}")
    return biases
