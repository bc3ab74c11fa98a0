"""What the plan resolves of the run's configuration for every stage after it (issue 47): the stages that
generate, score and write are handed a ``RunSettings`` and never read ``RunConfig``. In the engine, only planning
reads ``RunConfig``: this module, ``plan.py`` and ``dry_run.py`` (``tests/test_structure.py`` checks it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from xlingmed.config import RunConfig
from xlingmed.config.plan import RunSettings
from xlingmed.store import default_cache_path


def run_paths(config: RunConfig) -> tuple[Path, Path]:
    """(run folder, completion cache) of ``config``: what a failure is explained with, before any plan exists."""
    return Path(config.out), Path(config.cache) if config.cache else default_cache_path()


def run_settings(config: RunConfig) -> RunSettings:
    """``config`` as the stages after the plan read it (``RunSettings``)."""
    out, cache = run_paths(config)
    identity = {
        "benchmark": config.benchmark,
        "model": config.model,
        # a judge is named where a task sends it requests (TaskSpec.roles): the summary and the report say it
        "judge": config.judge_model if config.uses("judge") else None,
        "translator": config.translator_model if config.uses("translator") else None,
        "extractor": config.extractor_model,
    }
    return RunSettings(
        out=out, cache=cache, languages=tuple(config.languages), private=config.private,
        sharded=config.shard is not None, executor=config.executor, retry_failed=config.retry_failed,
        identity=identity, given=config.model_dump(mode="json"), resolved=resolved_protocol(config),
    )  # fmt: skip


def resolved_protocol(config: RunConfig) -> dict[str, Any]:
    """Every protocol choice as it was resolved for ``config``, and whether it was the default (``manifest.json``'s
    ``resolved``): the run's settings, then each task's own (``TaskSpec.resolved``) under ``tasks.<name>``; the keys
    tasks wrote at the top level in 0.1 (``letter_parser``, ``bertscore``…) are there too, for one release."""
    from xlingmed.tasks.registry import get_task

    given = config.model_fields_set | set(config.task_args)
    options = {t: config.options(t) for t in config.tasks}
    option_fields = {f for o in options.values() for f in type(o).model_fields}
    per_task: dict[str, dict[str, Any]] = {}
    for t, o in options.items():
        hook = get_task(t).resolved
        per_task[t] = hook(config.task_context(t), o) if hook is not None else {}
    legacy: dict[str, Any] = {}
    for settings in per_task.values():
        for key, value in settings.items():  # encoder_sources: one block per task, merged
            legacy[key] = {**legacy[key], **value} if isinstance(value, dict) and key in legacy else value
    return {
        "temperatures": {t: list(config.task_temperatures(t)) for t in config.tasks},
        "temperatures_source": "user" if "temperatures" in given else "paper default",
        "max_tokens": config.task_max_tokens(),
        "benchmark_options": config.benchmark_options(),
        "judge": config.judge_model,
        "translator": config.translator_model if config.uses("translator") else None,
        "translator_source": "user" if config.translator else "judge",
        "extractor": config.extractor_model,
        "extractor_mode": config.extractor_mode if config.extractor else None,
        **legacy,
        "tasks": per_task,
        "task_options": {t: o.model_dump(mode="json") for t, o in options.items()},
        "model_args": dict(config.model_args),
        "defaults_taken": sorted((set(type(config).model_fields) | option_fields) - given - {"task_args"}),
    }
