"""The one registry type (``xlingmed.registry.Registry``) behind benchmarks, tasks, answer metrics and backends:
filled on first use, duplicate names refused, unknown names listed in the error."""

from __future__ import annotations

import pytest

from xlingmed.benchmarks.base import BENCHMARKS
from xlingmed.errors import ConfigError, ModelError
from xlingmed.metrics.registry import METRICS
from xlingmed.models.base import BACKENDS, Backend, register_backend
from xlingmed.registry import Registry
from xlingmed.tasks.registry import TASKS, get_task, register_task


def test_a_registry_refuses_a_second_definition_of_a_name_and_lists_the_known_ones() -> None:
    reg: Registry[str] = Registry("colour", "")
    reg.register("red", "#f00")
    reg.register("red", "#f00")  # the same entry again: nothing changes
    with pytest.raises(ConfigError, match="colour 'red' is registered twice"):
        reg.register("red", "#e00")
    assert reg.entries() == {"red": "#f00"} and "red" in reg and list(reg) == ["red"]
    with pytest.raises(ConfigError, match=r"unknown colour 'blue'; known: red"):
        reg.get("blue")


def test_the_built_in_registries_are_one_type_and_refuse_to_replace_a_built_in() -> None:
    assert all(isinstance(r, Registry) for r in (BENCHMARKS, TASKS, METRICS, BACKENDS))
    spec = get_task("multiple_choice")
    assert register_task(spec) is spec  # the same spec again is allowed
    with pytest.raises(ConfigError, match="task 'multiple_choice' is registered twice"):
        register_task(type(spec)(**{**spec.__dict__, "description": "another"}))
    with pytest.raises(ConfigError, match="model provider 'openai' is registered twice"):
        register_backend(Backend("openai", "mine:Model", False, None, False, "not the built-in"))
    with pytest.raises(ModelError, match="unknown model provider 'nope'"):
        BACKENDS.get("nope")
    assert {"xlinghealth/liveqa", "medexpqa"} <= set(BENCHMARKS.names())


def test_every_built_in_task_is_one_package_with_its_scores_and_view() -> None:
    """Each built-in task's registry entry points into its own package: its Score builder (what statistics and
    the item explorer read from its CSV) and its view, a ``View`` object of the package's ``view.py`` that reads
    the typed summary of its ``summary.py``."""
    from xlingmed.tasks.registry import BUILTIN_MODULES, task_specs
    from xlingmed.views.base import View

    specs = task_specs()
    for module in BUILTIN_MODULES:
        name = module.rsplit(".", 1)[1]
        spec = specs[name]
        assert spec.scores is not None and spec.scores.__module__.startswith(f"{module}."), name
        assert isinstance(spec.view, View) and type(spec.view).__module__ == f"{module}.view", name
        assert spec.view.summary_type is not None  # its hooks read the task's typed summary, not dict keys
        assert spec.view.summary_type.__module__ == f"{module}.summary", name
        assert spec.build.__module__.startswith(f"{module}."), name
