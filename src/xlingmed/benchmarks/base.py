"""What a benchmark is, and the registry that turns a benchmark string into one.

A ``Benchmark`` is a spec object (after lighteval's ``LightevalTaskConfig``): its name, the languages its files
hold, what its items provide (``types.ITEM_FEATURES``: a task runs on every benchmark that provides what it
requires, so no benchmark lists its tasks), the tasks it runs by default, the protocol defaults of each task for a
given model (temperatures, answer length, prompt template), ``load()`` and ``describe()``. The benchmark string of
a run is parsed once, by ``get_benchmark``, into that object; nothing else looks inside the string.

Names are either exact (``xlinghealth/liveqa``, ``medarabiq/mcq``) or a scheme and an argument
(``mcq:FILE``, ``qa:FILE``, ``hf:ORG/NAME``): a scheme is a function from the whole name to a spec.

Adding a benchmark is one module that calls ``register_benchmark`` (or ``register_scheme``) at import, plus its
line in ``BUILTIN_MODULES``; a user's package does the same through the ``xlingmed.benchmarks`` entry point group
(see ``docs/extending.md``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, ValidationError

from xlingmed.errors import ConfigError
from xlingmed.registry import Registry
from xlingmed.types import Item, item_features

MC_TEMPLATE = "multiple_choice"  # the key of MedArabiQ's multiple-choice prompt in prompts/medarabiq.yaml
# XLingEval's temperature sweep (§4, §5: Fig. 4 and Table A11 are mean ± sd over these five τ; consistency at each).
PAPER_TEMPERATURES: tuple[float, ...] = (0.0, 0.25, 0.5, 0.75, 1.0)


class BenchmarkOptions(BaseModel):
    """Base of a benchmark's own options (``-B key=value``, YAML ``benchmark_args``): unknown keys are refused,
    values validated once. A benchmark class names its model in ``Options``."""

    model_config = ConfigDict(extra="forbid", frozen=True)


@dataclass(frozen=True)
class LoadRequest:
    """What ``Benchmark.load`` is asked for.

    Attributes:
        data_dir: folder holding the benchmark's files; ``None`` = the benchmark's own default (an environment
            variable, a download, the Hugging Face hub).
        languages: ISO 639-1 codes, in the run's order.
        limit: the first ``limit`` questions, the same in every language; ``None`` = all.
        seed: for anything a loader draws at random (a user's file: verifiability negatives).
        options: the benchmark's own settings from the run config (``include_defective``, ``paper_compat``,
            ``columns``, ``answer_format``, ``hf_config``, ``hf_split``…); a loader reads the keys it knows.
    """

    data_dir: Path | None
    languages: tuple[str, ...]
    limit: int | None = None
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Benchmark:
    """A benchmark spec. Subclasses implement ``load`` (and ``describe`` where it makes sense) and override the
    protocol defaults that differ from XLingEval's.

    Attributes:
        name: the registry name, as the user types it.
        languages: the languages its files hold.
        provides: what its items hold (``types.ITEM_FEATURES``: ``question``, ``reference``, ``negatives``,
            ``choices``, ``conversation``, ``criteria``); the tasks it supports are those that require no more
            (``tasks.registry.tasks_for``).
        default_tasks: the tasks a run performs when ``--tasks`` is not given.
        run_languages: the languages a run evaluates when ``--languages`` is not given (default: ``languages``).
        parallel: the same ``item_id`` is the same question in every language (paired comparisons hold).
        perturbed: its items already hold perturbed variants (``--perturb`` is refused); what to perturb instead.
        xlingeval_protocol: the benchmark is XLingEval's (XLingHealth): tasks whose defaults follow the paper do so
            here: verifiability sweeps the five temperatures (``TaskSpec.sweep == "paper"``; §5, Fig. 4) and
            language consistency counts the paper's four languages (``-T language_set``).
        licence: the data's licence, as its publisher states it.
        description: one line for ``xlingmed list``.
        verified: the real published files its loader was run on (source, revision, items per language);
            empty: unverified, its layout taken from the dataset card (``benchmarks.verified``, issue 61).
    """

    Options: ClassVar[type[BenchmarkOptions]] = BenchmarkOptions

    name: str
    languages: tuple[str, ...]
    provides: tuple[str, ...]
    default_tasks: tuple[str, ...]
    run_languages: tuple[str, ...] = ()
    parallel: bool = True
    xlingeval_protocol: bool = False
    perturbed: str = ""
    licence: str = ""
    description: str = ""
    verified: str = ""

    @property
    def default_languages(self) -> tuple[str, ...]:
        return self.run_languages or self.languages

    def check_options(self, args: Mapping[str, Any]) -> dict[str, Any]:
        """``args`` (``-B key=value``) validated by ``Options``, with its defaults: what ``load`` is given.

        Raises:
            ConfigError: a key this benchmark does not have (the message lists its options), or a bad value.
        """
        try:
            return self.Options(**args).model_dump()
        except ValidationError as exc:
            known = ", ".join(self.Options.model_fields) or "none"
            what = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
            raise ConfigError(f"-B (benchmark options of {self.name}): {what}; its options: {known}") from None

    def languages_for(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        """The run's default languages given the benchmark's own settings (``LoadRequest.options``)."""
        return self.default_languages

    def __post_init__(self) -> None:
        try:
            item_features(self.provides)
        except ValueError as exc:  # e.g. a plugin written for 0.1, whose third field listed task names
            raise ConfigError(f"benchmark {self.name}: provides: {exc} (the tasks it supports are computed)") from None

    def temperatures(self, task: str, model: str, model_class: str = "auto") -> tuple[float, ...] | None:
        """The temperatures ``task`` sweeps when ``--temperatures`` is not given, where this benchmark's protocol
        sets them (MedArabiQ: per model class); ``None`` = the task's own default (``TaskSpec.sweep``)."""
        return None

    def max_tokens(self) -> int:
        """The answer length limit when ``--max-tokens`` is not given (XLingEval: 1000)."""
        return 1000

    def mc_prompt(self) -> tuple[str, str]:
        """(the multiple-choice prompt form a run uses when ``-T mc_prompt`` is not given, where it comes from):
        the seeds' benchmarks keep their paper's prompt (``raw``: MedArabiQ's Table C1, the letter alone)."""
        return "raw", "MedArabiQ Table C1 (the option's letter alone, no explanation)"

    def template(self, answers: str) -> str:
        """The prompt template (a key of ``prompts/medarabiq.yaml``) for items answered as ``answers``: ``choices``
        (a task that reads a chosen option) or ``question`` (a task that reads a free-text answer)."""
        return MC_TEMPLATE if answers == "choices" else "qa"

    def load(self, request: LoadRequest) -> tuple[list[Item], dict[str, Any]]:
        """Items ordered by question then language, and a provenance dict (file, sha256, counts, quirks).

        Raises:
            ConfigError, DataError, DataNotFoundError: bad settings, bad or missing data (file, row, column).
        """
        raise NotImplementedError

    def describe(self, data_dir: str | os.PathLike[str] | None) -> list[dict[str, Any]]:
        """Per-language counts and word statistics; ConfigError where the benchmark has none."""
        raise ConfigError(f"describe knows the published benchmarks; for {self.name}, read the file with pandas")

    def describe_title(self) -> str:
        return f"{self.name}: words = whitespace tokens"


