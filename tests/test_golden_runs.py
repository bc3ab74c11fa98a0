"""The golden runs write the values they wrote before (issues 47, 58): a refactor changes no value of
``summary.json``, the task CSVs, the report's statistics or ``scores.parquet`` of five runs that take every task's
parse, score and summary path (XLingHealth LiveQA with correctness, verifiability, consistency, safety; a user's
multiple-choice file with the extractor; MedArabiQ's bias conditions and Q&A with BERTScore and the rubric;
HealthBench with safety), through the real CLI against the scripted server of ``tests/golden_runs.py``.

The runs take about 20 seconds (no chat model is loaded; the MiniLM encoder is, for BERTScore), once under each of
the CPU kernels of ``tests/kernels.py``: BERTScore's float32 values differ between them in the last bits, and a
value must hold within ``golden_runs.REL_TOL`` on any machine, not only on the one that wrote it. What is kept are
the values (``tests/golden.json``). A change that is meant: run ``python tests/golden_runs.py compare OLD NEW`` on
the runs of both versions to see every value that moved, say so in CHANGELOG.md, and keep the new values with
``python tests/golden_runs.py write DIR``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import golden_runs
import kernels
import pandas as pd
import pytest


@pytest.fixture(scope="module", params=list(kernels.VARIANTS))
def runs(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The golden runs made in a child Python under one variant's kernels (they are chosen when torch loads)."""
    root = tmp_path_factory.mktemp(f"golden-{request.param}")
    made = subprocess.run([sys.executable, str(Path(golden_runs.__file__)), "make", str(root)], capture_output=True,
                          text=True, env=kernels.environment(request.param), timeout=600)  # fmt: skip
    assert made.returncode == 0, made.stdout[-3000:] + made.stderr[-3000:]
    return root


def test_the_golden_runs_write_the_values_they_wrote_before(runs: Path) -> None:
    found = golden_runs.check(runs)
    assert found == [], "\n".join(["the golden runs differ (this module's docstring says what to do):", *found])


def test_a_score_moved_by_one_thousandth_is_named_with_both_values(runs: Path) -> None:
    """The tolerance lets the kernels' last bits pass, not a change: BERTScore F1 of one answer moved by 1e-3 fails
    with the file, the row, the column and both values; moved by 1e-7 relative (a kernel's size) it passes. (The
    file is changed in place and restored: the runs' own paths are part of what is compared.)"""
    path = runs / "medarabiq_qa" / "open_qa.csv"
    written = path.read_bytes()
    try:
        frame = pd.read_csv(path)
        before = float(frame.loc[0, "bertscore_f1"])
        frame.loc[0, "bertscore_f1"] = before * (1 + 1e-7)
        frame.to_csv(path, index=False)
        assert golden_runs.check(runs) == []

        frame.loc[0, "bertscore_f1"] = before + 1e-3
        frame.to_csv(path, index=False)
        found = golden_runs.check(runs)
    finally:
        path.write_bytes(written)
    assert len(found) == 1, found
    assert found[0].startswith("CHANGED medarabiq_qa/open_qa.csv row 0 (item_id ")
    assert ", column bertscore_f1: " in found[0]
    kept, now = found[0].rsplit(": ", 1)[1].split(" -> ")
    assert float(kept) == pytest.approx(before, rel=1e-5) and float(now) == pytest.approx(before + 1e-3, rel=1e-12)


def test_labels_and_counts_are_compared_exactly() -> None:
    assert not golden_runs.same(1, 2) and not golden_runs.same("yes", "no") and not golden_runs.same(True, 1)
    assert golden_runs.same(19.0282986, 19.0282971) and not golden_runs.same(19.0282986, 19.0292986)
    assert golden_runs.same("nan", "nan") and not golden_runs.same(0.0, "nan")
