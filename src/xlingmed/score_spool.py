"""A run's Score records on disk, in columns: what ``scores.parquet`` is written from and the statistics read.

A plan of a million requests has a million or more Scores. Held as Python objects they were most of the driver's
memory (about 200 bytes each, and as much again for each structure a summary built from them). ``ScoreSpool``
keeps them in a hidden file beside the run folder (owner-only, like every spool), as Arrow record batches of up to
``BATCH`` rows; the driver holds one batch. It is a ``Sequence[Score]`` (iterating reads one batch at a time), and
``columns`` gives the statistics what they need column by column (``analysis/conditions.Answers``), without a
Score object per row. ``write_parquet`` and ``write_csv`` stream it into the run folder.
"""

from __future__ import annotations

import bisect
import contextlib
import csv
import io
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import fields
from pathlib import Path
from typing import IO, Any, overload

from xlingmed.types import Score

SCORE_COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(Score))
_FLOATS = ("value", "temperature", "probability")
BATCH = 8_192  # rows per record batch: read back as Score objects one batch at a time (about 2 MiB of them)


def _schema() -> Any:
    import pyarrow as pa

    kinds = {name: pa.float64() for name in _FLOATS} | {"higher_is_better": pa.bool_()}
    return pa.schema([(name, kinds.get(name, pa.string())) for name in SCORE_COLUMNS])


