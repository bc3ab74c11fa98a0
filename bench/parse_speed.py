"""How fast the multiple-choice parser reads replies, on one core, beside one regular expression's rate.

Target (issue 46): at least 2,000 replies a second at a median of 600 characters, so that ``xlingmed import …
--rescore`` of a 10⁶-sample log reads in minutes. The replies are the invented shapes of ``tests/reply_shapes.py``
(a reply that reasons, walks through every option, then concludes, in 12 languages), cut to lengths around the
median asked for, or real replies from a folder of ``bench/real_replies.py`` rows (``--folder``; never committed).

Printed: the replies' count and median length, ``extract_choice``'s replies per second (best of ``--repeat`` passes,
one process, no threads), the rate of one compiled regular expression that only finds "answer is X" in the same
replies, and the ratio of the two.

Run: python bench/parse_speed.py [--median 600] [--n 2000] [--folder DIR] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

import regex

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from reply_shapes import LETTERS, OPTIONS, long_reply, options

from xlingmed.parsing.choice import extract_choice

Row = tuple[str, list[str], dict[str, str], bool]  # reply, valid labels, options, numbered


def _invented(n: int, median: int, seed: int = 0) -> list[Row]:
    """``n`` invented replies whose lengths spread around ``median``: the head of a long reply (its reasoning and
    part of its list) and its conclusion, so every reply still commits to one option."""
    rng = random.Random(seed)
    rows: list[Row] = []
    langs = sorted(OPTIONS)
    while len(rows) < n:
        lang = rng.choice(langs)
        label = rng.choice(LETTERS)
        full = long_reply(lang, label, style=rng.randrange(4), k=rng.randrange(4), seed=rng.randrange(10**6))
        body, _, last = full.rpartition("\n")
        want = max(40, int(rng.lognormvariate(0, 0.5) * median))
        head = body[: max(0, want - len(last) - 1)]
        rows.append((f"{head}\n{last}", list(LETTERS), options(lang), False))
    return rows


def _real(folder: Path, n: int) -> list[Row]:
    rows: list[Row] = []
    for path in sorted(folder.rglob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                r = json.loads(line)
                if not isinstance(r.get("options"), dict):
                    continue  # a row without its options: nothing to read it against
                opts = {k: str(v) for k, v in r["options"].items()}
                rows.append((str(r["reply"]), list(opts), opts, bool(r.get("numbered"))))
    random.Random(0).shuffle(rows)
    return rows[:n]


def _rate(fn: object, rows: list[Row], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for reply, valid, opts, numbered in rows:
            fn(reply, valid, opts, numbered)  # type: ignore[operator]
        best = min(best, time.perf_counter() - t0)
    return len(rows) / best


_ONE_REGEX = regex.compile(r"answer is\W*([A-E])\b", regex.I)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--median", type=int, default=600, help="median reply length in characters (invented replies)")
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--folder", type=Path, help="real replies in bench/real_replies.py's format instead")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, as the target says
    rows = _real(args.folder, args.n) if args.folder else _invented(args.n, args.median)
    if not rows:
        sys.exit(f"no replies under {args.folder}")
    for reply, valid, opts, numbered in rows[:50]:  # warm: the literals are compiled once, on first use
        extract_choice(reply, valid, options=opts, numbered=numbered)

    def parse(reply: str, valid: list[str], opts: dict[str, str], numbered: bool) -> object:
        return extract_choice(reply, valid, options=opts, numbered=numbered)

    def one_regex(reply: str, valid: list[str], opts: dict[str, str], numbered: bool) -> object:
        return _ONE_REGEX.search(reply)

    ours = _rate(parse, rows, args.repeat)
    base = _rate(one_regex, rows, args.repeat)
    lengths = [len(r[0]) for r in rows]
    print(f"{len(rows)} replies ({'real, ' + str(args.folder) if args.folder else 'invented'}), median "
          f"{statistics.median(lengths):.0f} characters, one core")  # fmt: skip
    print(f"extract_choice : {ours:10.0f} replies/s  ({1000 / ours:.2f} ms a reply)")
    print(f"one regex      : {base:10.0f} replies/s")
    print(f"ratio          : {base / ours:10.0f}x  (target: at least 2,000 replies/s)")


if __name__ == "__main__":
    main()
