"""Entry points through which a user's own package adds to xlingmed's registries.

Groups: ``xlingmed.benchmarks`` (a ``Benchmark`` or a ``BenchmarkScheme``), ``xlingmed.tasks`` (a module that
registers a task, or a ``TaskSpec``), ``xlingmed.models`` (a backend class or a ``Backend``) and
``xlingmed.metrics``. They are read once, the first time a registry is asked for a name it does not know or for
its whole list, so ``import xlingmed`` stays fast. See ``docs/extending.md``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from importlib import metadata
from typing import Any

GROUPS = ("xlingmed.benchmarks", "xlingmed.tasks", "xlingmed.models", "xlingmed.metrics")


@cache
def entry_points(group: str) -> tuple[metadata.EntryPoint, ...]:
    """The installed entry points of ``group``, sorted by name (so the order of registration is stable)."""
    return tuple(sorted(metadata.entry_points(group=group), key=lambda ep: ep.name))


def load_registry(modules: tuple[str, ...], group: str, accept: Callable[[str, Any], None]) -> None:
    """Import a registry's built-in modules (each registers its entries when imported), then hand every entry
    point of ``group`` to ``accept(name, loaded_object)``; a plugin module that registers itself on import needs
    nothing more from ``accept``."""
    for module in modules:
        importlib.import_module(module)
    for ep in entry_points(group):
        accept(ep.name, ep.load())