class ScoreSpool(Sequence[Score]):
    """Scores in a hidden Arrow file beside ``beside`` (see the module doc); ``discard`` removes it."""

    def __init__(self, beside: Path) -> None:
        beside = Path(beside)
        beside.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=f".{beside.name}.spool-", suffix=".scores", dir=beside.parent)  # 0600
        self.path = Path(name)
        self._fh: IO[bytes] = os.fdopen(fd, "w+b")
        self._batches: list[tuple[int, int, int]] = []  # (offset, bytes, rows) per batch
        self._starts: list[int] = []  # the index of each batch's first row
        self._len = 0
        self._buffer: dict[str, list[Any]] = {c: [] for c in SCORE_COLUMNS}
        self._loaded: tuple[int, list[Score]] | None = None
        self._filled: set[str] = set()  # the columns with a value in some row

    def append(self, score: Score) -> None:
        for c in SCORE_COLUMNS:
            v = getattr(score, c)
            self._buffer[c].append(v)
            if v is not None:
                self._filled.add(c)
        self._len += 1
        if len(self._buffer["item_id"]) >= BATCH:
            self._flush()

    def extend(self, scores: Iterable[Score]) -> None:
        if isinstance(scores, ScoreSpool):  # another spool (a task's): its batches as they are, no Score objects
            self._adopt(scores)
            return
        for score in scores:
            self.append(score)

    def _adopt(self, other: ScoreSpool) -> None:
        """``other``'s batches appended as their bytes are (no decoding, no Score objects)."""
        self._flush()
        other._flush()
        other._fh.flush()
        for offset, size, rows in other._batches:
            other._fh.seek(offset)
            data = other._fh.read(size)
            self._fh.seek(0, os.SEEK_END)
            self._batches.append((self._fh.tell(), size, rows))
            self._starts.append(self._len)
            self._fh.write(data)
            self._len += rows
        self._filled |= other._filled

    def _flush(self) -> None:
        rows = len(self._buffer["item_id"])
        if not rows:
            return
        import pyarrow as pa

        batch = pa.RecordBatch.from_pydict(self._buffer, schema=_schema())
        sink = io.BytesIO()
        with pa.ipc.new_stream(sink, batch.schema) as writer:
            writer.write_batch(batch)
        data = sink.getvalue()
        self._fh.seek(0, os.SEEK_END)
        self._batches.append((self._fh.tell(), len(data), rows))
        self._starts.append(self._len - rows)
        self._fh.write(data)
        self._buffer = {c: [] for c in SCORE_COLUMNS}

    def batches(self) -> Iterator[Any]:
        """The Arrow record batches in order (what is still buffered, flushed first)."""
        import pyarrow as pa

        self._flush()
        self._fh.flush()
        for offset, size, _ in self._batches:
            self._fh.seek(offset)
            yield pa.ipc.open_stream(self._fh.read(size)).read_next_batch()

    def columns(self, names: Sequence[str], coded: bool = False) -> dict[str, Any]:
        """``{name: column}`` over every row, read a batch at a time: floats as numpy arrays (NaN where missing);
        strings as numpy object arrays (``None`` where missing), or with ``coded`` as ``(codes, values)``: an int32
        array of positions in the list of distinct values (in order of first appearance; -1 where missing), four
        bytes a row however long the text. The statistics read these (``analysis/conditions.Answers``), never a
        Score object per row."""
        import numpy as np
        import pyarrow as pa

        parts: dict[str, list[Any]] = {n: [] for n in names}
        distinct: dict[str, dict[Any, int]] = {n: {} for n in names}
        for batch in self.batches():
            for n in names:
                col = batch.column(n)
                if pa.types.is_floating(col.type):
                    parts[n].append(col.to_numpy(zero_copy_only=False))
                elif coded:  # the batch's own dictionary, mapped onto the codes given so far
                    encoded = col.dictionary_encode()
                    local = encoded.dictionary.to_pylist()
                    known = distinct[n]
                    remap = np.array([known.setdefault(v, len(known)) for v in local] + [-1], dtype=np.int32)
                    parts[n].append(remap[encoded.indices.fill_null(len(local)).to_numpy(zero_copy_only=False)])
                else:
                    parts[n].append(np.array(col.to_pylist(), dtype=object))
        out: dict[str, Any] = {}
        for n in names:
            kind = _schema().field(n).type
            empty = np.array([], dtype=float if pa.types.is_floating(kind) else np.int32 if coded else object)
            column = np.concatenate(parts.pop(n)) if parts[n] else empty
            out[n] = (column, list(distinct[n])) if coded and not pa.types.is_floating(kind) else column
        return out

    def _batch(self, k: int) -> list[Score]:
        if self._loaded is not None and self._loaded[0] == k:
            return self._loaded[1]
        import pyarrow as pa

        offset, size, _ = self._batches[k]
        self._fh.flush()
        self._fh.seek(offset)
        batch = pa.ipc.open_stream(self._fh.read(size)).read_next_batch()
        cols = batch.to_pydict()  # column lists, not a dict per row
        rows = [Score(*values) for values in zip(*(cols[c] for c in SCORE_COLUMNS), strict=True)]
        self._loaded = (k, rows)
        return rows

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[Score]:
        self._flush()
        for k in range(len(self._batches)):
            yield from self._batch(k)
            self._loaded = None  # iterating keeps one batch at a time

    @overload
    def __getitem__(self, index: int) -> Score: ...

    @overload
    def __getitem__(self, index: slice) -> list[Score]: ...

    def __getitem__(self, index: int | slice) -> Score | list[Score]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._len))]
        i = index + self._len if index < 0 else index
        if not 0 <= i < self._len:
            raise IndexError(index)
        self._flush()
        k = bisect.bisect_right(self._starts, i) - 1
        return self._batch(k)[i - self._starts[k]]

    def write_parquet(self, fh: IO[bytes]) -> None:
        """Every row into ``fh`` as Parquet (the types kept: a missing value is null), a batch at a time."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        # a column no row has a value in is written as Parquet's null type, as pandas wrote it before 0.3 (read
        # back: a column of None, not an empty string column)
        schema = _schema()
        empty = [f.name for f in schema if f.name not in self._filled and pa.types.is_string(f.type)]
        for name in empty:
            schema = schema.set(schema.get_field_index(name), pa.field(name, pa.null()))
        with pq.ParquetWriter(fh, schema) as writer:
            for batch in self.batches():
                arrays = [pa.nulls(batch.num_rows) if f.name in empty else batch.column(f.name) for f in schema]
                writer.write_batch(pa.RecordBatch.from_arrays(arrays, schema=schema))

    def write_csv(self, fh: IO[str]) -> None:
        """Every row into ``fh`` as CSV (a header of ``SCORE_COLUMNS``; ``None`` is an empty cell)."""
        writer = csv.writer(fh)
        writer.writerow(SCORE_COLUMNS)
        for s in self:
            writer.writerow(["" if (v := getattr(s, c)) is None else v for c in SCORE_COLUMNS])

    def discard(self) -> None:
        with contextlib.suppress(OSError):  # a full disk: the buffered rows cannot be flushed, and need not be
            self._fh.close()
        self.path.unlink(missing_ok=True)


def spooled_scores(records: Sequence[Mapping[str, Any]], scores: Callable[[Sequence[Any]], list[Score]]
                   ) -> Sequence[Score]:  # fmt: skip
    """The Scores of a task's records, ``scores`` applied a chunk of records at a time (it must read row by row)
    into a ``ScoreSpool`` beside the run folder, where the records are a run's ``output.RecordSpool``; else (rows
    read back from a CSV, a test's list) ``scores(records)`` as it is."""
    chunks = getattr(records, "chunks", None)
    beside = getattr(records, "beside", None)
    if chunks is None or beside is None:
        return scores(records)
    spool = ScoreSpool(beside)
    try:
        for chunk in chunks():
            spool.extend(scores(chunk))
    except BaseException:
        spool.discard()
        raise
    return spool
