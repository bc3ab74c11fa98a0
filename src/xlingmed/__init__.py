"""xlingmed: evaluate LLMs on medical questions across languages (XLingEval, MedArabiQ).

The Python API mirrors the command line::

    import xlingmed

    result = xlingmed.evaluate(benchmark="xlinghealth/liveqa", data_dir="data", languages="en,hi",
                               tasks="verifiability", limit=5, temperatures="0", out="runs/api")
    result.summary["tasks"]["verifiability"]["languages"]["hi"]
    result.scores()                                  # the Score records, a pandas DataFrame
    xlingmed.report([result.out_dir])                # the HTML report: its index.html
    items, provenance = xlingmed.load_benchmark("xlinghealth/liveqa", "data", ["en", "hi"], limit=3)

``evaluate`` takes a ``RunConfig`` or its fields (the command line's, ``task_args``/``model_args`` for ``-T``/
``-M``). Importing xlingmed loads neither torch nor llama.cpp: they load when a run needs them.
"""

from typing import TYPE_CHECKING, Any

from xlingmed.benchmarks import Benchmark, get_benchmark, load_benchmark
from xlingmed.config import RunConfig, make_config
from xlingmed.types import Completion, GenerateRequest, Item, Message, Sample, Score

if TYPE_CHECKING:
    from xlingmed import report as report
    from xlingmed.engine.dry_run import dry_run
    from xlingmed.engine.run import RunResult, evaluate, evaluate_async

__version__ = "0.1.0"

__all__ = [
    "Benchmark",
    "Completion",
    "GenerateRequest",
    "Item",
    "Message",
    "RunConfig",
    "RunResult",
    "Sample",
    "Score",
    "dry_run",
    "evaluate",
    "evaluate_async",
    "get_benchmark",
    "load_benchmark",
    "make_config",
    "report",
]


_ENGINE = ("RunResult", "dry_run", "evaluate", "evaluate_async")


def __getattr__(name: str) -> Any:
    # the engine (the run, its backends and executors) and the report (matplotlib, the statistics) load when first
    # used: ``import xlingmed`` stays light, for a notebook that only reads benchmarks or configs
    import importlib

    if name == "report":
        return importlib.import_module("xlingmed.report")
    if name in _ENGINE:
        return getattr(importlib.import_module("xlingmed.engine"), name)
    raise AttributeError(f"module 'xlingmed' has no attribute {name!r}")
