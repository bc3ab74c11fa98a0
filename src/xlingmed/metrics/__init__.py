"""Metrics: pure functions of labels and texts (plus an encoder handle where they need one)."""


def quiet_transformers() -> None:
    """Silence transformers' per-load progress bars and warnings, which would tear the run's progress bars."""
    from transformers.utils import logging

    logging.disable_progress_bar()  # type: ignore[no-untyped-call]
    logging.set_verbosity_error()  # type: ignore[no-untyped-call]
