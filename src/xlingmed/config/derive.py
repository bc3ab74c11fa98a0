"""What a run's settings work out to for each task, from plain values: the temperatures it sweeps, the answer's
token limit and the ``TaskContext`` it is built from. ``resolve`` builds the plan with these; ``RunConfig``'s
methods of 0.2 (``task_context``, ``task_temperatures``, ``task_max_tokens``) call them, deprecated. No
``RunConfig`` here, so that both may import this module without a circle."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from xlingmed.benchmarks.base import PAPER_TEMPERATURES
from xlingmed.tasks.context import TaskContext
from xlingmed.tasks.registry import get_task

if TYPE_CHECKING:
    from xlingmed.benchmarks.base import Benchmark
    from xlingmed.config.roles import RoleNames


def task_temperatures(
    spec: Benchmark, task: str, given: tuple[float, ...] | None, model: str, model_class: str
) -> tuple[float, ...]:
    """The temperatures ``task`` sweeps: ``given`` (``--temperatures``) if any, else the benchmark's default for
    the task (MedArabiQ: the paper's temperature for this ``model`` and ``model_class``,
    ``medarabiq.default_temperature``), else the task's (``TaskSpec.sweep``: XLingEval's five for consistency, and
    for verifiability on XLingHealth), else 0."""
    if given is not None:
        return given
    default = spec.temperatures(task, model, model_class)
    if default is not None:
        return default
    sweep = get_task(task).sweep
    paper = sweep == "always" or (sweep == "paper" and spec.xlingeval_protocol)
    return PAPER_TEMPERATURES if paper else (0.0,)


def task_max_tokens(spec: Benchmark, given: int | None) -> int:
    """The answer's token limit: ``given`` (``--max-tokens``) if any, else the benchmark's default."""
    return given if given is not None else spec.max_tokens()


def task_context(task: str, spec: Benchmark, fields: Mapping[str, Any], roles: RoleNames) -> TaskContext:
    """What task ``task`` is built from (``tasks.context.TaskContext``): the run's settings resolved for it.

    ``fields``: the configuration's fields (``RunConfig.model_dump()``), whose copy a plugin task of 0.1 still
    reads (``TaskContext._legacy``); ``roles``: the run's roles as given.
    """
    legacy = {**fields, "spec": spec, "judge_model": roles.judge_model, "translator_model": roles.translator_model,
              "extractor_model": roles.extractor_model}  # fmt: skip
    return TaskContext(
        task=task, benchmark=spec, languages=fields["languages"], seed=fields["seed"],
        temperatures=task_temperatures(spec, task, fields["temperatures"], fields["model"], fields["model_class"]),
        max_tokens=task_max_tokens(spec, fields["max_tokens"]), max_tokens_given=fields["max_tokens"],
        prompt_templates=fields["prompt_templates"], device=fields["device"], translator=roles.translator_model,
        extractor_mode=fields["extractor_mode"], _legacy=legacy,
    )  # fmt: skip
