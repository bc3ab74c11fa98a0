"""Metrics: pure functions of labels and texts (plus an encoder handle where they need one)."""

from pathlib import Path

from xlingmed.errors import ConfigError


def check_local_model(name: str, what: str) -> None:
    """Fail fast on a model given as a path that does not exist (instead of minutes of hub retries).

    A name starting with ``/``, ``.`` or ``~``, or with more than one ``/``, is a path, not a hub id.

    Raises:
        ConfigError: the path does not exist.
    """
    looks_like_path = name.startswith(("/", ".", "~")) or name.count("/") > 1
    if looks_like_path and not Path(name).expanduser().exists():
        raise ConfigError(f"{what} {name!r}: no such folder")


def quiet_transformers() -> None:
    """Silence transformers' per-load progress bars and warnings, which would tear the run's progress bars."""
    from transformers.utils import logging

    logging.disable_progress_bar()  # type: ignore[no-untyped-call]
    logging.set_verbosity_error()  # type: ignore[no-untyped-call]
