"""A run's Score records on disk, in columns: what ``scores.parquet`` is written from and the statistics read.

A plan of a million requests has a million or more Scores. Held as Python objects they were most of the driver's
memory (about 200 bytes each, and as much again for each structure a summary built from them). ``ScoreSpool``
keeps them in a hidden file beside the run folder (owner-only, like every spool), as Arrow record batches of up to
``BATCH`` rows; the driver holds one batch. It is a ``Sequence[Score]`` (iterating reads one batch at a time), and
``columns`` gives the statistics what they need column by column (``analysis/conditions.Answers``), without a
Score object per row. ``write_parquet`` and ``write_csv`` stream it into the run folder.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import fields
from pathlib import Path
from typing import IO, Any

from xlingmed.cells import safe
from xlingmed.chunk_file import ChunkFile
from xlingmed.types import Score

SCORE_COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(Score))
_FLOATS = ("value", "temperature", "probability")
BATCH = 8_192  # rows per record batch: read back as Score objects one batch at a time (about 2 MiB of them)


def _schema() -> Any:
    import pyarrow as pa

    kinds = {name: pa.float64() for name in _FLOATS} | {"higher_is_better": pa.bool_()}
    return pa.schema([(name, kinds.get(name, pa.string())) for name in SCORE_COLUMNS])


class ScoreSpool(ChunkFile[Score]):
    """Scores in a hidden Arrow file beside ``beside`` (see the module doc); ``discard`` removes it."""

    suffix = ".scores"

    def __init__(self, beside: Path) -> None:
        super().__init__(beside)
        self._buffer: dict[str, list[Any]] = {c: [] for c in SCORE_COLUMNS}
        self._filled: set[str] = set()  # the columns with a value in some row

    def __len__(self) -> int:
        return self._stored + len(self._buffer["item_id"])

    def append(self, score: Score) -> None:
        for c in SCORE_COLUMNS:
            v = getattr(score, c)
            self._buffer[c].append(v)
            if v is not None:
                self._filled.add(c)
        if len(self._buffer["item_id"]) >= BATCH:
            self._settle()

    def extend(self, scores: Iterable[Score]) -> None:
        if isinstance(scores, ScoreSpool):  # another spool (a task's): its batches as they are, no Score objects
            self._settle()
            for data, rows in scores.raw_chunks():
                self._append(data, rows)
            self._filled |= scores._filled
            return
        for score in scores:
            self.append(score)

    def _settle(self) -> None:
        """The buffered rows written as one record batch."""
        if not self._buffer["item_id"]:
            return
        import pyarrow as pa

        batch = pa.RecordBatch.from_pydict(self._buffer, schema=_schema())
        self._buffer = {c: [] for c in SCORE_COLUMNS}
        self._append(_ipc_bytes(batch), batch.num_rows)

    def _decode(self, data: bytes) -> list[Score]:
        cols = _ipc_batch(data).to_pydict()  # column lists, not a dict per row
        return [Score(*values) for values in zip(*(cols[c] for c in SCORE_COLUMNS), strict=True)]

    def batches(self) -> Iterator[Any]:
        """The Arrow record batches in order (what is still buffered, written first)."""
        for data, _ in self.raw_chunks():
            yield _ipc_batch(data)

    def columns(self, names: Sequence[str], coded: bool = False) -> dict[str, Any]:
        """``read_columns`` of every row, a batch at a time (never a Score object per row)."""
        return read_columns(self.batches(), names, coded)

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
        """Every row into ``fh`` as CSV (a header of ``SCORE_COLUMNS``; ``None`` is an empty cell; formula-like text
        quoted, ``cells.safe``)."""
        writer = csv.writer(fh)
        writer.writerow(SCORE_COLUMNS)
        for s in self:
            writer.writerow(["" if (v := getattr(s, c)) is None else safe(v) for c in SCORE_COLUMNS])


def _ipc_bytes(batch: Any) -> bytes:
    import pyarrow as pa

    sink = io.BytesIO()
    with pa.ipc.new_stream(sink, batch.schema) as writer:
        writer.write_batch(batch)
    return sink.getvalue()


def _ipc_batch(data: bytes) -> Any:
    import pyarrow as pa

    return pa.ipc.open_stream(data).read_next_batch()


def read_columns(batches: Iterable[Any], names: Sequence[str], coded: bool = False) -> dict[str, Any]:
    """``{name: column}`` over the rows of Score record ``batches``: floats as numpy arrays (NaN where missing);
    strings as numpy object arrays (``None`` where missing), or with ``coded`` as ``(codes, values)``: an int32
    array of positions in the list of distinct values (in order of first appearance; -1 where missing), four bytes
    a row however long the text. The statistics read these (``analysis/conditions.Answers``)."""
    import numpy as np
    import pyarrow as pa

    parts: dict[str, list[Any]] = {n: [] for n in names}
    distinct: dict[str, dict[Any, int]] = {n: {} for n in names}
    for batch in batches:
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


def score_columns(scores: Iterable[Score], names: Sequence[str], coded: bool = False) -> dict[str, Any]:
    """``read_columns`` of any Scores: a ``ScoreSpool``'s batches as they are, a list's as one batch."""
    if isinstance(scores, ScoreSpool):
        return scores.columns(names, coded)
    import pyarrow as pa

    rows = list(scores)
    batch = pa.RecordBatch.from_pydict({c: [getattr(s, c) for s in rows] for c in SCORE_COLUMNS}, schema=_schema())
    return read_columns([batch], names, coded)


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
