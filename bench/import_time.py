"""How long ``import xlingmed`` takes in a fresh interpreter (median of N), against ``import pandas`` alone.

    python bench/import_time.py [--n 7]

Prints the two medians and their ratio; the target is under 1 s (neither torch nor llama.cpp is imported).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time


def median_import(module: str, n: int) -> float:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", f"import {module}"], check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=7)
    args = parser.parse_args()
    ours, pandas = median_import("xlingmed", args.n), median_import("pandas", args.n)
    print(f"import xlingmed: {ours:.3f} s (median of {args.n}, interpreter start included)")
    print(f"import pandas:   {pandas:.3f} s")
    print(f"ratio xlingmed / pandas: {ours / pandas:.2f}")


if __name__ == "__main__":
    main()
