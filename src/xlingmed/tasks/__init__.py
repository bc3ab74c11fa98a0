"""Tasks: what is asked about each item and how the answers are scored. One module per task, each registering
its ``TaskSpec`` (options model and builder) in ``registry.py``."""

from xlingmed.tasks.base import Stage, Task, TaskResult
from xlingmed.tasks.consistency import ConsistencyTask
from xlingmed.tasks.correctness import CorrectnessTask
from xlingmed.tasks.multiple_choice import MultipleChoiceTask
from xlingmed.tasks.open_qa import OpenQATask
from xlingmed.tasks.registry import TaskOptions, TaskSpec, get_task, register_task, task_specs
from xlingmed.tasks.rubric import RubricTask
from xlingmed.tasks.verifiability import VerifiabilityTask

__all__ = [
    "ConsistencyTask",
    "CorrectnessTask",
    "MultipleChoiceTask",
    "OpenQATask",
    "RubricTask",
    "Stage",
    "Task",
    "TaskOptions",
    "TaskResult",
    "TaskSpec",
    "VerifiabilityTask",
    "get_task",
    "register_task",
    "task_specs",
]
