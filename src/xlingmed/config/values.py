"""Flag values written as strings (``--temperatures 0,0.5``, ``--columns question=stem``) parsed into fields."""

from __future__ import annotations

from typing import Any


def parse_columns(v: Any) -> dict[str, str]:
    """``field=column[,field=column…]`` (or a mapping) → ``{field: column}``.

    Raises:
        ValueError: a pair without ``=`` or with an empty side.
    """
    if isinstance(v, str):
        pairs = [p.split("=", 1) for p in v.split(",") if p.strip()]
        if any(len(p) != 2 or not p[0].strip() or not p[1].strip() for p in pairs):
            raise ValueError(f"expected field=column[,field=column…], got {v!r}")
        return {k.strip(): c.strip() for k, c in pairs}
    return dict(v or {})


def parse_temperatures(v: Any) -> tuple[float, ...] | None:
    """``0,0.5,1`` (or a sequence) → distinct temperatures in the order given; ``None`` stays ``None``.

    Raises:
        ValueError: a value that is not a number, or outside [0, 2].
    """
    if v is None:
        return None
    parts = v.split(",") if isinstance(v, str) else v
    try:
        temps = tuple(float(t) for t in parts if str(t).strip())
    except ValueError:
        raise ValueError(f"temperatures must be numbers, got {v!r}") from None
    if not temps or any(t < 0 or t > 2 for t in temps):
        raise ValueError(f"temperatures must be in [0, 2], got {v!r}")
    return tuple(dict.fromkeys(temps))
