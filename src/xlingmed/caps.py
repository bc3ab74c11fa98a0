"""Size caps on files from others (issue 60): a line, a zip member's expanded size, a table's rows.

A 4 MB inspect ``.eval`` expanded to 8.6 GB of memory; a 258 KB lighteval parquet reached 11.3 GB; a 2 GiB reply
line crashed the CSV writer. Each reader checks the size a file declares (a zip's member sizes, a parquet's row
count and uncompressed bytes) or reads no more than the cap (a line), before it builds anything. Each cap is named
in its error, and set by an environment variable for the rare honest file above it.
"""

from __future__ import annotations

import itertools
import os
import stat
import zipfile
from collections.abc import Iterator
from pathlib import Path

from xlingmed.errors import ConfigError, DataError

_DEFAULTS = {
    "XLINGMED_MAX_LINE_BYTES": 64 * 2**20,  # one JSON Lines record (a sample with a long reasoning trace: < 2 MB)
    "XLINGMED_MAX_EXPANDED_BYTES": 2 * 2**30,  # what an archive or a compressed table may expand to
    "XLINGMED_MAX_ROWS": 5_000_000,  # rows of one table (a benchmark's samples × languages × temperatures)
}


def cap(name: str) -> int:
    """The cap ``name`` (one of ``_DEFAULTS``), from its environment variable where set.

    Raises:
        ConfigError: the variable is set to something that is not a positive whole number.
    """
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return _DEFAULTS[name]
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r}: expected a positive whole number") from None
    if value <= 0:
        raise ConfigError(f"{name}={raw!r}: expected a positive whole number")
    return value


def over(name: str, size: int, what: str, file: str | Path) -> DataError:
    """The error for ``size`` past cap ``name``."""
    return DataError(f"{what} of {size:,} is over the cap of {cap(name):,} (set {name} to raise it)", file=str(file))


def regular_file(path: Path) -> bool:
    """``path`` is a plain file (not a FIFO, a socket or a device, which an open would wait on or read forever)."""
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return False


def capped_lines(path: Path) -> Iterator[tuple[int, str]]:
    """The numbered lines of the UTF-8 text file ``path``, none longer than ``XLINGMED_MAX_LINE_BYTES``, read one at
    a time.

    Raises:
        DataError: not a plain file, a line over the cap, or bytes that are not UTF-8 (file and line named).
    """
    if not regular_file(path):
        raise DataError("not a plain file (a FIFO, a socket or a device?)", file=str(path))
    limit = cap("XLINGMED_MAX_LINE_BYTES")
    with path.open("rb") as fh:
        for n in itertools.count(1):
            raw = fh.readline(limit + 1)
            if not raw:
                return
            if len(raw) > limit and not raw.endswith(b"\n"):
                raise DataError(f"line {n} is longer than the cap of {limit:,} bytes (set XLINGMED_MAX_LINE_BYTES to "
                                "raise it)", file=str(path))  # fmt: skip
            try:
                yield n, raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise DataError(f"line {n} is not UTF-8 text (byte {exc.start})", file=str(path)) from None


def check_input_file(path: Path) -> None:
    """A file from others, before anything reads it: a plain file, and, for a zip (inspect's ``.eval``), members
    whose declared expanded sizes stay under ``XLINGMED_MAX_EXPANDED_BYTES``; for a parquet table, rows and
    uncompressed bytes under ``XLINGMED_MAX_ROWS`` and ``XLINGMED_MAX_EXPANDED_BYTES``; any other file no larger
    than ``XLINGMED_MAX_EXPANDED_BYTES``.

    Raises:
        DataError: not a plain file, or a size over its cap (the cap and its variable named).
    """
    if not regular_file(path):
        raise DataError("not a plain file (a FIFO, a socket or a device?)", file=str(path))
    size = path.stat().st_size
    if size > cap("XLINGMED_MAX_EXPANDED_BYTES"):
        raise over("XLINGMED_MAX_EXPANDED_BYTES", size, "a file", path)
    if zipfile.is_zipfile(path):
        try:
            with zipfile.ZipFile(path) as zf:
                expanded = sum(max(0, info.file_size) for info in zf.infolist())
        except (zipfile.BadZipFile, OSError, ValueError) as exc:
            raise DataError(f"a damaged zip ({exc})", file=str(path)) from None
        if expanded > cap("XLINGMED_MAX_EXPANDED_BYTES"):
            raise over("XLINGMED_MAX_EXPANDED_BYTES", expanded, "an archive expanding to bytes", path)
    elif path.suffix == ".parquet":
        _check_parquet(path)


def _check_parquet(path: Path) -> None:
    import pyarrow.parquet as pq

    try:
        meta = pq.ParquetFile(path).metadata
    except Exception as exc:  # pyarrow raises ArrowInvalid, OSError and others for what is not parquet
        raise DataError(f"not a parquet file ({str(exc)[:160]})", file=str(path)) from None
    if meta.num_rows > cap("XLINGMED_MAX_ROWS"):
        raise over("XLINGMED_MAX_ROWS", meta.num_rows, "a table of rows", path)
    expanded = sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
    if expanded > cap("XLINGMED_MAX_EXPANDED_BYTES"):
        raise over("XLINGMED_MAX_EXPANDED_BYTES", expanded, "a table expanding to bytes", path)
