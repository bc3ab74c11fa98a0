"""The ``xlingmed`` command: ``run``, ``report``, ``describe``, ``list``, ``translate``, ``variant``, ``audit`` and
``annotate``; a thin layer over the Python API (one module per command group; ``views.py`` prints each task's
table)."""

from __future__ import annotations

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__)


@app.callback()
def _options(
    debug: bool = typer.Option(False, "--debug", help="Print the traceback of an error as well (or XLINGMED_DEBUG=1)."),
) -> None:
    """Options of every command (``xlingmed --debug run …``)."""
    if debug:
        import os

        os.environ["XLINGMED_DEBUG"] = "1"
