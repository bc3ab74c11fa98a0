"""A list of names given as a comma-separated string or a list, each checked against the names allowed: the one
validator of ``-T`` lists (metrics, conditions) and of a benchmark's provenance kinds."""

from __future__ import annotations

from typing import Any


def names_list(value: Any, allowed: tuple[str, ...], what: str, *, order: bool = False) -> tuple[str, ...]:
    """A comma-separated string or a list of names, each in ``allowed``; duplicates dropped. ``order``: in the
    order of ``allowed`` rather than as given.

    Raises:
        ValueError: an unknown name, or none (``what`` names the kind: ``metric``, ``condition``…).
    """
    parts = [str(t).strip() for t in (value.split(",") if isinstance(value, str) else value) if str(t).strip()]
    unknown = [t for t in parts if t not in allowed]
    if unknown or not parts:
        raise ValueError(f"unknown {what}(s) {unknown or parts}; known: {', '.join(allowed)}")
    return tuple(a for a in allowed if a in parts) if order else tuple(dict.fromkeys(parts))
