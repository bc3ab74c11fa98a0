"""Entry points through which a user's own package adds to xlingmed's registries.

Groups: ``xlingmed.benchmarks`` (a ``Benchmark`` or a ``BenchmarkScheme``), ``xlingmed.tasks`` (a module that
registers a task, or a ``TaskSpec``), ``xlingmed.models`` (a backend class or a ``Backend``) and
``xlingmed.metrics``. They are read once, the first time a registry (``registry.Registry``) is asked for a name
or its list, so ``import xlingmed`` stays fast. See ``docs/extending.md``.
"""

from __future__ import annotations

from functools import cache
from importlib import metadata

GROUPS = ("xlingmed.benchmarks", "xlingmed.tasks", "xlingmed.models", "xlingmed.metrics")


@cache
def entry_points(group: str) -> tuple[metadata.EntryPoint, ...]:
    """The installed entry points of ``group``, sorted by name (so the order of registration is stable)."""
    return tuple(sorted(metadata.entry_points(group=group), key=lambda ep: ep.name))
