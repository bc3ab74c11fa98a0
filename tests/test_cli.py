"""The ``xlingmed`` command: exit codes, clear errors without partial output, and resume after SIGKILL."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest


def _xlingmed(*args: str, env: dict[str, str] | None = None, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "xlingmed.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )


def test_describe_prints_table_a1(data_dir: Path) -> None:
    res = _xlingmed("describe", "xlinghealth/liveqa", "--data-dir", str(data_dir), env={"COLUMNS": "200"})
    assert res.returncode == 0, res.stderr
    assert "41.76 ± 37.39" in res.stdout and "115.25 ± 112.75" in res.stdout


TR = ["--translator", "llamacpp/smollm2"]  # paper-mode consistency needs a named translator (or a judge)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--languages", "en,xx"], "unknown language code 'xx'"),
        (["--model", "nope/model"], "unknown model provider 'nope'"),
        (["--model", "llamacpp/missing.gguf"], "file not found"),
        (["--tasks", "speed"], "unknown task"),
        (["--benchmark", "xlinghealth/unknown"], "unknown benchmark"),
        (["--tasks", "consistency", "--consistency-mode", "mixed"], "consistency_mode: Value error, must be"),
        (["--tasks", "consistency", "--samples", "1"], "samples: Input should be greater than or equal to 2"),
        (["--tasks", "consistency", "--lda-topics", "20,x"], "topic counts must be integers"),
        (
            ["--tasks", "consistency", *TR, "--bertscore-model", "no/such-model-here"],
            "pass its layer (--bertscore-layers)",
        ),
        (
            ["--tasks", "consistency", *TR, "--bertscore-model", "./no-such-dir", "--bertscore-layers", "6"],
            "no such folder",
        ),
        (
            ["--tasks", "consistency", *TR, "--consistency-metrics", "sim_sent", "--embedding-model", "/no/such/dir"],
            "sentence-embedding model '/no/such/dir': no such folder",
        ),
        (["--tasks", "consistency"], "pass --translator provider/model, or use --consistency-mode native"),
        (["--preset", "medalpca"], "unknown preset 'medalpca'; known: medalpaca"),
        (["-T", "prompt_style=alpaca"], "prompt_style: Value error"),
        (["--top-k", "0"], "top_k: Input should be greater than or equal to 1"),
    ],
)
def test_bad_input_exits_nonzero_without_output(data_dir: Path, tmp_path: Path, extra: list[str], message: str) -> None:
    out = tmp_path / "run"
    args = [
        "run",
        "--benchmark",
        "xlinghealth/liveqa",
        "--data-dir",
        str(data_dir),
        "--limit",
        "1",
        "--out",
        str(out),
        "--quiet",
        *extra,
    ]
    res = _xlingmed(*args, env={"COLUMNS": "300"})
    assert res.returncode == 2
    assert message in res.stderr and "Traceback" not in res.stderr
    assert not out.exists()


def test_malformed_xlsx_exits_nonzero_without_output(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    pd.DataFrame({"id": [0], "label": [1], "question_English": ["q"]}).to_excel(
        data / "LiveQA.xlsx", sheet_name="Sheet1", index=False
    )
    out = tmp_path / "run"
    res = _xlingmed(
        "run",
        "--benchmark",
        "xlinghealth/liveqa",
        "--data-dir",
        str(data),
        "--languages",
        "en",
        "--out",
        str(out),
        "--quiet",
        env={"COLUMNS": "300"},
    )
    assert res.returncode == 2
    assert "LiveQA.xlsx" in res.stderr and "answer_English" in res.stderr
    assert not out.exists()


def _cached_rows(path: Path) -> int:
    if not path.exists():
        return 0
    with sqlite3.connect(path) as db:
        try:
            return int(db.execute("SELECT COUNT(*) FROM completions").fetchone()[0])
        except sqlite3.OperationalError:
            return 0


@pytest.mark.slow
def test_sigkill_then_resume_makes_exactly_the_missing_calls(data_dir: Path, tmp_path: Path) -> None:
    common = [
        "run",
        "--benchmark",
        "xlinghealth/medicationqa",  # short texts: the two runs take half LiveQA's time
        "--data-dir",
        str(data_dir),
        "--languages",
        "en,es",
        "--limit",
        "1",
        "--max-tokens",
        "16",
        "--judge-max-tokens",
        "16",
        "--verify-max-tokens",
        "4",
        "--verify-negatives",
        "1",
        "--n-ctx",
        "4096",
        "--temperatures",
        "0",
        "--quiet",
    ]
    # the uninterrupted reference run, with its own cache
    ref_cache = tmp_path / "ref.sqlite"
    ref = _xlingmed(*common, "--out", str(tmp_path / "ref"), "--cache", str(ref_cache))
    assert ref.returncode == 0, ref.stderr
    total = json.loads((tmp_path / "ref" / "summary.json").read_text())["backend_calls"]
    assert total == _cached_rows(ref_cache)

    cache = tmp_path / "cache.sqlite"
    out = tmp_path / "run"
    proc = subprocess.Popen(
        [sys.executable, "-m", "xlingmed.cli", *common, "--out", str(out), "--cache", str(cache)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 300
    while _cached_rows(cache) < total // 2 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    stored = _cached_rows(cache)
    assert 0 < stored < total
    assert not (out / "summary.json").exists()  # nothing half-written

    resumed = _xlingmed(*common, "--out", str(out), "--cache", str(cache))
    assert resumed.returncode == 0, resumed.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["cache_hits"] == stored
    assert summary["backend_calls"] == total - stored
    assert _cached_rows(cache) == total  # nothing lost, nothing duplicated
    reference = json.loads((tmp_path / "ref" / "summary.json").read_text())
    assert summary["tasks"] == reference["tasks"]


def test_an_error_is_one_line_at_any_terminal_width(tmp_path: Path) -> None:
    # a path in an error is never folded at the terminal's width: it stays one piece to copy
    missing = tmp_path / ("a-long-folder-name-" * 4) / "run.yaml"
    res = _xlingmed("run", "--config", str(missing), env={"COLUMNS": "40"})
    assert res.returncode == 2
    (line,) = res.stderr.strip().splitlines()
    assert line.startswith("error: config file ") and str(missing) in line
