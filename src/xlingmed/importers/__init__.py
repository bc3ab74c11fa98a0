"""Results other evaluation tools already have, as xlingmed run folders: ``xlingmed import FORMAT PATH… --out``.

One module per tool reads its per-sample logs into an ``ImportedLog`` (``base.py``): ``lm_eval.py``
(lm-evaluation-harness ``--log_samples``), ``inspect_log.py`` (inspect_ai ``.eval``/``.json`` logs) and
``lighteval.py`` (lighteval's details parquet files). ``families.py`` says, per task family, how a sample is
placed by language and paired across languages; ``run_folder.py`` writes the run folder. Adding a tool is one
module here and one line below; a user's package adds one through the ``xlingmed.importers`` entry point group (a
module with ``read``).
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from xlingmed.errors import MALFORMED, DataError
from xlingmed.importers.base import ImportedAnswer, ImportedLog
from xlingmed.registry import Registry, module_name

__all__ = ["FORMATS", "ImportedAnswer", "ImportedLog", "read_logs"]


# format name → the module that reads it (its ``read(paths, metric=, language_from=, pair_by=)``)
FORMATS: Registry[str] = Registry("import format", "xlingmed.importers", adopt=module_name)
FORMATS.register("lm-eval", "xlingmed.importers.lm_eval")
FORMATS.register("inspect", "xlingmed.importers.inspect_log")
FORMATS.register("lighteval", "xlingmed.importers.lighteval")


def read_logs(fmt: str, paths: Sequence[Path], **options: Any) -> ImportedLog:
    """The samples of ``paths`` in format ``fmt`` (``FORMATS``).

    Raises:
        ConfigError: an unknown format, or files that are not of it.
        DataError: a record that cannot be read or placed (file and line named).
    """
    module = importlib.import_module(FORMATS.get(fmt))
    try:
        log: ImportedLog = module.read([Path(p) for p in paths], **options)
    except MALFORMED as exc:  # a log from someone else, malformed in a way no reader check named: one line, exit 2
        named = ", ".join(str(p) for p in paths[:3]) + (" …" if len(paths) > 3 else "")
        raise DataError(f"{fmt} log {named}: not readable ({type(exc).__name__}: {str(exc)[:160]})") from None
    temperature = log.settings.get("temperature")
    if temperature is not None and not _a_temperature(temperature):
        raise DataError(f"{fmt} log {paths[0] if paths else ''}: the temperature it logged, {temperature!r}, is no "
                        "sampling temperature (a finite number from 0 to 100)")  # fmt: skip
    return log


def _a_temperature(value: Any) -> bool:
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return False
    return math.isfinite(number) and 0 <= number <= 100