Scheme = Callable[[str], Benchmark]

# One line per built-in benchmark module; each registers its specs when imported.
BUILTIN_MODULES: tuple[str, ...] = (
    "xlingmed.benchmarks.xlinghealth",
    "xlingmed.benchmarks.medarabiq",
    "xlingmed.benchmarks.custom",
    "xlingmed.benchmarks.hf",
    "xlingmed.benchmarks.hub.global_mmlu",
    "xlingmed.benchmarks.hub.mmlu_prox",
    "xlingmed.benchmarks.hub.mmedbench",
    "xlingmed.benchmarks.hub.medexpqa",
    "xlingmed.benchmarks.hub.kormedmcqa",
    "xlingmed.benchmarks.hub.afrimed_qa",
    "xlingmed.benchmarks.hub.medarabench",
    "xlingmed.benchmarks.hub.healthbench",
    "xlingmed.benchmarks.hub.head_qa",
    "xlingmed.benchmarks.hub.careqa",
    "xlingmed.benchmarks.hub.persianmedqa",
    "xlingmed.benchmarks.hub.multimed_x",
    "xlingmed.benchmarks.hub.multimed_x_nli",
    "xlingmed.benchmarks.hub.multimed_x_liveqa",
)

def _adopt(name: str, obj: Any) -> Benchmark | None:
    """An entry point's object: a ``Benchmark``, or a scheme function (registered as the scheme ``name:…``), or a
    module that registered its own."""
    if isinstance(obj, Benchmark):
        return obj
    if callable(obj) and not isinstance(obj, type):
        register_scheme(name, obj, f"{name}:…")
    return None


BENCHMARKS: Registry[Benchmark] = Registry("benchmark", "xlingmed.benchmarks", BUILTIN_MODULES, adopt=_adopt)
# schemes come from the same modules and entry points as the benchmarks: filled when BENCHMARKS loads
SCHEMES: Registry[tuple[Scheme, str]] = Registry("benchmark scheme", "")


def register_benchmark(spec: Benchmark) -> Benchmark:
    """Add a benchmark under ``spec.name``; returns it.

    Raises:
        ConfigError: another benchmark already has that name.
    """
    return BENCHMARKS.register(spec.name, spec)


def register_scheme(prefix: str, make: Scheme, usage: str) -> None:
    """Names ``prefix:ARG`` are built by ``make(name)``; ``usage`` (e.g. ``mcq:FILE``) is what ``list`` shows."""
    SCHEMES.register(prefix, (make, usage))


def benchmark_names() -> list[str]:
    """Every exact name, then every scheme's usage (``mcq:FILE``…)."""
    names = BENCHMARKS.names()
    return [*names, *(usage for _, usage in SCHEMES.entries().values())]


def benchmarks() -> dict[str, Benchmark]:
    """The registered benchmarks with an exact name."""
    return BENCHMARKS.entries()


def get_benchmark(name: str | Benchmark) -> Benchmark:
    """The spec of ``name`` (a spec is returned as it is).

    Raises:
        ConfigError: not a known benchmark (the message lists them), or a scheme's argument is bad.
    """
    if isinstance(name, Benchmark):
        return name
    if name in BENCHMARKS:
        return BENCHMARKS.get(name)
    prefix, sep, _ = name.partition(":")
    if sep and prefix in SCHEMES:
        return SCHEMES.get(prefix)[0](name)
    raise ConfigError(f"unknown benchmark {name!r}; known: {', '.join(benchmark_names())}")
