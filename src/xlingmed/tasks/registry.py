"""The registry of tasks: each task module registers a ``TaskSpec`` (its options model and how it is built).

A task's options are one pydantic model (``TaskOptions``); the command line sets them with ``-T key=value`` (or,
for the options that existed before 0.2, their old ``--flag``), a YAML config with ``task_args: {key: value}`` or
the flat key. The model is where each option's type, range and allowed values are declared and validated — once.

Adding a task is one package (``tasks/<name>/``) whose ``__init__`` calls ``register_task`` at import, plus its line
in ``BUILTIN_MODULES``; a user's package adds one through the ``xlingmed.tasks`` entry point group (see
``docs/extending.md``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict

from xlingmed.errors import ConfigError
from xlingmed.namelists import names_list as names_list
from xlingmed.outcomes import PrimaryOutcome as PrimaryOutcome
from xlingmed.outcomes import TaskOutcome
from xlingmed.registry import Registry
from xlingmed.types import Score, item_features

if TYPE_CHECKING:
    from xlingmed.benchmarks.base import Benchmark
    from xlingmed.imported import ImportContext, ImportedAnswer
    from xlingmed.tasks.base import Task
    from xlingmed.tasks.context import TaskContext
    from xlingmed.views.base import View


class TaskOptions(BaseModel):
    """Base of every task's options: unknown keys are refused, values are frozen once validated."""

    model_config = ConfigDict(extra="forbid", frozen=True)


PROMPT_STYLES = ("paper", "medalpaca")
"""``-T prompt_style``: the paper's chat prompts, or MedAlpaca's verbatim Alpaca prompts (``prompts/medalpaca.py``;
``--preset medalpaca`` sets it). Taken by correctness, consistency and verifiability."""


FromImported = Callable[["Sequence[ImportedAnswer]", "ImportContext"], "tuple[Task, list[dict[str, Any]]] | None"]
"""``TaskSpec.from_imported``: imported answers and their log → (the task that scores them, its rows), or ``None``."""


class NoOptions(TaskOptions):
    """For a task without options of its own."""


@dataclass(frozen=True)
class TaskSpec:
    """A registered task.

    Attributes:
        name: what ``--tasks`` names.
        options: its options model (``-T key=value``).
        build: ``build(context, options) -> Task``: ``context`` is the run as this task sees it
            (``tasks.context.TaskContext``: seed, temperatures, token limits, templates, encoder device, translator);
            loads what the task needs (encoders, templates) and raises ConfigError on a bad setting, before any
            request is sent.
        description: one line for ``xlingmed list``.
        scores: ``scores(rows) -> list[Score]``: the task's rows (live, or read back from its CSV) as the Score
            records that statistics and ``scores.parquet`` hold; ``None`` for a task that scores nothing itself.
        spool: ``scores`` reads row by row, so the engine applies it a chunk of a run's records at a time and keeps
            the Scores on disk (``score_spool.spooled_scores``): a task whose runs reach millions of rows.
        view: the task's view, a ``views.base.View`` (its tables for the command line and the report, figures,
            what it lost per language, the judge decisions people can check); ``None`` = the default ``View``, a
            generic table of its summary.
        mean_over_temperatures: statistics also compare each question's mean over the temperatures (consistency:
            XLingEval Table A9 is at that grain).
        parses: the task reads a choice or label from each reply: its Scores' parse methods are counted per
            language (``parsing.methods``; the run's "how replies were read").
        primary: the outcome its deployment verdict is given on; ``None`` = no verdict.
        judged: an LLM judge gives its outcome: its verdicts need the judge's agreement with humans
            (``xlingmed annotate``), else they are marked judge-unverified.
        sweep: the temperatures it samples when neither ``--temperatures`` nor the benchmark sets them:
            ``always`` XLingEval's five (consistency compares samples at each), ``paper`` the five on a benchmark
            with ``xlingeval_protocol`` (verifiability on XLingHealth, XLingEval Fig. 4), ``never`` greedy decoding.
        requires: what the task needs from an item (``types.ITEM_FEATURES``); it runs on every benchmark that
            provides all of it (``tasks_for``), ``()`` = on every benchmark.
        uses: ``uses(options) -> roles``: the models beside the model under test it sends requests to with these
            options (``judge``, ``translator``, ``extractor``); ``None`` = the judge if ``judged``, else none.
            The run builds those backends and checks that none falls to the model under test by default.
        imports: the packages (module names) the task scores with, imported before the run's first request
            (``engine/preflight.py``): a broken one stops the run there, not after every answer is in.
        from_imported: ``from_imported(answers, context) -> (task, rows) | None``: the task takes the answers another
            tool logged (``xlingmed import``; ``imported.ImportedAnswer``) and turns them into its rows, which the
            engine scores as a run's (``engine/scoring.py``); ``None`` from the call: not these answers; ``None`` as
            the field: never.
        resolved: ``resolved(context, options) -> dict``: the task's protocol choices as resolved for the run
            (parsers, encoders, prompt forms), written to ``manifest.json`` → ``resolved.tasks.<name>`` (and, for
            the built-ins' keys of 0.1, at the top of ``resolved`` too).
    """

    name: str
    options: type[TaskOptions]
    build: Callable[[TaskContext, Any], Task]
    description: str = ""
    scores: Callable[[Sequence[Mapping[str, Any]]], list[Score]] | None = None
    spool: bool = False
    mean_over_temperatures: bool = False
    view: View[Any] | None = None
    parses: bool = False
    primary: PrimaryOutcome | None = None
    judged: bool = False
    requires: tuple[str, ...] = ()
    sweep: Literal["never", "paper", "always"] = "never"
    uses: Callable[[Any], tuple[str, ...]] | None = None
    resolved: Callable[[TaskContext, Any], dict[str, Any]] | None = None
    imports: tuple[str, ...] = ()
    from_imported: FromImported | None = None

    def __post_init__(self) -> None:
        item_features(self.requires)  # ValueError naming an unknown feature

    def outcome(self) -> TaskOutcome:
        """What the statistics need to know of this task (``analysis`` is handed it; it imports no task)."""
        return TaskOutcome(self.name, self.primary, self.parses, self.judged, self.mean_over_temperatures, self.scores)

    def roles(self, options: Any) -> tuple[str, ...]:
        """The roles beside the model under test this task sends requests to, with ``options`` (``uses``)."""
        if self.uses is not None:
            return self.uses(options)
        return ("judge",) if self.judged else ()


