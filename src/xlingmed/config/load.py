"""``make_config``: a ``RunConfig`` from an optional YAML file plus flags, with errors that name the field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from xlingmed.config.presets import apply_preset
from xlingmed.config.run_config import RunConfig
from xlingmed.errors import ConfigError


def make_config(source: str | Path | None = None, **overrides: Any) -> RunConfig:
    """Build a RunConfig from an optional YAML file plus keyword overrides (``None`` values are ignored).

    Raises:
        ConfigError: unreadable YAML, or a field that fails validation (the message names the field).
    """
    data: dict[str, Any] = {}
    if source is not None:
        try:
            loaded = yaml.safe_load(Path(source).read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as exc:
            raise ConfigError(f"config file {source}: {exc}") from None
        if loaded is None:
            loaded = {}
        if not isinstance(loaded, dict):
            raise ConfigError(f"config file {source}: expected a mapping of field: value")
        data.update(loaded)
    for key, value in overrides.items():
        if value is None:
            continue
        if key in ("task_args", "model_args", "benchmark_args") and isinstance(data.get(key), dict):
            value = {**data[key], **value}  # flags add to (and override) the file's options
        data[key] = value
    data = apply_preset(data)  # a preset fills only what the file and the flags left unset
    try:
        return RunConfig(**data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'config'}: {err['msg']}" for err in exc.errors()
        )
        where = f"config file {source}: " if source else ""
        raise ConfigError(f"{where}{problems}") from None
