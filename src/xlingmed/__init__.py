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
from xlingmed.engine import RunResult, dry_run, evaluate, evaluate_async
from xlingmed.types import Completion, GenerateRequest, Item, Message, Sample, Score

if TYPE_CHECKING:
    from xlingmed import report as report

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


def __getattr__(name: str) -> Any:
    # ``xlingmed.report(...)`` builds a report; matplotlib and the statistics load only when it is first used
    if name == "report":
        import importlib

        return importlib.import_module("xlingmed.report")
    raise AttributeError(f"module 'xlingmed' has no attribute {name!r}")
