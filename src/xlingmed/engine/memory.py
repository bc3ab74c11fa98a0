"""Handing freed memory back to the operating system between a run's phases.

Reading a benchmark file (pandas' parser, Arrow buffers) and letting a task's items go free memory that glibc's
allocator keeps for later ``malloc`` calls, while Python's own objects come from separate arenas and never reuse
it: at a plan of 10⁶ requests that kept about 25 MiB of the parser's buffers in the driver's RSS through the whole
run (``bench/scale.py``). ``malloc_trim`` (glibc) returns such free pages; elsewhere this does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from functools import cache
from typing import Any


@cache
def _libc() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return libc if hasattr(libc, "malloc_trim") else None  # musl has no malloc_trim
    except OSError:
        return None


def give_back_freed_memory() -> None:
    """Return the C heap's free pages to the OS (glibc's ``malloc_trim(0)``); a no-op where there is none."""
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)
