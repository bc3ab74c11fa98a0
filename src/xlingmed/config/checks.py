"""The checks of a whole run configuration that span several fields, each raising ValueError (pydantic reports
it as the configuration's error): the executor's options, the tasks against the benchmark, the roles
(``config.roles``) and the cognitive-bias perturbation."""

from __future__ import annotations

from typing import TYPE_CHECKING

from xlingmed.config.executor import EXECUTOR_ARGS
from xlingmed.errors import ConfigError
from xlingmed.tasks.registry import check_tasks, get_task

if TYPE_CHECKING:
    from xlingmed.config.fields import RunFields


def check_run(config: RunFields) -> None:
    """Every cross-field check, in order (the first failure is the one reported)."""
    from xlingmed.config.roles import check_roles

    check_executor(config)
    try:
        check_tasks(config.spec, config.tasks)
        config.benchmark_options()
    except ConfigError as exc:
        raise ValueError(str(exc)) from None
    check_roles(config)
    check_perturbation(config)


def check_executor(config: RunFields) -> None:
    """``-M`` replica options and ``--ray-address`` belong to ``--executor ray``."""
    given = sorted(set(config.model_args) & set(EXECUTOR_ARGS))
    if given and config.executor != "ray":
        raise ValueError(f"-M {', '.join(given)} are options of --executor ray (the executor is {config.executor})")
    if config.ray_address is not None and config.executor != "ray":
        raise ValueError("--ray-address needs --executor ray")


def check_perturbation(config: RunFields) -> None:
    """``--perturb bias:…`` needs multiple choice and a benchmark without its own bias variants; ``--mitigations``
    needs ``--perturb``."""
    if config.perturb is None:
        if config.mitigations:
            raise ValueError("--mitigations needs --perturb bias:…")
        return
    from xlingmed.perturbations.bias import parse_perturb

    try:
        parse_perturb(config.perturb)
    except ConfigError as exc:
        raise ValueError(str(exc)) from None
    if not any("choices" in get_task(t).requires for t in config.tasks):
        raise ValueError("--perturb bias:… applies to multiple-choice benchmarks (mcq:FILE, MedArabiQ's mcq…)")
    if config.spec.perturbed:
        raise ValueError(f"{config.benchmark} already holds its own bias variants; {config.spec.perturbed}")
