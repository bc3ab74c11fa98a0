"""Users' own benchmarks: ``mcq:FILE`` (multiple choice) and ``qa:FILE`` (open questions), in any language.

A file is CSV (``utf-8-sig``), JSON Lines, JSON (a list of records) or Parquet, one row per question and
language. ``columns`` maps our field names to the file's column names; every field has default names that are
tried in order (``FIELD_DEFAULTS``), so a file with ``question``/``answer``/``A``…``D`` columns needs no mapping.

* ``item_id``: the same question in several languages shares an id (paired comparisons); default: the row number.
* ``lang``: ISO code per row; without the column, every row is in the run's first language.
* multiple choice: options as one list column (JSON list, ``{"A": …}`` mapping, or ``A. …`` lines), as one
  column per option (``A``…``H`` or ``option_a``…), or embedded in the question text (MedArabiQ style); the answer
  as a letter (Latin or Arabic), a 0- or 1-based index (``answer_format``), or the option text.
* open questions: ``reference`` (the expert answer) and optional ``negatives`` (a JSON list of wrong answers, for
  verifiability; without it, verifiability takes the references of other questions, as XLingHealth does).

Errors name the file, the row (1-based data row + 1, as a spreadsheet shows it) and the column.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from xlingmed.benchmarks.base import Benchmark, BenchmarkOptions, LoadRequest, register_scheme
from xlingmed.benchmarks.rows import ANSWER_FORMATS as ANSWER_FORMATS
from xlingmed.benchmarks.rows import FIELD_DEFAULTS, TableOptions, cell_value, items_from_frame
from xlingmed.benchmarks.rows import FIELDS as FIELDS
from xlingmed.benchmarks.rows import resolve_columns as resolve_columns
from xlingmed.benchmarks.tables import read_table
from xlingmed.errors import MALFORMED, ConfigError, DataError, DataNotFoundError
from xlingmed.hashing import sha256_file
from xlingmed.types import Item

KINDS = ("mcq", "qa")


def split_name(name: str) -> tuple[str, Path]:
    """``("mcq", Path("my.csv"))`` from ``"mcq:my.csv"``.

    Raises:
        ConfigError: not ``mcq:FILE`` or ``qa:FILE``.
    """
    kind, sep, file = name.partition(":")
    if not sep or kind not in KINDS or not file:
        raise ConfigError(f"a custom benchmark is mcq:FILE or qa:FILE, got {name!r}")
    return kind, Path(file).expanduser()


def file_languages(name: str) -> tuple[str, ...] | None:
    """The languages a custom file holds, in order of appearance (``None`` without a lang column or file)."""
    try:
        _, path = split_name(name)
        df = read_table(path)
    except (ConfigError, DataError, DataNotFoundError):
        return None
    col = next((c for c in FIELD_DEFAULTS["lang"] if c in df.columns), None)
    if col is None:
        return None
    return tuple(dict.fromkeys(str(v).strip().lower() for v in df[col] if str(cell_value(v)).strip()))


def load_items(
    name: str,
    languages: Sequence[str],
    *,
    columns: dict[str, str] | None = None,
    answer_format: str = "auto",
    limit: int | None = None,
    seed: int = 0,
    strict: bool = False,
) -> tuple[list[Item], dict[str, Any]]:
    """Load ``mcq:FILE`` or ``qa:FILE`` as Items.

    Args:
        name: ``mcq:path`` or ``qa:path``.
        languages: the run's languages; rows in other languages are skipped (counted).
        columns: field → column overrides (``FIELDS``).
        answer_format: multiple choice: ``auto`` (a letter, else the option's text), ``letter``, ``index0``,
            ``index1`` or ``text``.
        limit: the first ``limit`` question ids (the same ones in every language).
        seed: picks verifiability negatives from other questions of the whole file (before ``limit``) when the
            file has none.

    Returns:
        (items ordered by question then language, provenance).

    Raises:
        ConfigError, DataError, DataNotFoundError: bad mapping, file, row or cell (file, row and column named).
    """
    kind, path = split_name(name)
    df = read_table(path)
    _no_lone_surrogates(df, path)
    try:
        return items_from_frame(df, name=name, kind=kind, path=path, sha256=sha256_file(path), languages=languages,
                                columns=columns, answer_format=answer_format, limit=limit, seed=seed,
                                strict=strict)  # fmt: skip
    except MALFORMED as exc:  # a cell no row check foresaw: one line naming the file (issue 60)
        what = f"{type(exc).__name__}: {str(exc)[:160]}"
        raise DataError(f"a cell that cannot be read ({what})", file=str(path)) from None


def _no_lone_surrogates(df: Any, path: Path) -> None:
    """A JSON file may escape half a character ("\\ud800"): no text can hold it (it cannot be sent, hashed or
    stored as UTF-8).

    Raises:
        DataError: the first such cell (row and column named).
    """
    for column in df.columns:
        for k, value in enumerate(df[column].tolist()):
            if _has_surrogate(value):
                raise DataError("half a character (a lone UTF-16 surrogate escape): not text", file=str(path),
                                row=k + 2, column=str(column))  # fmt: skip


_SURROGATE = re.compile("[\ud800-\udfff]")


def _has_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        return _SURROGATE.search(value) is not None
    if isinstance(value, list | tuple):
        return any(_has_surrogate(v) for v in value)
    if isinstance(value, dict):
        return any(_has_surrogate(k) or _has_surrogate(v) for k, v in value.items())
    return False


def default_languages(name: str) -> tuple[str, ...]:
    """The file's languages, else English."""
    return file_languages(name) or ("en",)


# --------------------------------------------------------------------------------------------------------------
# Registry


@dataclass(frozen=True)
class FileBenchmark(Benchmark):
    Options: ClassVar[type[BenchmarkOptions]] = TableOptions

    """``mcq:FILE`` or ``qa:FILE``; its run languages are the file's (read when first asked)."""

    kind: str = "qa"

    @property
    def default_languages(self) -> tuple[str, ...]:
        return default_languages(self.name)

    def max_tokens(self) -> int:
        return 16 if self.kind == "mcq" else 1000  # one letter, as MedArabiQ's multiple choice

    def load(self, request: LoadRequest) -> tuple[list[Item], dict[str, Any]]:
        return load_items(
            self.name,
            request.languages,
            columns=dict(request.options.get("columns") or {}),
            answer_format=str(request.options.get("answer_format", "auto")),
            limit=request.limit,
            seed=request.seed,
            strict=bool(request.options.get("strict_data")),
        )


def file_benchmark(name: str) -> FileBenchmark:
    """The spec of ``mcq:FILE`` / ``qa:FILE`` (the file is read when loaded, not here)."""
    kind, _ = split_name(name)
    if kind == "mcq":
        return FileBenchmark(name, ("en",), ("choices",), default_tasks=("multiple_choice",), kind=kind)
    return FileBenchmark(
        name, ("en",), ("question", "reference", "negatives"), default_tasks=("correctness", "verifiability"), kind=kind
    )


register_scheme("mcq", file_benchmark, "mcq:FILE")
register_scheme("qa", file_benchmark, "qa:FILE")
