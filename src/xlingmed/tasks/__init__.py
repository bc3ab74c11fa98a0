"""Tasks: what is asked about each item and how the answers are scored."""

from xlingmed.tasks.base import Stage, Task
from xlingmed.tasks.correctness import CorrectnessTask
from xlingmed.tasks.verifiability import VerifiabilityTask

TASKS: tuple[str, ...] = ("correctness", "verifiability")

__all__ = ["TASKS", "CorrectnessTask", "Stage", "Task", "VerifiabilityTask"]
