"""The names of 0.2 for the run's resolved settings, kept readable for one release: ``RunSettings`` lives in
``config/plan.py`` and is made once by ``config.resolve.resolve`` (issue 63); these resolve the configuration."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from xlingmed.config.plan import RunSettings as RunSettings
from xlingmed.config.resolve import resolve

if TYPE_CHECKING:
    from xlingmed.config import RunConfig


def run_paths(config: RunConfig) -> tuple[Path, Path]:
    """(run folder, completion cache) of ``config``: ``resolve(config).settings``' ``out`` and ``cache``."""
    settings = resolve(config).settings
    return settings.out, settings.cache


def run_settings(config: RunConfig) -> RunSettings:
    """``resolve(config).settings``."""
    return resolve(config).settings


def resolved_protocol(config: RunConfig) -> dict[str, Any]:
    """``resolve(config).settings.resolved`` (``manifest.json``'s ``resolved``)."""
    return resolve(config).settings.resolved
