"""Tasks: what is asked about each item and how the answers are scored. One package per task
(``tasks/<name>/``: its task and ``-T`` options, its typed summary, its view, its figures and its judge or prompts
as data), each registering its ``TaskSpec`` in ``registry.py``; the registry is the one list of them
(``task_specs()``), so nothing here names a task. ``base.py`` says what a task is, ``run_views.py`` shows a run's
tasks through their views, ``common.py`` holds what several tasks ask alike."""

from xlingmed.tasks.base import Stage, Task, TaskResult
from xlingmed.tasks.registry import TaskOptions, TaskSpec, get_task, register_task, task_specs

__all__ = ["Stage", "Task", "TaskOptions", "TaskResult", "TaskSpec", "get_task", "register_task", "task_specs"]
