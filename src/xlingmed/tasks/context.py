"""What a task is built from: a small, frozen view of the run, resolved for that one task.

A task's builder (``TaskSpec.build(context, options)``) and its ``resolved`` hook read this, not the whole
``RunConfig``: the handful of run-wide settings a task needs, already resolved (its temperatures from
``--temperatures``, the benchmark's protocol or the task's own sweep; its answer length from ``--max-tokens`` or
the benchmark). ``config.derive.task_context`` makes one (``config.resolve``).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xlingmed.benchmarks.base import Benchmark


@dataclass(frozen=True)
class TaskContext:
    """The run as one task sees it.

    Attributes:
        task: the task's registered name.
        benchmark: the benchmark spec (its prompt ``template(answers)`` and ``mc_prompt()``).
        languages: the run's languages, in order.
        seed: the run's seed (``None``: the backend's own).
        temperatures: the temperatures this task samples, resolved.
        max_tokens: the answer length limit, resolved (``--max-tokens``, else the benchmark's).
        max_tokens_given: ``--max-tokens`` as the user gave it (``None``: not given), where a task's own default
            beats the benchmark's (multiple choice's answer-line prompt: 2,048).
        prompt_templates: a YAML laid over the shipped prompt templates, or ``None``.
        device: the encoder device setting (``auto``, ``cpu``, ``cuda``); ``encoder_device()`` resolves it.
        translator: the translator's ``provider/model`` (the judge's by default).
        extractor_mode: ``fallback`` or ``all`` (multiple choice's extractor model).
        _legacy: what a plugin task of 0.1, built from the whole ``RunConfig``, read of it, for one release: the
            configuration's fields and ``spec``, ``judge_model``, ``translator_model``, ``extractor_model`` (a
            copy: the configuration itself is not handed to a task).
    """

    task: str
    benchmark: Benchmark
    languages: tuple[str, ...]
    seed: int | None
    temperatures: tuple[float, ...]
    max_tokens: int
    max_tokens_given: int | None = None
    prompt_templates: Path | None = None
    device: str = "auto"
    translator: str = ""
    extractor_mode: str = "fallback"
    _legacy: Mapping[str, Any] | None = field(default=None, repr=False, compare=False)

    def encoder_device(self) -> str:
        """``device``, with ``auto`` resolved (``encoder_device``)."""
        return encoder_device(self.device)

    def __getattr__(self, name: str) -> Any:
        # a plugin task of 0.1 was built from the whole RunConfig: what it read is still there for one release
        legacy = self.__dict__.get("_legacy")
        if name.startswith("_") or legacy is None or name not in legacy:
            raise AttributeError(name)
        warnings.warn(
            f"TaskContext.{name}: tasks are built from a TaskContext since 0.2; RunConfig.{name} is read for one "
            "release", DeprecationWarning, stacklevel=2,
        )  # fmt: skip
        return legacy[name]


def encoder_device(device: str) -> str:
    """``device`` (``auto``, ``cpu``, ``cuda``…), with ``auto`` resolved to ``cuda`` where torch sees a GPU, else
    ``cpu`` (torch is imported only then)."""
    if device != "auto":
        return device
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"
