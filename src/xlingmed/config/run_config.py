"""``RunConfig``: a run's settings, validated: the fields (``config/schema.py``, each with its type, default, group,
flag and documentation) with their validators, the cross-field checks and what the fields work out."""

from __future__ import annotations

import inspect
import warnings
from typing import TYPE_CHECKING, Any

from pydantic import ValidationInfo, field_validator, model_validator

from xlingmed.benchmarks.base import Benchmark, get_benchmark
from xlingmed.config.checks import Checked, check_run, task_setups
from xlingmed.config.checks import tasks_for as tasks_for  # here before 0.2
from xlingmed.config.derive import task_context as context_for
from xlingmed.config.derive import task_max_tokens as max_tokens_for
from xlingmed.config.derive import task_temperatures as temperatures_for
from xlingmed.config.fields import documentation
from xlingmed.config.fields import groups as field_groups
from xlingmed.config.roles import RoleNames, users
from xlingmed.config.schema import RunSchema
from xlingmed.config.values import (
    benchmark_defaults,
    flat_task_options,
    parse_columns,
    parse_fail_on_error,
    parse_mitigations,
    parse_price_list,
    parse_provenance,
    parse_shard_field,
    parse_temperatures,
    typed_task_args,
)
from xlingmed.errors import ConfigError
from xlingmed.languages import parse_languages
from xlingmed.models.base import split_model_id
from xlingmed.tasks.registry import TaskOptions, names_list, option_owners, options_for

if TYPE_CHECKING:
    from xlingmed.tasks.context import TaskContext


# RunConfig fields of 0.1 that are one benchmark's option (-B key=value now); read for one release.
LEGACY_BENCHMARK_FIELDS = ("include_defective", "paper_compat", "columns", "answer_format", "hf_config", "hf_split",
                           "subset", "provenance", "strict_data")  # fmt: skip


