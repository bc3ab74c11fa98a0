"""Cached re-run vs first run: the same ``xlingmed run`` twice, the second answered entirely from the cache.

First run: MedicationQA, en/es/zh/hi, correctness + verifiability, SmolLM2-135M in process (the README's model),
short answers; fresh cache file. Second run: the identical command with another ``--out`` (target: wall time
< 5 % of the first). Both are timed as whole commands (process start, data, plan, scoring, writing), and the
in-process ``wall_s`` from summary.json is shown too.

    python bench/cached_rerun.py [--limit 5] [--max-tokens 64]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", type=Path, default=REPO.parent / "shared" / "data" / "xlinghealth")
    ap.add_argument("--limit", type=int, default=5)
    ap.add_argument("--max-tokens", type=int, default=64)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = [
            sys.executable, "-m", "xlingmed.cli", "run", "--benchmark", "xlinghealth/medicationqa",
            "--data-dir", str(args.data_dir), "--languages", "en,es,zh,hi", "--limit", str(args.limit),
            "--tasks", "correctness,verifiability", "--model", "llamacpp/smollm2",
            "--max-tokens", str(args.max_tokens), "--judge-max-tokens", str(args.max_tokens),
            "--cache", f"{tmp}/cache.sqlite", "--quiet", "--no-report",
        ]  # fmt: skip
        rows = []
        for name in ("first", "cached"):
            t0 = time.perf_counter()
            res = subprocess.run([*base, "--out", f"{tmp}/{name}"], capture_output=True, text=True)
            wall = time.perf_counter() - t0
            if res.returncode != 0:
                raise SystemExit(res.stderr)
            summary = json.loads(Path(f"{tmp}/{name}/summary.json").read_text())
            rows.append((name, wall, summary["wall_s"], summary["backend_calls"], summary["cache_hits"]))
            if name == "cached":
                first = json.loads(Path(f"{tmp}/first/summary.json").read_text())
                assert summary["tasks"] == first["tasks"], "cached run differs from the first"
    print(f"{'run':<8} {'command s':>10} {'evaluate s':>11} {'backend calls':>14} {'cache hits':>11}")
    for name, wall, inner, calls, hits in rows:
        print(f"{name:<8} {wall:>10.2f} {inner:>11.2f} {calls:>14} {hits:>11}")
    print(f"cached / first: command {rows[1][1] / rows[0][1] * 100:.1f} %, evaluate "
          f"{rows[1][2] / rows[0][2] * 100:.1f} % (target < 5 %); identical results")  # fmt: skip


if __name__ == "__main__":
    main()
