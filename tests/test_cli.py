"""The ``xlingmed`` command: exit codes and clear errors without partial output (resume after SIGKILL:
test_interruption.py, against a local server)."""

from __future__ import annotations

import os
import subprocess
import sys
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


def test_an_error_is_one_line_at_any_terminal_width(tmp_path: Path) -> None:
    # a path in an error is never folded at the terminal's width: it stays one piece to copy
    missing = tmp_path / ("a-long-folder-name-" * 4) / "run.yaml"
    res = _xlingmed("run", "--config", str(missing), env={"COLUMNS": "40"})
    assert res.returncode == 2
    (line,) = res.stderr.strip().splitlines()
    assert line.startswith("error: config file ") and str(missing) in line


def test_tables_piped_into_grep_keep_whole_rows() -> None:
    """Off a terminal (a pipe, a log) with no width set, a table prints each row whole on one line."""
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    listed = subprocess.run(f"{sys.executable} -m xlingmed.cli list benchmarks | grep global-mmlu/medical", shell=True,
                            capture_output=True, text=True, timeout=120, env=env)  # fmt: skip
    row, record = listed.stdout.splitlines()  # its row of the table, and of the table of real files under it
    cells = [c.strip() for c in row.split("│")[1:-1]]
    assert cells[0] == "global-mmlu/medical" and cells[2] == "yes (sample_id)" and "Apache-2.0" in cells
    assert cells[-2:] == ["all,lite,sensitive,agnostic", "unverified"]  # the last columns too: nothing cut or folded
    assert "unverified: layout from the dataset card" in record
