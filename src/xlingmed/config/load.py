"""``make_config``: a ``RunConfig`` from an optional YAML file plus flags, with errors that name the field."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from xlingmed.config.presets import apply_preset
from xlingmed.config.run_config import RunConfig
from xlingmed.config.trust import check_file_trust, file_decisions
from xlingmed.errors import ConfigError
from xlingmed.safe_yaml import load_yaml


def make_config(
    source: str | Path | None = None,
    *,
    trust_config: bool = False,
    say: Callable[[str], None] | None = None,
    **overrides: Any,
) -> RunConfig:
    """Build a RunConfig from an optional YAML file plus keyword overrides (``None`` values are ignored).

    A file's server, key variable or code-running backend option (``config.trust``) is taken only with
    ``trust_config``, and then passed to ``say`` before anything runs.

    Raises:
        ConfigError: unreadable or oversized YAML, a field that fails validation (the message names the field), or
            a file that decides where requests go without ``trust_config``.
    """
    data: dict[str, Any] = {}
    if source is not None:
        loaded = load_yaml(source, f"config file {source}")
        if loaded is None:
            loaded = {}
        if not isinstance(loaded, dict):
            raise ConfigError(f"config file {source}: expected a mapping of field: value")
        for line in check_file_trust(str(source), file_decisions(loaded, overrides), trust_config):
            if say is not None:
                say(line)
        data.update(loaded)
    for key, value in overrides.items():
        if value is None:
            continue
        if key in ("task_args", "model_args", "benchmark_args") and isinstance(data.get(key), dict):
            value = {**data[key], **value}  # flags add to (and override) the file's options
        data[key] = value
    _check_backend_options(data.get("model_args"), source)
    data = apply_preset(data)  # a preset fills only what the file and the flags left unset
    try:
        return RunConfig(**data)
    except (TypeError, AttributeError, KeyError, RecursionError, OverflowError) as exc:
        # a validator met a value of a type no option takes (a list for languages, a mapping key that is no text)
        where = f"config file {source}: " if source else ""
        raise ConfigError(f"{where}a field of the wrong type ({type(exc).__name__}: {str(exc)[:160]})") from None
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'config'}: {err['msg']}" for err in exc.errors()
        )
        where = f"config file {source}: " if source else ""
        raise ConfigError(f"{where}{problems}") from None


def _check_backend_options(args: Any, source: str | Path | None) -> None:
    """``model_args`` are a backend's own options, each a single value (``-M key=value``).

    Raises:
        ConfigError: a value that is a list or a mapping (the key named).
    """
    if not isinstance(args, dict):
        return  # the model's own validation names a model_args that is no mapping
    for key, value in args.items():
        if not isinstance(key, str) or not (value is None or isinstance(value, str | int | float | bool)):
            where = f"config file {source}: " if source else ""
            raise ConfigError(f"{where}model_args.{key}: a backend option takes one value, not {type(value).__name__}")
