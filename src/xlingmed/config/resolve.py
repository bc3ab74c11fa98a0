"""``resolve(config) -> RunPlan``: a run's configuration worked out once, before the engine starts (issue 63).

Every value the engine and the stages after it read is computed here, once: the benchmark's options, each task's
options, context, roles and protocol choices, the backend of each role, the parsed shard, perturbation and prices,
and the settings the run folder records. Pure: no file, network or torch (encoders load when the engine builds
the tasks).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from xlingmed.budget import parse_prices
from xlingmed.config.derive import task_context
from xlingmed.config.executor import split_executor_args
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
from xlingmed.config.values import parse_shard
from xlingmed.models.base import ModelOptions
from xlingmed.store import default_cache_path

if TYPE_CHECKING:
    from xlingmed.config.roles import RoleNames
    from xlingmed.config.run_config import RunConfig


def resolve(config: RunConfig) -> RunPlan:
    """``config`` resolved once into the frozen plan the engine is handed (``config.plan.RunPlan``).

    Raises:
        ValueError: a cross-field check fails (not expected: ``RunConfig``'s own validation ran the same checks,
            ``RunConfig.checked``, whose values the plan is built from).
    """
    checked, fields = config.checked(), config.model_dump()
    benchmark = BenchmarkRequest(
        name=config.benchmark, spec=checked.spec, data_dir=config.data_dir, languages=tuple(config.languages),
        limit=config.limit, seed=config.seed or 0, options=checked.benchmark_options,
    )  # fmt: skip
    tasks = []
    for setup in checked.tasks:
        context, hook = task_context(setup.name, checked.spec, fields, checked.roles), setup.spec.resolved
        tasks.append(TaskPlan(
            name=setup.name, spec=setup.spec, options=setup.options, context=context, roles=setup.roles,
            temperatures=context.temperatures,
            resolved=hook(context, setup.options) if hook is not None else {},
        ))  # fmt: skip
    plans = tuple(tasks)
    perturbation = None
    if checked.biases is not None:
        perturbation = Perturbation(
            biases=checked.biases, mitigations=config.mitigations,
            target_policy=config.bias_target, target_render=config.bias_target_render,
            position=config.bias_position, seed=config.seed or 0,
        )  # fmt: skip
    executor_args = split_executor_args(config.model_args)[1]
    return RunPlan(
        benchmark=benchmark,
        shard=parse_shard(config.shard) if config.shard is not None else None,
        perturbation=perturbation,
        tasks=plans,
        roles=backend_specs(config, checked.roles, plans),
        sampling={k: v for k, v in (("top_p", config.top_p), ("top_k", config.top_k)) if v is not None},
        budget=BudgetPlan(config.max_requests, config.max_cost, parse_prices(config.prices)),
        executor=ExecutorPlan(kind=config.executor, args=executor_args, address=config.ray_address),
        settings=run_settings(config, checked.roles, plans, benchmark),
        fail_on_error=config.fail_on_error,
    )


def as_plan(config: RunPlan | RunConfig) -> RunPlan:
    """``config`` resolved (``resolve``), or the ``RunPlan`` it already is: for the engine's API of 0.2, which took
    a ``RunConfig`` (``make_plan``, ``build_tasks``, ``dry_run``)."""
    return config if isinstance(config, RunPlan) else resolve(config)


def uses(tasks: tuple[TaskPlan, ...], role: str) -> bool:
    """Whether some task of the run sends requests to ``role`` (``judge``, ``translator``, ``extractor``)."""
    return any(role in t.roles for t in tasks)


def backend_specs(config: RunConfig, names: RoleNames, tasks: tuple[TaskPlan, ...]) -> dict[str, BackendSpec]:
    """The backend each role would be built from: ``model`` always; ``judge``; ``translator`` where a task
    back-translates; ``extractor`` where one is named. The engine builds those its built tasks' stages send to.

    ``-M`` options are the model under test's (less the executor's); a judge, translator or extractor that is the
    same model gets the same options, so it shares the model's instance. ``names``: the run's roles as given.
    """
    options = ModelOptions(
        base_url=config.base_url, api_key_env=config.api_key_env, max_concurrency=config.max_concurrency,
        max_retries=config.max_retries, timeout_s=config.timeout_s, retry_cap_s=config.retry_cap_s,
        rpm=config.rpm, tpm=config.tpm, n_ctx=config.n_ctx, cache_path=config.cache or default_cache_path(),
    )  # fmt: skip
    backend_args = split_executor_args(config.model_args)[0]
    model_opts = replace(options, args=tuple(sorted(backend_args.items())))

    def role(model_id: str, base_url: str | None) -> BackendSpec:
        return BackendSpec(model_id, replace(model_opts if model_id == config.model else options, base_url=base_url))

    roles = {"model": BackendSpec(config.model, model_opts)}
    roles["judge"] = role(names.judge_model, config.judge_base_url or config.base_url)
    if uses(tasks, "translator"):
        roles["translator"] = role(
            names.translator_model, config.translator_base_url or config.judge_base_url or config.base_url
        )
    extractor = names.extractor_model
    if extractor is not None:
        roles["extractor"] = role(extractor, config.extractor_base_url or config.judge_base_url or config.base_url)
    return roles


def run_settings(
    config: RunConfig, roles: RoleNames, tasks: tuple[TaskPlan, ...], benchmark: BenchmarkRequest
) -> RunSettings:
    """``config`` as the stages after the plan read it (``RunSettings``)."""
    identity = {
        "benchmark": config.benchmark,
        "model": config.model,
        # a judge is named where a task sends it requests (TaskSpec.roles): the summary and the report say it
        "judge": roles.judge_model if uses(tasks, "judge") else None,
        "translator": roles.translator_model if uses(tasks, "translator") else None,
        "extractor": roles.extractor_model,
    }
    return RunSettings(
        out=Path(config.out), cache=Path(config.cache) if config.cache else default_cache_path(),
        languages=tuple(config.languages), private=config.private, sharded=config.shard is not None,
        executor=config.executor, retry_failed=config.retry_failed, identity=identity,
        given=config.model_dump(mode="json"), resolved=resolved_protocol(config, roles, tasks, benchmark),
    )  # fmt: skip


def resolved_protocol(
    config: RunConfig, roles: RoleNames, tasks: tuple[TaskPlan, ...], benchmark: BenchmarkRequest
) -> dict[str, Any]:
    """Every protocol choice as it was resolved, and whether it was the default (``manifest.json``'s ``resolved``):
    the run's settings, then each task's own (``TaskSpec.resolved``) under ``tasks.<name>``; the keys tasks wrote at
    the top level in 0.1 (``letter_parser``, ``bertscore``…) are there too, for one release."""
    given = config.model_fields_set | set(config.task_args)
    option_fields = {f for t in tasks for f in type(t.options).model_fields}
    per_task = {t.name: t.resolved for t in tasks}
    legacy: dict[str, Any] = {}
    for settings in per_task.values():
        for key, value in settings.items():  # encoder_sources: one block per task, merged
            legacy[key] = {**legacy[key], **value} if isinstance(value, dict) and key in legacy else value
    return {
        "temperatures": {t.name: list(t.temperatures) for t in tasks},
        "temperatures_source": "user" if "temperatures" in given else "paper default",
        "max_tokens": config.max_tokens if config.max_tokens is not None else benchmark.spec.max_tokens(),
        "benchmark_options": benchmark.options,
        "judge": roles.judge_model,
        "translator": roles.translator_model if uses(tasks, "translator") else None,
        "translator_source": "user" if config.translator else "judge",
        "extractor": roles.extractor_model,
        "extractor_mode": config.extractor_mode if config.extractor else None,
        **legacy,
        "tasks": per_task,
        "task_options": {t.name: t.options.model_dump(mode="json") for t in tasks},
        "model_args": dict(config.model_args),
        "defaults_taken": sorted((set(type(config).model_fields) | option_fields) - given - {"task_args"}),
    }
