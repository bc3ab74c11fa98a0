"""``RunConfig``: the schema of a run's settings, validated; defaults are the paper-faithful values (XLingEval;
shared/specs/xlingeval.md §8) except where noted."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from xlingmed.benchmarks.base import Benchmark, get_benchmark
from xlingmed.config.checks import Checked, check_run, task_setups
from xlingmed.config.checks import tasks_for as tasks_for  # here before 0.2
from xlingmed.config.derive import task_context as context_for
from xlingmed.config.derive import task_max_tokens as max_tokens_for
from xlingmed.config.derive import task_temperatures as temperatures_for
from xlingmed.config.roles import RoleNames, users
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


class RunConfig(BaseModel):
    """One evaluation run.

    Attributes (CLI flag in brackets):
        benchmark: ``xlinghealth/liveqa`` | ``xlinghealth/medicationqa`` | ``xlinghealth/healthqa`` |
            ``medarabiq/<task>`` (mcq, mcq_bias, fitb_choices, fitb_open, qa, qa_gec, qa_llm) [--benchmark]
        data_dir: folder with the benchmark files; else ``$XLINGMED_DATA_DIR``; else download (XLingHealth only:
            MedArabiQ is never downloaded) [--data-dir]
        languages: ISO codes; default: the benchmark's (XLingHealth en,es,zh,hi; MedArabiQ ar; the two FITB
            files also hold en) [--languages]
        tasks: registered task names; default: the benchmark's ``default_tasks``; any task whose requirements
            its items meet runs on it (``tasks.registry.tasks_for``; ``xlingmed list benchmarks``) [--tasks]
        model / judge: ``provider/model``; the judge defaults to the model [--model, --judge]
        base_url / judge_base_url: OpenAI-compatible server of the model / judge [--base-url, --judge-base-url]
        translator / translator_base_url: back-translation model for consistency in paper mode; defaults to the
            judge when a judge different from the model was named, else the run stops before any request (the
            model under test never back-translates its own answers unless named here) [--translator,
            --translator-base-url]
        extractor / extractor_base_url: a model that reads the multiple-choice replies the rules leave ambiguous
            or invalid (``parsing.extractor``); ``judge`` = the run's judge. None by default, and never the model
            under test unless named: ``judge`` when the judge is the model under test stops the run
            [--extractor, --extractor-base-url]
        extractor_mode: ``fallback`` (only what the rules cannot read) | ``all`` (every reply, with the agreement
            of rules and extractor per language) [--extractor-mode]
        api_key_env: environment variable that holds the API key [--api-key-env]
        limit: first N questions (same ones in every language) [--limit]
        include_defective: keep questions with empty cells (LiveQA 58, 67; MedicationQA 212) [--include-defective]
        strict_data: a row that cannot be an item (no options, an answer key naming no option) is an error naming
            file, row and column, not skipped and counted (``benchmarks.odd_rows``) [--strict-data]
        seed: sent with every request (the paper set none) [--seed]
        temperatures: temperatures swept by verifiability and consistency; default the paper's 0, 0.25, 0.5, 0.75,
            1 for consistency and for verifiability on XLingHealth (0 for a user's qa:FILE) [--temperatures]
        top_p / top_k: nucleus and top-k sampling of the model under test (not of a judge or translator);
            ``None``: top_p 1 and the engine's own top-k (OpenAI's API has none) [--top-p, --top-k]
        preset: a named protocol (``config/presets.py``), e.g. ``medalpaca`` (spec xlingeval.md §6): its
            settings fill every field the user left unset [--preset]
        max_tokens: the answer's limit; default XLingEval 1000 (paper), MedArabiQ 16 for a letter, 64 for a FITB
            term, 512 for a Q&A answer (unstated in that paper) [--max-tokens]
        model_class: ``auto`` | ``open`` | ``closed``: MedArabiQ's default temperatures depend on it (open 0.0
            for MCQ/FITB and 0.4 for Q&A, closed 0.2); ``auto`` = closed for GPT/Claude/Gemini/DeepSeek names
            [--model-class]
        paper_compat: ``medarabiq/mcq_bias``: only rows 0–97, the paper's 98-item Table 2 [--paper-compat]
        prompt_templates: YAML file laid over ``prompts/medarabiq.yaml`` [--prompt-templates]
        columns: a user's file (``mcq:FILE``, ``qa:FILE``): field → column name, e.g. ``{"question": "stem"}``
            [--columns question=stem,answer=gold]
        answer_format: ``mcq:FILE`` answers: ``auto`` (letter, else option text) | ``letter`` | ``index0`` |
            ``index1`` | ``text`` [--answer-format]
        perturb: ``bias:all`` or ``bias:<name>[,<name>…]``: inject cognitive biases into multiple-choice items
            [--perturb]
        mitigations: with ``perturb``: any of education, one_shot, few_shot [--mitigations]
        bias_target / bias_target_render / bias_position: target policy (random_incorrect | correct | random),
            how the target is named (letter_and_text | text_only | letter_only), where the sentence goes (auto |
            prepend | append | after_first_sentence) [--bias-target, --bias-target-render, --bias-position]
        max_concurrency, max_retries, timeout_s: request handling; the concurrency is a ceiling that halves on
            429/503 and grows back when healthy [--max-concurrency, --max-retries, --timeout]
        retry_cap_s: the longest wait before one resend, ``Retry-After`` included (seconds) [--retry-cap]
        rpm / tpm: requests- and tokens-per-minute ceilings of each remote backend [--rpm, --tpm]
        max_requests: stop cleanly after this many backend calls; the same command resumes [--max-requests]
        max_cost: stop cleanly before spending more than this many USD (needs ``prices``) [--max-cost]
        prices: ``provider/model`` → (USD per 1M prompt tokens, USD per 1M completion tokens)
            [--price MODEL=IN,OUT, repeatable]
        retry_failed: resend requests whose failure is cached (HTTP 400/413/422; transient failures are never
            cached, so any re-run resends them) [--retry-failed]
        fail_on_error: the share of failed requests (0–1) a run tolerates before it counts as failed (the CLI then
            exits 4, after writing the run folder); ``None`` = never, unless every request failed. Default 0: any
            failure (inspect_ai's ``--fail-on-error``) [--fail-on-error 0.05|none]
        n_ctx: context window of in-process GGUF models [--n-ctx]
        device: torch device of the encoders, ``auto`` = CUDA when present [--device]
        benchmark_args: the benchmark's own options, ``key: value`` (``-B key=value``), validated by its
            ``Options`` (``subset``, ``provenance``, ``hf_config``, ``columns``…); the fields of 0.1 below
            (``include_defective``, ``paper_compat``, ``columns``, ``answer_format``, ``hf_config``, ``hf_split``,
            ``subset``, ``provenance``) are still read, for one release, where set to other than their default
        task_args: each task's own options, ``key: value`` (``-T key=value``); each task's options model
            (``tasks/<task>.py``) declares and validates them; a key shared by several tasks
            (``judge_max_tokens``, ``bertscore_model``…) applies to each. The options that were fields before 0.2
            (``samples``, ``judge_parser``, ``letter_parser``…) are still accepted as flat keys and flags.
        hf_config / hf_split: ``hf:ORG/NAME``: the dataset config (``NAME``, or ``en=NAME_EN,es=NAME_ES`` for
            one config per language) and split (default: the benchmark's, ``test`` for ``hf:``) [--hf-config,
            --hf-split]
        subset: a published benchmark's part (``global-mmlu/medical``: ``lite``, ``sensitive``, ``agnostic``;
            ``kormedmcqa``: ``doctor``…; ``xlingmed list benchmarks`` shows them) [--subset]
        provenance: keep only items whose text was made this way (``human`` = translated or post-edited by
            people; ``machine``, ``post-edited``…); the source language's items are always kept [--provenance]
        model_args: the model backend's own options (``-M key=value``), validated by its ``Options`` model
        cache: completion cache file; default ``$XLINGMED_CACHE`` or the user cache dir [--cache]
        out: run folder [--out]
        private: the run folder owner-only (0700, files 0600), like the completion cache; default: the umask's
            modes (``filemodes.py``) [--private]
        shard: ``i/N``: only the questions of shard i of N (0-based; a stable hash of ``item_id``, so every
            language of a question is in the same shard); ``xlingmed merge`` combines the shards' run folders
            (``engine/shard.py``, ``engine/merge.py``) [--shard]
        executor: who answers the cache misses: ``local`` (this process), ``ray`` (a pool of long-lived Ray
            actors, each holding one replica of the backend; ``-M replicas=N``, ``-M gpus_per_replica=G``,
            ``-M cpus_per_replica=C``; extra ``[ray]``) or ``cache`` (nothing is sent: a miss is a failed request;
            what ``merge`` uses) [--executor]
        ray_address: the Ray cluster to join: ``auto``, ``ray://host:port``, a GCS address; ``None`` starts a
            local one [--ray-address]
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    benchmark: str
    data_dir: Path | None = None
    languages: tuple[str, ...] = ("en", "es", "zh", "hi")
    tasks: tuple[str, ...] = ()  # filled with the benchmark's default_tasks before validation
    model: str = "llamacpp/smollm2"
    judge: str | None = None
    base_url: str | None = None
    judge_base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    limit: int | None = Field(default=None, ge=1)
    include_defective: bool = False
    strict_data: bool = False
    seed: int | None = 42
    temperatures: tuple[float, ...] | None = None
    max_tokens: int | None = Field(default=None, ge=1)
    top_p: float | None = Field(default=None, gt=0, le=1)
    top_k: int | None = Field(default=None, ge=1)
    preset: str | None = None
    model_class: Literal["auto", "open", "closed"] = "auto"
    paper_compat: bool = False
    prompt_templates: Path | None = None
    columns: dict[str, str] = Field(default_factory=dict)
    answer_format: Literal["auto", "letter", "index0", "index1", "text"] = "auto"
    hf_config: str | None = None
    hf_split: str | None = None
    subset: str | None = None
    provenance: tuple[str, ...] = ()
    perturb: str | None = None
    mitigations: tuple[str, ...] = ()
    bias_target: Literal["random_incorrect", "correct", "random"] = "random_incorrect"
    bias_target_render: Literal["letter_and_text", "text_only", "letter_only"] = "letter_and_text"
    bias_position: Literal["auto", "prepend", "append", "after_first_sentence"] = "auto"
    max_concurrency: int = Field(default=8, ge=1)
    max_retries: int = Field(default=5, ge=0, le=20)
    timeout_s: float = Field(default=600.0, gt=0)
    retry_cap_s: float = Field(default=60.0, ge=0)
    rpm: float | None = Field(default=None, gt=0)
    tpm: float | None = Field(default=None, gt=0)
    max_requests: int | None = Field(default=None, ge=1)
    max_cost: float | None = Field(default=None, gt=0)
    prices: dict[str, tuple[float, float]] = Field(default_factory=dict)
    retry_failed: bool = False
    fail_on_error: float | None = Field(default=0.0, ge=0, le=1)
    n_ctx: int = Field(default=8192, ge=256)
    translator: str | None = None
    translator_base_url: str | None = None
    extractor: str | None = None
    extractor_base_url: str | None = None
    extractor_mode: Literal["fallback", "all"] = "fallback"
    device: str = "auto"
    task_args: dict[str, Any] = Field(default_factory=dict)
    benchmark_args: dict[str, Any] = Field(default_factory=dict)
    model_args: dict[str, Any] = Field(default_factory=dict)
    cache: Path | None = None
    out: Path = Path("runs/latest")
    private: bool = False
    shard: str | None = None
    executor: Literal["local", "ray", "cache"] = "local"
    ray_address: str | None = None

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
        return self.judge or self.model

    @property
    def translator_model(self) -> str:
        return self.translator or self.judge_model

    @property
    def extractor_model(self) -> str | None:
        """The extractor's ``provider/model`` (``judge`` resolved), ``None`` when the run has none."""
        return self.judge_model if self.extractor == "judge" else self.extractor

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


def _deprecated(name: str, instead: str) -> None:
    warnings.warn(f"RunConfig.{name} is deprecated since 0.2 (issue 63): read {instead}", DeprecationWarning,
                  stacklevel=3)  # fmt: skip
