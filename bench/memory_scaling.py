"""Peak memory of ``xlingmed run`` as the run grows: 1,000 vs 10,000 completions (target: flat, not growing with
run size beyond the store).

A synthetic multiple-choice file (``mcq:FILE``, English, 4 options) of N questions is answered by
openai/m against bench/instant_server.py (no model, so the harness is all that is measured). Each size runs
as its own process; its peak resident set size (``ru_maxrss`` of the child) and the cache file size are printed,
with the growth per 1,000 completions.

    python bench/memory_scaling.py [--sizes 1000,10000]
"""

from __future__ import annotations

import argparse
import csv
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from harness_overhead import free_port, wait_ready  # noqa: E402


def write_items(path: Path, n: int) -> None:
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "question", "A", "B", "C", "D", "answer"])
        for i in range(n):
            w.writerow([f"q{i:06d}", f"Question {i}: which drug class does medicine number {i} belong to?",
                        f"class {i}a", f"class {i}b", f"class {i}c", f"class {i}d", "ABCD"[i % 4]])  # fmt: skip


def peak_rss_of(cmd: list[str]) -> tuple[float, float]:
    """Run ``cmd`` in a fresh wrapper process; return (peak RSS of cmd in MiB, wall s)."""
    wrapper = (
        "import resource, subprocess, sys, time; t = time.perf_counter(); "
        "r = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, time.perf_counter() - t, r.returncode); "
        "sys.stderr.write(r.stderr[-3000:] if r.returncode else '')"
    )
    res = subprocess.run([sys.executable, "-c", wrapper, *cmd], capture_output=True, text=True)
    kib, wall, rc = res.stdout.split()
    if rc != "0":
        raise SystemExit(res.stderr)
    return int(kib) / 1024, float(wall)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,10000")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, str(HERE / "instant_server.py"), "--port", str(port), "--reply", "The correct letter is: B"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}/v1"
    rows = []
    try:
        wait_ready(url, server)
        for n in sizes:
            with tempfile.TemporaryDirectory() as tmp:
                items = Path(tmp) / "items.csv"
                write_items(items, n)
                cache = Path(tmp) / "cache.sqlite"
                cmd = [sys.executable, "-m", "xlingmed.cli", "run", "--benchmark", f"mcq:{items}", "--languages",
                       "en", "--model", "openai/m", "--base-url", url, "--max-concurrency", "16", "--quiet",
                       "--no-report", "--cache", str(cache), "--out", f"{tmp}/run"]  # fmt: skip
                rss, wall = peak_rss_of(cmd)
                store = sum(p.stat().st_size for p in Path(tmp).glob("cache.sqlite*")) / 2**20
                run_dir = sum(p.stat().st_size for p in Path(f"{tmp}/run").iterdir()) / 2**20
                rows.append((n, rss, wall, store, run_dir))
    finally:
        server.terminate()
        server.wait()
    print(f"{'completions':>11} {'peak RSS MiB':>13} {'wall s':>7} {'store MiB':>10} {'run folder MiB':>15}")
    for n, rss, wall, store, run_dir in rows:
        print(f"{n:>11} {rss:>13.1f} {wall:>7.1f} {store:>10.1f} {run_dir:>15.1f}")
    (n0, r0, *_), (n1, r1, *_) = rows[0], rows[-1]
    print(f"peak RSS growth {r1 - r0:+.1f} MiB for {n1 - n0} more completions = "
          f"{(r1 - r0) / (n1 - n0) * 1000:.2f} MiB per 1,000 ({(r1 / r0 - 1) * 100:+.1f} %)")  # fmt: skip
    _ = resource, time


if __name__ == "__main__":
    main()
