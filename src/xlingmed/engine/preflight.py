"""Before the first request: every package the run will need to finish imports.

A run that generates all its answers and then cannot write ``scores.parquet`` wastes the answers' time (they are
cached, but nothing said so) and ends in a traceback. Installed beside ``unbabel-comet`` (``numpy<2``), pip once
put numpy 1.26 under pyarrow 26, which needs numpy ≥ 2 at import. So a run first imports what it writes with
(pandas and pyarrow, with one tiny Parquet file written in memory), what its statistics use (SciPy,
statsmodels, scikit-learn) and what its tasks score with (``TaskSpec.imports``); the first package that does not
import stops the run with ``EnvironmentFault`` (exit 5): one line naming the package, why, and the fix.
"""

from __future__ import annotations

import importlib
import io
from collections.abc import Iterable, Sequence

from xlingmed.errors import EnvironmentFault

WRITERS: tuple[tuple[str, str], ...] = (
    ("numpy", "every statistic"),
    ("pandas", "the task CSVs and scores.parquet"),
    ("pyarrow", "scores.parquet"),
)
STATISTICS: tuple[tuple[str, str], ...] = (  # the compiled parts the summaries and verdicts use, not the lazy tops
    ("scipy.stats", "the statistics"),
    ("sklearn.metrics", "the statistics"),
    ("statsmodels.stats.power", "the verdicts"),
)
# module → the distribution pip installs it from, where the two names differ
DISTRIBUTIONS = {"sklearn": "scikit-learn", "bert_score": "bert-score", "comet": "unbabel-comet",
                 "sentence_transformers": "sentence-transformers", "camel_tools": "camel-tools"}  # fmt: skip


def _fix(module: str, error: str) -> str:
    """What to run, for a package that does not import."""
    root = module.split(".")[0]
    dist = DISTRIBUTIONS.get(root, root)
    if "numpy" in error.lower() and ("2.0" in error or "numpy 2" in error.lower() or "_ARRAY_API" in error):
        # the one conflict seen: a package built for numpy 2 beside numpy 1.x (unbabel-comet pins numpy<2)
        return (f'pip install "{dist}<26"' if root == "pyarrow" else f'pip install --force-reinstall "{dist}"') + (
            ' (or pip install "numpy>=2" where nothing pins numpy<2: unbabel-comet and camel-tools<1.6 do)'
        )  # fmt: skip
    if error.startswith("ModuleNotFoundError"):
        missing = error.split("'")[1] if error.count("'") >= 2 else root
        if missing == "pkg_resources":  # setuptools 82 removed it; old packages (torchmetrics 0.10) still import it
            return 'pip install "setuptools<82"'
        return f'pip install "{DISTRIBUTIONS.get(missing.split(".")[0], missing.split(".")[0])}"'
    return f'pip install --force-reinstall "{dist}"'


def _check(module: str, purpose: str) -> None:
    try:
        importlib.import_module(module)
        if module == "pyarrow":  # imported is not enough: pandas must find it and write Parquet with it
            import pandas as pd

            pd.DataFrame({"value": [1.0, None]}).to_parquet(io.BytesIO(), index=False)
    except Exception as exc:  # ImportError, and what a broken binary raises on import (AttributeError…)
        error = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}".strip()
        raise EnvironmentFault(
            f"{module} does not work in this environment (needed for {purpose}): {error}. Fix: {_fix(module, error)}. "
            "Nothing was sent."
        ) from None


def check_environment(task_imports: Iterable[tuple[str, str]] = (), extra: Sequence[tuple[str, str]] = ()) -> None:
    """Import every package a run needs, in order: the writers, the statistics, then ``task_imports`` and
    ``extra`` (``(module, what needs it)`` pairs).

    Raises:
        EnvironmentFault: the first package that does not import (or pyarrow that cannot write Parquet).
    """
    seen: set[str] = set()
    for module, purpose in (*WRITERS, *STATISTICS, *task_imports, *extra):
        if module not in seen:
            seen.add(module)
            _check(module, purpose)
