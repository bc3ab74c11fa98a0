"""Flag values written as strings (``--temperatures 0,0.5``, ``--columns question=stem``) parsed into fields."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, NamedTuple

from xlingmed.errors import ConfigError


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


def parse_fail_on_error(v: Any) -> Any:
    """``none``/``never``/``off`` → ``None`` (never fail); ``""``/``true``/``any`` → 0 (any failure); else as given."""
    if isinstance(v, str) and v.strip().lower() in ("none", "never", "off", "false"):
        return None
    if isinstance(v, str) and v.strip().lower() in ("", "true", "any"):
        return 0.0
    return v


class Shard(NamedTuple):
    """Shard ``i`` of ``n`` (``0 <= i < n``)."""

    i: int
    n: int

    def __str__(self) -> str:
        return f"{self.i}/{self.n}"


def parse_shard(text: str | Shard | Sequence[int]) -> Shard:
    """``"3/8"`` → ``Shard(3, 8)``: the fourth of eight shards (indices start at 0, as Slurm's
    ``$SLURM_ARRAY_TASK_ID`` does with ``--array=0-7``).

    Raises:
        ConfigError: not ``i/N`` with ``0 <= i < N``.
    """
    if isinstance(text, Shard):
        return text
    if not isinstance(text, str):
        parts = list(text)
        if len(parts) != 2:
            raise ConfigError(f"shard {text!r} must be i/N, e.g. 0/4")
        text = f"{parts[0]}/{parts[1]}"
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    if m is None:
        raise ConfigError(f"--shard {text!r} must be i/N with 0 <= i < N, e.g. --shard 0/4")
    index, count = int(m.group(1)), int(m.group(2))
    if count < 1 or index >= count:
        raise ConfigError(f"--shard {text!r}: i must be at least 0 and below N (shards of 4 are 0/4 … 3/4)")
    return Shard(index, count)


def parse_shard_field(v: Any) -> str | None:
    """``i/N`` in its canonical form (``parse_shard``); empty → ``None``.

    Raises:
        ValueError: not a shard of N.
    """
    if v is None or (isinstance(v, str) and not v.strip()):
        return None
    try:
        return str(parse_shard(v))
    except ConfigError as exc:
        raise ValueError(str(exc)) from None


def parse_price_list(v: Any) -> Any:
    """``["MODEL=IN,OUT", …]`` (``--price``, repeatable) or ``{model: [in, out]}`` (YAML) → ``{model: (in, out)}``,
    each price finite and non-negative (a NaN price would switch ``--max-cost`` off)."""
    if isinstance(v, list | tuple | dict):
        from xlingmed.budget import parse_prices

        specs = v if isinstance(v, dict) else [str(x) for x in v]
        return {m: (p.prompt, p.completion) for m, p in parse_prices(specs).items()}
    return v


def parse_mitigations(v: Any) -> tuple[str, ...]:
    """Bias mitigations (``perturbations.bias.MITIGATIONS``) in their canonical order; empty → ``()``."""
    from xlingmed.perturbations.bias import MITIGATIONS
    from xlingmed.tasks.registry import names_list

    if not v or (isinstance(v, str) and not v.strip()):
        return ()
    return names_list(v, MITIGATIONS, "mitigation", order=True)


def flat_task_options(data: Any, fields: set[str]) -> Any:
    """The task options that were RunConfig fields before 0.2 (``samples``, ``judge_parser``…), still accepted as
    flat keys, moved into ``task_args`` (where ``-T`` puts them); ``fields``: the RunConfig's own."""
    if not isinstance(data, dict):
        return data
    from xlingmed.tasks.registry import option_owners

    owners = option_owners()
    moved = {k: v for k, v in data.items() if k in owners and k not in fields}
    if not moved:
        return data
    rest = {k: v for k, v in data.items() if k not in moved}
    rest["task_args"] = {**moved, **dict(rest.get("task_args") or {})}
    return rest


def benchmark_defaults(data: Any) -> Any:
    """Languages and tasks default to the benchmark's own (an unknown benchmark is reported by its field)."""
    if isinstance(data, dict) and isinstance(data.get("benchmark"), str):
        from xlingmed.benchmarks.base import get_benchmark

        try:
            spec = get_benchmark(data["benchmark"])
        except ConfigError:
            return data
        data = dict(data)
        if "languages" not in data:
            data["languages"] = spec.languages_for({**data, **dict(data.get("benchmark_args") or {})})
        data.setdefault("tasks", spec.default_tasks)
    return data


def typed_task_args(v: dict[str, Any]) -> dict[str, Any]:
    """``-T`` options, each validated and typed by every task that declares it (whether or not it runs), so that
    a typo or a bad value fails before anything is loaded: ``-T samples=5`` is stored as 5.

    Raises:
        ValueError: an option no task declares (the known ones listed), or a bad value.
    """
    from xlingmed.tasks.registry import get_task, option_owners

    owners = option_owners()
    unknown = sorted(k for k in v if k not in owners)
    if unknown:
        raise ValueError(f"unknown task option(s) {unknown}; known: {', '.join(sorted(owners))}")
    typed: dict[str, Any] = {}
    for name in dict.fromkeys(t for k in v for t in owners[k]):
        model = get_task(name).options
        given = {k: x for k, x in v.items() if k in model.model_fields}
        typed.update({k: x for k, x in model(**given).model_dump().items() if k in given})
    return {k: typed[k] for k in v}


def parse_columns(v: Any) -> dict[str, str]:
    """``benchmarks.rows.parse_columns`` (imported when used: it loads pandas, which ``import xlingmed`` must not)."""
    from xlingmed.benchmarks.rows import parse_columns as parse

    return parse(v)


def parse_provenance(v: Any) -> tuple[str, ...]:
    """``benchmarks.hub.base.parse_provenance`` (imported when used, as ``parse_columns``)."""
    from xlingmed.benchmarks.hub.base import parse_provenance as parse

    return parse(v)