# One line per built-in task module; each registers its spec when imported.
BUILTIN_MODULES: tuple[str, ...] = (
    "xlingmed.tasks.correctness",
    "xlingmed.tasks.verifiability",
    "xlingmed.tasks.consistency",
    "xlingmed.tasks.multiple_choice",
    "xlingmed.tasks.open_qa",
    "xlingmed.tasks.rubric",
    "xlingmed.tasks.healthbench",
    "xlingmed.tasks.safety",
    "xlingmed.tasks.source_metric",
)

TASKS: Registry[TaskSpec] = Registry("task", "xlingmed.tasks", BUILTIN_MODULES, entry_type=TaskSpec)


def register_task(spec: TaskSpec) -> TaskSpec:
    """Add a task under ``spec.name``; returns it.

    Raises:
        ConfigError: another task already has that name.
    """
    return TASKS.register(spec.name, spec)


def task_specs() -> dict[str, TaskSpec]:
    """Every registered task: the built-ins in the order of ``BUILTIN_MODULES``, then the others."""
    tasks = TASKS.entries()
    builtin = [m.rsplit(".", 1)[1] for m in BUILTIN_MODULES]
    order = sorted(tasks, key=lambda n: builtin.index(n) if n in builtin else len(builtin))
    return {n: tasks[n] for n in order}


def task_outcomes() -> dict[str, TaskOutcome]:
    """Every registered task's ``TaskOutcome``, in the registry's order: what the caller hands ``analysis``."""
    return {name: spec.outcome() for name, spec in task_specs().items()}


def get_task(name: str) -> TaskSpec:
    """Raises ConfigError naming the known tasks."""
    if name not in TASKS:
        raise ConfigError(f"unknown task {name!r}; known: {', '.join(task_specs())}")
    return TASKS.get(name)


def tasks_for(benchmark: Benchmark) -> tuple[str, ...]:
    """The tasks that run on ``benchmark``: every registered task whose ``requires`` its items provide, in the
    registry's order (plugins included)."""
    have = item_features(benchmark.provides)
    return tuple(name for name, spec in task_specs().items() if set(spec.requires) <= have)


def check_tasks(benchmark: Benchmark, tasks: Sequence[str]) -> None:
    """Raises ConfigError naming each task ``benchmark``'s items cannot serve, and what it lacks."""
    have = item_features(benchmark.provides)
    for name in tasks:
        lacks = sorted(set(get_task(name).requires) - have)
        if lacks:
            raise ConfigError(
                f"{benchmark.name} does not have task {name!r}: its items lack {', '.join(lacks)}; "
                f"its tasks: {', '.join(tasks_for(benchmark))}"
            )


def option_owners() -> dict[str, list[str]]:
    """Each task option key → the tasks that have it (``judge_max_tokens``: correctness and rubric)."""
    out: dict[str, list[str]] = {}
    for spec in task_specs().values():
        for key in spec.options.model_fields:
            out.setdefault(key, []).append(spec.name)
    return out


def options_for(name: str, args: Mapping[str, Any]) -> TaskOptions:
    """Task ``name``'s options from the run's task arguments (the keys it does not have are ignored).

    Raises:
        pydantic.ValidationError: a bad value (the caller names the field).
    """
    model = get_task(name).options
    return model(**{k: v for k, v in args.items() if k in model.model_fields})


def one_of(value: str, allowed: tuple[str, ...]) -> str:
    """``value`` if allowed, else ValueError("must be 'a' or 'b'") (for options' field validators)."""
    if value not in allowed:
        raise ValueError("must be " + " or ".join(f"'{a}'" for a in allowed))
    return value
