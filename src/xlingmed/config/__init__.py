"""Every setting of a run: the schema (``run_config``), flag values written as strings (``values``) and the YAML
file plus flags that make one (``load``)."""

from xlingmed.benchmarks.base import PAPER_TEMPERATURES as PAPER_TEMPERATURES
from xlingmed.config.checks import tasks_for as tasks_for
from xlingmed.config.load import make_config as make_config
from xlingmed.config.presets import XLINGEVAL_TASKS as XLINGEVAL_TASKS
from xlingmed.config.run_config import RunConfig as RunConfig

__all__ = ["PAPER_TEMPERATURES", "XLINGEVAL_TASKS", "RunConfig", "make_config", "tasks_for"]
