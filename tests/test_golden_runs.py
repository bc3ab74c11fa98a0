"""The golden runs write the numbers they wrote before (issue 47): a refactor changes no value of ``summary.json``,
the task CSVs or ``scores.parquet`` of six runs that take every task's parse, score and summary path (XLingHealth
LiveQA with correctness, verifiability, consistency, safety; a user's multiple-choice file with the extractor;
MedArabiQ's bias conditions and Q&A with BERTScore and the rubric; HealthBench with safety), through the real CLI
against the scripted server of ``tests/golden_runs.py``.

The runs take about a minute (no chat model is loaded; the MiniLM encoder is, for BERTScore). What is kept is a
digest per file (``tests/golden.json``: volatile fields left out, floats to 9 significant digits). A change that
is meant: run ``python tests/golden_runs.py compare OLD NEW`` on the runs of both versions to see every value that
moved, say so in CHANGELOG.md, and write the new digest with ``python tests/golden_runs.py digest DIR``.
"""

from __future__ import annotations

import json
from pathlib import Path

import golden_runs

GOLDEN = Path(__file__).with_name("golden.json")


def test_the_golden_runs_write_the_numbers_they_wrote_before(tmp_path: Path) -> None:
    golden_runs.make(tmp_path)
    now = golden_runs.digest(tmp_path)
    kept = json.loads(GOLDEN.read_text(encoding="utf-8"))
    changed = sorted(name for name in kept.keys() & now.keys() if kept[name] != now[name])
    assert changed == [], f"values changed in {changed}: see tests/golden_runs.py compare (this module's docstring)"
    assert sorted(kept.keys() - now.keys()) == [], "files the golden runs no longer write"
    assert sorted(now.keys() - kept.keys()) == [], "new files: add them to tests/golden.json (golden_runs.py digest)"
