"""What the interruption, Ray and shard tests compare: the rows of a completion cache, and a run folder less what
may differ between two runs of the same work (timings, cache hits)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any


def cache_rows(cache: Path) -> int:
    """Rows committed to the completion cache ``cache`` so far (0 while it does not exist yet)."""
    if not cache.exists():
        return 0
    try:
        with sqlite3.connect(cache, timeout=5) as db:
            return int(db.execute("SELECT COUNT(*) FROM completions").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def comparable(run: Path) -> dict[str, Any]:
    """Everything in a run folder that must not depend on how the work was done (not timings, not cache hits):
    the samples in order, the task summaries, the failures, the task CSVs."""
    samples = []
    for line in (run / "samples.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        for volatile in ("cached", "latency_s"):
            row.pop(volatile)
        samples.append(row)
    summary = json.loads((run / "summary.json").read_text(encoding="utf-8"))
    csvs = {p.name: p.read_text(encoding="utf-8") for p in sorted(run.glob("*.csv"))}
    return {"samples": samples, "tasks": summary["tasks"], "failures": summary["failures"], "csvs": csvs}
