"""Many multiple-choice replies read at once, on every core: ``xlingmed import --rescore`` of a log of 10⁶ samples.

``extract_choice`` is a pure function of its arguments, so a large batch is cut into chunks that worker processes
read (``concurrent.futures``, started by ``forkserver``: no lock of the parent's threads is inherited); a small one is
read in this process, where starting workers would cost more than it saves. The readings come back in order and
are the same as one process's (tests/test_rescore_parallel.py).
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from xlingmed.parsing.choice import MARKERS, extract_choice
from xlingmed.types import Parsed

SERIAL_BELOW = 4_000  # replies: under this, one process reads them (a worker starts in about half a second)
CHUNK = 2_000  # replies per task sent to a worker


@dataclass(frozen=True, slots=True)
class ChoiceReply:
    """One reply to read: its text, the canonical labels of its options, their texts, the labels the prompt showed."""

    text: str
    valid: tuple[str, ...]
    options: Mapping[str, str]
    labels: tuple[str, ...] | None = None
    reading: str = "strict"  # parsing.choice.READINGS
    markers: tuple[str, ...] = ()  # the answer marker the log's prompt asked for (or --answer-marker), first


def _read(chunk: Sequence[ChoiceReply]) -> list[tuple[str | None, str]]:
    out = []
    for r in chunk:
        parsed = extract_choice(
            r.text, r.valid, options=r.options, labels=r.labels, reading=r.reading, markers=(*r.markers, *MARKERS)
        )
        out.append((parsed.value, parsed.method))
    return out


def cores() -> int:
    """The CPUs this process may run on (its affinity, not the machine's count)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def read_choices(replies: Sequence[ChoiceReply], *, workers: int | None = None) -> list[Parsed]:
    """``extract_choice`` of every reply, in order, on ``workers`` processes (default: every core this process may
    use; one below ``SERIAL_BELOW`` replies or with ``workers=1``).

    Returns:
        One ``Parsed`` per reply, as ``extract_choice`` returns it.
    """
    n = cores() if workers is None else max(1, workers)
    if n == 1 or len(replies) < SERIAL_BELOW:
        return [Parsed(v, m) for v, m in _read(replies)]
    chunks = [replies[i : i + CHUNK] for i in range(0, len(replies), CHUNK)]
    with ProcessPoolExecutor(max_workers=n, mp_context=multiprocessing.get_context("forkserver")) as pool:
        return [Parsed(v, m) for part in pool.map(_read, chunks) for v, m in part]
