"""xlingmed: evaluate LLMs on medical questions across languages (XLingEval, MedArabiQ).

Python API mirroring the CLI::

    from xlingmed import RunConfig, evaluate
    result = evaluate(RunConfig(benchmark="xlinghealth/liveqa", data_dir="data", limit=5, out="runs/smoke"))
    result.summary["tasks"]["verifiability"]["languages"]["hi"]
"""

from xlingmed.config import RunConfig, make_config
from xlingmed.engine import RunResult, evaluate
from xlingmed.types import Completion, GenerateRequest, Item, Message, Sample

__version__ = "0.1.0"

__all__ = [
    "Completion",
    "GenerateRequest",
    "Item",
    "Message",
    "RunConfig",
    "RunResult",
    "Sample",
    "evaluate",
    "make_config",
]
