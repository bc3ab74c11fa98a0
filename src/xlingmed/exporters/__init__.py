"""Run folders in other tools' log formats: ``xlingmed export FORMAT RUN_DIR``. One module per format
(``inspect_log.py``: inspect_ai's ``.eval`` log, so that ``inspect view`` browses a run); adding one is a module
here and a line below, or, from a user's package, an ``xlingmed.exporters`` entry point (a module with
``export``)."""

from __future__ import annotations

import importlib
from pathlib import Path

from xlingmed.registry import Registry, module_name

FORMATS: Registry[str] = Registry("export format", "xlingmed.exporters", adopt=module_name)
FORMATS.register("inspect", "xlingmed.exporters.inspect_log")


def export(fmt: str, run_dir: Path, out: Path | None = None) -> list[Path]:
    """Write run folder ``run_dir`` in format ``fmt``; return the files written.

    Raises:
        ConfigError: an unknown format, or a missing optional package (the message names the extra).
        DataNotFoundError: ``run_dir`` is not a finished run folder.
    """
    written: list[Path] = importlib.import_module(FORMATS.get(fmt)).export(Path(run_dir), out)
    return written
