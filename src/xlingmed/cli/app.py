"""The ``xlingmed`` command: ``run``, ``report``, ``describe``, ``list``, ``translate``, ``variant``, ``audit`` and
``annotate``; a thin layer over the Python API (one module per command group; ``views.py`` prints each task's
table)."""

from __future__ import annotations

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__)
