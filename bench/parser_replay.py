"""Replay table: how each multiple-choice parser scores correct answers written in realistic phrasings.

A scripted local server (tests/replay_server.py) answers every item of the synthetic MedArabiQ files and of a
five-language mcq:FILE correctly, in one phrasing at a time (or names no option); each parser's accuracy and
invalid share per benchmark are printed. Correct answers should score 100 %, replies without an option 0 %
with all invalid. Run: python bench/parser_replay.py [--parsers robust,first_char]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import medarabiq_fixtures as fx
from replay_server import ALL_PHRASINGS, write_mcq_file
from test_replay import BENCHMARKS, _cells, run_all


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--parsers", default="first_char,robust")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "data"
        folder.mkdir()
        fx.write_all(folder)
        write_mcq_file(folder / "mine.csv")
        print(f"{'phrasing':34s} {'parser':10s} " + " ".join(f"{b:>24s}" for b in BENCHMARKS))
        for k, phrasing in enumerate(ALL_PHRASINGS):
            for parser in args.parsers.split(","):
                out = Path(tmp) / f"{k}-{parser}"
                results = run_all(folder, phrasing, out, "--letter-parser", parser)
                cells = []
                for name in BENCHMARKS:
                    cs = [c for _, _, c in _cells(results[name])]
                    n, right, invalid = (sum(c[key] for c in cs) for key in ("n", "n_correct", "n_invalid"))
                    cells.append(f"{100 * right / n:5.1f}% ok {100 * invalid / n:5.1f}% inv")
                print(f"{phrasing:34s} {parser:10s} " + " ".join(f"{c:>24s}" for c in cells), flush=True)


if __name__ == "__main__":
    main()
