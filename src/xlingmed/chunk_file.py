"""Rows on disk, a chunk at a time: the file, its index and the reading back that a run's spools share.

A run of a million requests cannot hold its records or its Scores as Python objects (``output.RecordSpool``,
``score_spool.ScoreSpool``). Each keeps them in a hidden owner-only file beside the run folder, as chunks of
encoded rows (pickle, Arrow IPC), and is a ``Sequence`` over them: iterating decodes one chunk at a time, indexing
finds a row's chunk by bisection and keeps the last chunk it decoded. A subclass says how a chunk is encoded
(``_encode``, ``_decode``) and, when it buffers rows before writing them, how they are written (``_settle``).
"""

from __future__ import annotations

import bisect
import contextlib
import os
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Generic, TypeVar, overload

T = TypeVar("T")


class ChunkFile(Sequence[T], Generic[T]):
    """Rows of type ``T`` in a hidden file beside ``beside`` (``.NAME.spool-*SUFFIX``, mode 0600), a chunk of
    encoded rows after another; ``discard`` removes it. ``check_run_dir`` removes one a killed run left."""

    suffix = ".chunks"

    def __init__(self, beside: Path) -> None:
        beside = Path(beside)
        beside.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=f".{beside.name}.spool-", suffix=self.suffix, dir=beside.parent)  # 0600
        self.path = Path(name)
        self.beside = beside  # the run folder
        self._fh: IO[bytes] = os.fdopen(fd, "w+b")
        self._chunks: list[tuple[int, int, int]] = []  # (offset, bytes, rows) per chunk
        self._starts: list[int] = []  # the index of each chunk's first row
        self._stored = 0  # rows written to the file
        self._loaded: tuple[int, list[T]] | None = None  # the last chunk decoded by index

    # what a subclass says
    def _encode(self, rows: list[T]) -> bytes:
        raise NotImplementedError

    def _decode(self, data: bytes) -> list[T]:
        raise NotImplementedError

    def _settle(self) -> None:
        """Write the rows a subclass still buffers (none here)."""

    # the file
    def _append(self, data: bytes, rows: int) -> None:
        self._fh.seek(0, os.SEEK_END)
        self._chunks.append((self._fh.tell(), len(data), rows))
        self._starts.append(self._stored)
        self._fh.write(data)
        self._stored += rows

    def _write_rows(self, rows: list[T]) -> None:
        if rows:
            self._append(self._encode(rows), len(rows))

    def _raw(self, k: int) -> bytes:
        offset, size, _ = self._chunks[k]
        self._fh.flush()
        self._fh.seek(offset)
        return self._fh.read(size)

    def raw_chunks(self) -> Iterator[tuple[bytes, int]]:
        """(encoded chunk, rows) in order, every row written first: another spool of the kind adopts them as they
        are."""
        self._settle()
        for k, (_, _, rows) in enumerate(self._chunks):
            yield self._raw(k), rows

    def _chunk(self, k: int) -> list[T]:
        if self._loaded is not None and self._loaded[0] == k:
            return self._loaded[1]
        rows = self._decode(self._raw(k))
        self._loaded = (k, rows)
        return rows

    # the Sequence
    def __len__(self) -> int:
        return self._stored

    def chunks(self) -> Iterator[list[T]]:
        """The rows a chunk at a time, as they were added (one chunk held at a time)."""
        self._settle()
        for k in range(len(self._chunks)):
            yield self._chunk(k)
            self._loaded = None

    def __iter__(self) -> Iterator[T]:
        for chunk in self.chunks():
            yield from chunk

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = len(self)
        i = index + n if index < 0 else index
        if not 0 <= i < n:
            raise IndexError(index)
        self._settle()
        k = bisect.bisect_right(self._starts, i) - 1
        return self._chunk(k)[i - self._starts[k]]

    def discard(self) -> None:
        with contextlib.suppress(OSError):  # a full disk: buffered bytes cannot be flushed, and need not be
            self._fh.close()
        self.path.unlink(missing_ok=True)
