"""Tasks: what is asked about each item and how the answers are scored."""

from xlingmed.tasks.base import Stage, Task, TaskResult
from xlingmed.tasks.consistency import ConsistencyTask
from xlingmed.tasks.correctness import CorrectnessTask
from xlingmed.tasks.multiple_choice import MultipleChoiceTask
from xlingmed.tasks.open_qa import OpenQATask
from xlingmed.tasks.rubric import RubricTask
from xlingmed.tasks.verifiability import VerifiabilityTask

TASKS: tuple[str, ...] = ("correctness", "verifiability", "consistency", "multiple_choice", "open_qa", "rubric")

__all__ = [
    "TASKS",
    "ConsistencyTask",
    "CorrectnessTask",
    "MultipleChoiceTask",
    "OpenQATask",
    "RubricTask",
    "Stage",
    "Task",
    "TaskResult",
    "VerifiabilityTask",
]
