"""A task's option defaults live in its options model only: a task class that also names an option as a parameter
of its own (``RubricTask(judge_max_tokens=512)`` beside ``RubricOptions.judge_max_tokens = 1000``, issue 63) gives
it the same default, so a task built in a test or a script behaves as one a run builds."""

from __future__ import annotations

import importlib
import inspect

from xlingmed.tasks.registry import task_specs


def test_no_task_class_restates_an_option_default_that_disagrees() -> None:
    disagree = []
    for name, spec in task_specs().items():
        module = importlib.import_module(spec.build.__module__)
        classes = [v for v in vars(module).values() if inspect.isclass(v) and getattr(v, "name", None) == name]
        assert classes, name
        params = inspect.signature(classes[0].__init__).parameters
        for field, info in spec.options.model_fields.items():
            for param in {field, field.removeprefix(f"{name}_")} & set(params):
                default = params[param].default
                if default is not inspect.Parameter.empty and default != info.default:
                    disagree.append(f"{name}.{param}: {default!r} (task) vs {info.default!r} (options)")
    assert disagree == []
