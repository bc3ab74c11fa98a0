"""Griffe extension: the class docstrings completed at import time shown as Python has them. mkdocstrings reads
the source, which holds only their first part; ``RunConfig``'s listing of its fields by group is generated from the
fields (``config.fields.documentation``) when ``run_config`` is imported."""

from __future__ import annotations

import importlib
import inspect
import sys
from pathlib import Path
from typing import Any

import griffe

SRC = Path(__file__).resolve().parents[2] / "src"
if str(SRC) not in sys.path:  # the checkout's own code, whatever xlingmed the environment has installed
    sys.path.insert(0, str(SRC))

RUNTIME_DOCSTRINGS = ("xlingmed.config.run_config.RunConfig",)  # classes whose __doc__ is completed at import


class RuntimeDocstrings(griffe.Extension):
    """Replaces the docstring of each class of ``RUNTIME_DOCSTRINGS`` by its ``inspect.getdoc`` at import."""

    def on_class(self, *, cls: griffe.Class, **kwargs: Any) -> None:
        if cls.path not in RUNTIME_DOCSTRINGS or cls.docstring is None:
            return
        module, _, name = cls.path.rpartition(".")
        cls.docstring.value = inspect.getdoc(getattr(importlib.import_module(module), name)) or cls.docstring.value
