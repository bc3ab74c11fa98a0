"""Tasks: what is asked about each item and how the answers are scored. One module or package per task, each
registering its ``TaskSpec`` (options model and builder) in ``registry.py``; the registry is the one list of them
(``task_specs()``), so nothing here names a task."""

from xlingmed.tasks.base import Stage, Task, TaskResult
from xlingmed.tasks.registry import TaskOptions, TaskSpec, get_task, register_task, task_specs

__all__ = ["Stage", "Task", "TaskOptions", "TaskResult", "TaskSpec", "get_task", "register_task", "task_specs"]
