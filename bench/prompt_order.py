"""What sending a one-at-a-time backend its requests sorted by prompt saves (``engine.generate.send_order``).

    python bench/prompt_order.py [--data-dir ../shared/data/xlinghealth] [--limit 2]

Runs verifiability on MedicationQA (en, hi; τ 0 and 1, so every claim is asked twice) with SmolLM2 in process,
once in the planned order and once sorted by prompt, each with a fresh cache; prints both wall times, their
ratio, and whether the two runs give the same results (they must: the order changes no answer).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

import xlingmed
from xlingmed.engine import generate


def run(data_dir: Path, limit: int, sort: bool) -> tuple[float, dict[str, Any]]:
    original = generate.send_order
    if not sort:
        generate.send_order = lambda todo, concurrency: list(todo.items())  # type: ignore[assignment]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            result = xlingmed.evaluate(
                benchmark="xlinghealth/medicationqa", data_dir=data_dir, languages="en,hi", tasks="verifiability",
                model="llamacpp/smollm2", limit=limit, temperatures="0,1", verify_max_tokens=4,
                cache=Path(tmp) / "cache.sqlite", out=Path(tmp) / "run",
            )  # fmt: skip
            wall = time.perf_counter() - start
            return wall, result.summary["tasks"]["verifiability"]["languages"]
    finally:
        generate.send_order = original


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=Path("../shared/data/xlinghealth"))
    parser.add_argument("--limit", type=int, default=2)
    args = parser.parse_args()
    planned, a = run(args.data_dir, args.limit, sort=False)
    ordered, b = run(args.data_dir, args.limit, sort=True)
    print(f"planned order: {planned:.1f} s")
    print(f"sorted by prompt: {ordered:.1f} s")
    print(f"ratio sorted/planned: {ordered / planned:.2f}")
    print(f"same results: {a == b}")


if __name__ == "__main__":
    main()
