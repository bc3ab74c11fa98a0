"""Act on a run at an exact point of its work, never after a delay: the engine calls ``Progress.advance`` right
after it hands each completion to the cache (``engine/generate.py``), in the driver's own event loop, so an action
taken there runs while the rest of the run waits for it.

- ``AtStored(n, action)``: a ``Progress`` that calls ``action()`` once, at the ``n``-th completion stored (on a
  fresh cache every completion is stored). The run cannot end, nor store another completion, before ``action``
  returns. The cache's writer thread commits in the background: its rows may lag behind ``n`` for a millisecond.
- ``exits_after(proc)``: the stderr of a process the test stopped, or its threads' stacks if it hangs.
- ``python tests/run_events.py FIELDS_JSON N``: ``evaluate(**fields)`` in this process, which stops for good once
  ``N`` completions are stored and committed, and prints ``paused N`` on stdout; the test then kills it (a driver
  killed mid-way, with exactly ``N`` completions kept).
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from run_folders import cache_rows


class AtStored:
    def __init__(self, n: int, action: Callable[[], None]) -> None:
        self.n, self.action = n, action
        self.stored = 0
        self.fired_at: int | None = None  # completions stored when the action ran

    def start(self, description: str, total: int) -> None:
        pass

    def advance(self, n: int = 1) -> None:
        self.stored += n
        if self.fired_at is None and self.stored >= self.n:
            self.fired_at = self.stored
            self.action()


def exits_after(proc: subprocess.Popen[str], timeout: float = 120) -> str:
    """The stderr of ``proc`` once it exits. A process that does not exit within ``timeout`` seconds (a hang, the
    test's failure) is made to print every thread's Python stack first (``faulthandler``, on by
    ``PYTHONFAULTHANDLER=1`` in its environment, answers SIGABRT with it), and the failure shows them."""
    try:
        return proc.communicate(timeout=timeout)[1]
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGABRT)
        stderr = proc.communicate(timeout=60)[1]
        raise AssertionError(f"the process did not exit within {timeout} s; its threads:\n{stderr[-12000:]}") from None


def _pause_forever(cache: Path, n: int) -> None:
    # the driver's event loop stops here: nothing more is sent or stored. The cache's writer thread goes on and
    # commits the n completions; only then may the test kill this process.
    while cache_rows(cache) < n:
        time.sleep(0.005)
    print(f"paused {n}", flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    from xlingmed.engine import evaluate

    fields = json.loads(sys.argv[1])
    stored = int(sys.argv[2])
    evaluate(**fields, progress=AtStored(stored, lambda: _pause_forever(Path(fields["cache"]), stored)))
    sys.exit("the run ended before it stored the completions it was to pause at")
