"""MedArabiQ: seven Arabic medical tasks (Abu Daoud et al. 2025; shared/specs/medarabiq.md).

The licence forbids redistribution, so nothing of the data ships with xlingmed: ``--data-dir`` points at the
user's own copy of the seven published CSVs. Reader contract (spec §2): ``utf-8-sig`` (six files have a BOM, the
bias file does not), the ``csv`` module (quoted fields hold bare LF while records end in CRLF; the bias file has
lone CR inside fields), exact headers, stray unnamed empty columns dropped, and quirks *logged*, never "fixed":
prompts are built from the raw cell text, gold comparisons use stripped values.

Multiple-choice cells embed their options (``أ. …`` one per line, sometimes inline after a colon, sometimes
wrapped onto continuation lines); ``parse_options`` splits stem and options and maps every label to a canonical
Latin letter (``languages.normalise_label``). The gold label is the letter at the start of the answer cell; the
one fill-in-the-blank answer without a letter is matched against the options, else the English gold is used,
and the item is flagged.

Item ids are ``<task>-<row:03d>`` with 0-based data rows, shared by the Arabic and English views of the bilingual
fill-in-the-blank files, so their comparison is paired.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any, ClassVar

from xlingmed.benchmarks.base import MC_TEMPLATE, Benchmark, BenchmarkOptions, LoadRequest, register_benchmark
from xlingmed.benchmarks.medarabiq.files import (
    BIAS_CONDITIONS,
    BIAS_NAMES,
    DATA_DIR_ENV,
    PAPER_COMPAT_ROWS,
    TASKS,
    Table,
    TaskFile,
    data_file,
    read_medarabiq_csv,
)
from xlingmed.benchmarks.medarabiq.loader import describe, load_items
from xlingmed.parsing.options import ParsedOptions, clean_mc_text, gold_label, parse_options
from xlingmed.types import Item

__all__ = [
    "BIAS_CONDITIONS",
    "BIAS_NAMES",
    "DATA_DIR_ENV",
    "MAX_TOKENS",
    "MC_TASKS",
    "OPEN_TASKS",
    "PAPER_COMPAT_ROWS",
    "TASKS",
    "MedArabiQBenchmark",
    "ParsedOptions",
    "Table",
    "TaskFile",
    "clean_mc_text",
    "data_file",
    "default_temperature",
    "describe",
    "gold_label",
    "load_items",
    "model_class",
    "parse_options",
    "read_medarabiq_csv",
]


# --------------------------------------------------------------------------------------------------------------
# Protocol defaults (paper §3.2, App. B; spec §4.1)

MC_TASKS = ("mcq", "mcq_bias", "fitb_choices")
OPEN_TASKS = ("fitb_open", "qa", "qa_gec", "qa_llm")
# Names of the paper's closed (API) models and their families; everything else counts as open weights.
_CLOSED = re.compile(r"(^|[/_-])(gpt|o[1-9]|claude|gemini|deepseek|chatgpt)", re.I)
# Default max_tokens per task: unstated in the paper; a letter needs few, a term a few words, an answer more
# (spec §9.7).
MAX_TOKENS = {"mcq": 16, "mcq_bias": 16, "fitb_choices": 16, "fitb_open": 64, "qa": 512, "qa_gec": 512, "qa_llm": 512}


def model_class(model_id: str, declared: str = "auto") -> str:
    """``open`` or ``closed``: ``declared`` unless ``auto``, else ``closed`` for the API families the paper ran
    (GPT, Claude, Gemini, DeepSeek) and ``open`` for the rest (every in-process GGUF)."""
    if declared in ("open", "closed"):
        return declared
    from xlingmed.errors import ModelError
    from xlingmed.models.base import backend_of

    _, _, name = model_id.partition("/")
    try:
        open_weights = backend_of(model_id).open_weights
    except ModelError:
        open_weights = None
    return "closed" if _CLOSED.search(name) and not open_weights else "open"


def default_temperature(task: str, klass: str) -> float:
    """The paper's temperature (§3.2): classification tasks (MCQ, bias, both FITB) 0.0 for open models and 0.2
    for closed ones; patient–doctor Q&A 0.4 open, 0.2 closed."""
    if klass == "closed":
        return 0.2
    return 0.4 if task in ("qa", "qa_gec", "qa_llm") else 0.0


_classify = model_class  # the method below takes a parameter of that name

# --------------------------------------------------------------------------------------------------------------
# Registry


class MedArabiQOptions(BenchmarkOptions):
    """``-B paper_compat=true``: ``medarabiq/mcq_bias`` rows 0–97 only, the paper's 98-item Table 2."""

    paper_compat: bool = False


@dataclass(frozen=True)
class MedArabiQBenchmark(Benchmark):
    """One MedArabiQ task file; its temperatures depend on the model's class (open or closed, §3.2)."""

    Options: ClassVar[type[BenchmarkOptions]] = MedArabiQOptions

    task: str = ""

    def temperatures(self, task: str, model: str, model_class: str = "auto") -> tuple[float, ...]:
        return (default_temperature(self.task, _classify(model, model_class)),)

    def max_tokens(self) -> int:
        return MAX_TOKENS[self.task]

    def template(self, answers: str) -> str:
        if answers == "choices":
            return MC_TEMPLATE
        return "fill_blank_open" if self.task == "fitb_open" else "qa"

    def load(self, request: LoadRequest) -> tuple[list[Item], dict[str, Any]]:
        return load_items(
            self.task,
            request.data_dir,
            request.languages,
            limit=request.limit,
            paper_compat=bool(request.options.get("paper_compat", False)),
        )

    def describe(self, data_dir: str | os.PathLike[str] | None) -> list[dict[str, Any]]:
        return describe(self.task, data_dir)

    def describe_title(self) -> str:
        return f"{self.name}: whitespace words of the stripped cells"


for _task, _file in TASKS.items():
    register_benchmark(
        MedArabiQBenchmark(
            name=f"medarabiq/{_task}",
            languages=tuple(_file.question),
            run_languages=("ar",),
            provides=("choices",) if _task in MC_TASKS else ("question", "reference"),
            default_tasks=("multiple_choice",) if _task in MC_TASKS else ("open_qa",),
            parallel=len(_file.question) > 1,
            licence="MedArabiQ licence: no redistribution or modification (bring your own copy)",
            description=f"MedArabiQ {_task} ({_file.file})",
            task=_task,
            perturbed="perturb medarabiq/mcq" if _task == "mcq_bias" else "",
        )
    )
