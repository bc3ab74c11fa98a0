"""One registry type for every kind of thing xlingmed can be given by name: benchmarks, benchmark schemes, tasks,
answer and set metrics, backends, import and export formats (issue 47; after lm-evaluation-harness's
``api/registry.py`` and inspect_ai's ``_util/registry.py``).

A registry is filled lazily, the first time it is asked for a name or its listing: its built-in modules are
imported (each registers its entries when imported, next to the code that defines them), then the installed entry
points of its group (``plugins.entry_points``) are loaded, and each loaded object that is an entry (or that
``adopt`` turns into one) is registered under the entry point's name; a plugin module that registers itself on
import needs nothing more. A name registered twice with two different entries is refused, whoever registers it:
a plugin cannot silently replace a built-in, nor two plugins each other.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any, Generic, TypeVar

from xlingmed.errors import ConfigError

T = TypeVar("T")


def module_name(name: str, loaded: Any) -> str | None:
    """``adopt`` for a registry of modules named by import path (import and export formats): an entry point that
    loads a module is registered as its import name."""
    return loaded.__name__ if isinstance(loaded, ModuleType) else None


class Registry(Generic[T]):
    """Named entries of one kind.

    Args:
        kind: what an entry is, for messages (``task``, ``answer metric``, ``benchmark``…).
        group: the entry point group plugins add to (``xlingmed.tasks``…).
        builtin: the modules that register the built-in entries when imported, in their listing order.
        adopt: ``adopt(entry point name, loaded object)`` → an entry to register under that name, or ``None``
            (a module that registered its own entries); default: the object where it is an instance of
            ``entry_type``.
        entry_type: the class of an entry, for the default ``adopt``.
        error: the exception an unknown name raises (``ConfigError``; ``ModelError`` for backends).
    """

    def __init__(
        self,
        kind: str,
        group: str,
        builtin: tuple[str, ...] = (),
        *,
        adopt: Callable[[str, Any], T | None] | None = None,
        entry_type: type | None = None,
        error: type[Exception] = ConfigError,
    ) -> None:
        self.kind, self.group, self.builtin, self.error = kind, group, builtin, error
        self._adopt = adopt
        self._entry_type = entry_type
        self._entries: dict[str, T] = {}
        self._loaded = False

    def register(self, name: str, entry: T) -> T:
        """Add ``entry`` under ``name``; returns it. The same entry again is a no-op.

        Raises:
            ConfigError: ``name`` already holds a different entry.
        """
        have = self._entries.get(name)
        if have is not None and have is not entry and have != entry:
            raise ConfigError(
                f"{self.kind} {name!r} is registered twice, with two different definitions: each {self.kind} needs "
                f"its own name (a plugin cannot replace a built-in {self.kind} or another plugin's)"
            )
        self._entries[name] = entry
        return entry

    def add(self, entry: T) -> T:
        """``register(entry.name, entry)``: for entries that carry their own name (a ``TaskSpec``, an answer or set
        metric); returns it.

        Raises:
            ConfigError: its name already holds a different entry.
        """
        return self.register(str(entry.name), entry)  # type: ignore[attr-defined]  # a named entry

    def _load(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        from xlingmed.plugins import entry_points

        for module in self.builtin:
            importlib.import_module(module)
        for ep in entry_points(self.group):
            obj = ep.load()
            entry = self._adopt(ep.name, obj) if self._adopt is not None else self._own(obj)
            if entry is not None:
                self.register(ep.name, entry)

    def _own(self, obj: Any) -> T | None:
        if self._entry_type is not None and isinstance(obj, self._entry_type):
            return obj  # type: ignore[return-value]  # an instance of the entry class is an entry
        return None

    def entries(self) -> dict[str, T]:
        """Every entry, built-ins first in registration order, then the plugins'."""
        self._load()
        return dict(self._entries)

    def names(self) -> list[str]:
        self._load()
        return list(self._entries)

    def get(self, name: str) -> T:
        """The entry named ``name``.

        Raises:
            ``error`` (``ConfigError`` by default): no such entry; the message lists the known names.
        """
        self._load()
        if name not in self._entries:
            raise self.error(f"unknown {self.kind} {name!r}; known: {', '.join(self._entries)}")
        return self._entries[name]

    def __contains__(self, name: object) -> bool:
        self._load()
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

