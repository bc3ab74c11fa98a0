"""Tasks: what is asked about each item and how the answers are scored."""

from xlingmed.tasks.base import Stage, Task, TaskResult
from xlingmed.tasks.consistency import ConsistencyTask
from xlingmed.tasks.correctness import CorrectnessTask
from xlingmed.tasks.verifiability import VerifiabilityTask

TASKS: tuple[str, ...] = ("correctness", "verifiability", "consistency")

__all__ = ["TASKS", "ConsistencyTask", "CorrectnessTask", "Stage", "Task", "TaskResult", "VerifiabilityTask"]