class RunConfig(RunSchema):
    """One evaluation run: the fields of ``RunSchema`` (``config/schema.py``), validated, with what they work out.

    The listing of the fields below is generated from their metadata (``config.fields.documentation``).
    """

    @field_validator("fail_on_error", mode="before")
    @classmethod
    def _fail_on_error(cls, v: Any) -> Any:
        return parse_fail_on_error(v)

    @field_validator("shard", mode="before")
    @classmethod
    def _shard(cls, v: Any) -> str | None:
        return parse_shard_field(v)

    @model_validator(mode="before")
    @classmethod
    def _defaults(cls, data: Any) -> Any:
        # flat task options of 0.1 move into task_args; languages and tasks default to the benchmark's own
        return benchmark_defaults(flat_task_options(data, set(cls.model_fields)))

    @field_validator("benchmark")
    @classmethod
    def _benchmark(cls, v: str) -> str:
        try:
            get_benchmark(v)
        except ConfigError as exc:
            raise ValueError(str(exc)) from None
        return v

    @field_validator("task_args", mode="after")
    @classmethod
    def _task_args(cls, v: dict[str, Any]) -> dict[str, Any]:
        return typed_task_args(v)

    @model_validator(mode="after")
    def _checks(self) -> RunConfig:
        self.checked()  # config/checks.py: executor options, tasks, roles, perturbation
        return self

    @field_validator("prices", mode="before")
    @classmethod
    def _prices(cls, v: Any) -> Any:
        return parse_price_list(v)

    @field_validator("columns", mode="before")
    @classmethod
    def _columns(cls, v: Any) -> dict[str, str]:
        return parse_columns(v)

    @field_validator("temperatures", mode="before")
    @classmethod
    def _temperatures(cls, v: Any) -> tuple[float, ...] | None:
        return parse_temperatures(v)

    @field_validator("provenance", mode="before")
    @classmethod
    def _provenance(cls, v: Any) -> tuple[str, ...]:
        return parse_provenance(v)

    @field_validator("mitigations", mode="before")
    @classmethod
    def _mitigations(cls, v: Any) -> tuple[str, ...]:
        return parse_mitigations(v)

    @field_validator("languages", mode="before")
    @classmethod
    def _languages(cls, v: Any) -> tuple[str, ...]:
        try:
            return parse_languages(v)
        except ConfigError as exc:
            raise ValueError(str(exc)) from None

    @field_validator("tasks", mode="before")
    @classmethod
    def _tasks(cls, v: Any) -> tuple[str, ...]:
        from xlingmed.tasks.registry import task_specs

        return names_list(v, tuple(task_specs()), "task")

    @field_validator("model", "judge", "translator", "extractor")
    @classmethod
    def _model_id(cls, v: str | None, info: ValidationInfo) -> str | None:
        if v is not None and not (info.field_name == "extractor" and v == "judge"):
            try:
                split_model_id(v)
            except Exception as exc:
                raise ValueError(str(exc)) from None
        return v

    @classmethod
    def groups(cls) -> dict[str, list[str]]:
        """``{group: [field, …]}``: every field under its group (``config.fields.GROUPS``, in that order)."""
        return field_groups(cls)

    @property
    def spec(self) -> Benchmark:
        """The benchmark spec this run's ``benchmark`` names (parsed once here; nothing else reads the string)."""
        return get_benchmark(self.benchmark)

    def benchmark_options(self) -> dict[str, Any]:
        """Deprecated (0.2): ``resolve(config).benchmark.options`` (``checked().benchmark_options``): the
        benchmark's own settings, validated by its ``Options`` with its defaults: ``-B`` (``benchmark_args``) over
        the fields of 0.1 set to other than their default.

        Raises:
            ConfigError: an option the benchmark does not have (the message lists its options), or a bad value.
        """
        _deprecated("benchmark_options", "resolve(config).benchmark.options")
        return self.spec.check_options(self._benchmark_given())

    def _benchmark_given(self) -> dict[str, Any]:
        fields = type(self).model_fields
        legacy = {key: getattr(self, key) for key in LEGACY_BENCHMARK_FIELDS
                  if getattr(self, key) != fields[key].get_default(call_default_factory=True)}  # fmt: skip
        return {**legacy, **self.benchmark_args}

    def _roles(self) -> RoleNames:
        return RoleNames(self.model, self.base_url, self.judge, self.judge_base_url, self.translator,
                         self.translator_base_url, self.extractor, self.extractor_base_url, self.extractor_mode)

    def checked(self) -> Checked:
        """The cross-field checks (``config.checks.check_run``) and what they work out once: the benchmark's
        options, each task's options and roles, the parsed biases.

        Raises:
            ValueError: the first check that fails (pydantic reports it as the configuration's error).
        """
        return check_run(self.spec, self.tasks, self.task_args, self._benchmark_given(), self._roles(),
                         (self.executor, self.ray_address, self.model_args), (self.perturb, self.mitigations))

    @property
    def judge_model(self) -> str:
        """The judge's ``provider/model`` (``RoleNames.judge_model``)."""
        return self._roles().judge_model

    @property
    def translator_model(self) -> str:
        """The translator's ``provider/model`` (``RoleNames.translator_model``)."""
        return self._roles().translator_model

    @property
    def extractor_model(self) -> str | None:
        """The extractor's ``provider/model``, ``None`` when the run has none (``RoleNames.extractor_model``)."""
        return self._roles().extractor_model

    def task_temperatures(self, task: str) -> tuple[float, ...]:
        """Deprecated (0.2): ``resolve(config).tasks[i].temperatures`` (``config.derive.task_temperatures``)."""
        _deprecated("task_temperatures", "resolve(config).tasks[i].temperatures")
        return temperatures_for(self.spec, task, self.temperatures, self.model, self.model_class)

    def task_max_tokens(self) -> int:
        """Deprecated (0.2): ``resolve(config).tasks[i].context.max_tokens`` (``config.derive.task_max_tokens``)."""
        _deprecated("task_max_tokens", "resolve(config).tasks[i].context.max_tokens")
        return max_tokens_for(self.spec, self.max_tokens)

    def task_context(self, task: str) -> TaskContext:
        """Deprecated (0.2): ``resolve(config).tasks[i].context`` (``config.derive.task_context``)."""
        _deprecated("task_context", "resolve(config).tasks[i].context")
        return context_for(task, self.spec, self.model_dump(), self._roles())

    def encoder_device(self) -> str:
        """Deprecated (0.2): ``TaskContext.encoder_device()`` (``tasks.context.encoder_device``)."""
        _deprecated("encoder_device", "TaskContext.encoder_device()")
        from xlingmed.tasks.context import encoder_device

        return encoder_device(self.device)

    def options(self, task: str) -> TaskOptions:
        """Deprecated (0.2): ``resolve(config).tasks[i].options`` (``tasks.registry.options_for``).

        Raises:
            ConfigError: unknown task.
        """
        _deprecated("options", "resolve(config).tasks[i].options")
        return options_for(task, self.task_args)

    def __getattr__(self, name: str) -> Any:
        # the task options that were fields before 0.2 stay readable as attributes (config.samples…)
        if not name.startswith("_"):
            owners = option_owners().get(name)
            if owners:
                task = next((t for t in owners if t in self.tasks), owners[0])
                return getattr(options_for(task, self.task_args), name)
        return super().__getattr__(name)  # type: ignore[misc]

    def uses(self, role: str) -> list[str]:
        """Deprecated (0.2): ``resolve(config).tasks[i].roles`` (``config.roles.users``)."""
        _deprecated("uses", "resolve(config).tasks[i].roles")
        return users(task_setups(self.tasks, self.task_args), role)


# the fields' documentation, by group, generated from the fields (help(RunConfig), the API reference)
RunConfig.__doc__ = f"{inspect.cleandoc(RunConfig.__doc__ or '')}\n\n{documentation(RunConfig)}"


def _deprecated(name: str, instead: str) -> None:
    warnings.warn(f"RunConfig.{name} is deprecated since 0.2 (issue 63): read {instead}", DeprecationWarning,
                  stacklevel=3)  # fmt: skip
