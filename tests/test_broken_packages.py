"""A package the run needs that does not import stops the run before its first request (``engine/preflight.py``):
exit 5, one line naming the package, why and the fix, nothing sent and nothing written. The faults are real
imports failing as they fail in a broken environment: a shadowing package on ``PYTHONPATH`` that raises what
pyarrow 26 raises beside numpy 1.26 (seen with ``[comet]`` installed) and what a missing package raises."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fault_server import FaultServer, ok

BROKEN = {
    "pyarrow": 'raise ImportError("pyarrow requires NumPy 2.0 or newer, found 1.26.4")',
    "bert_score": "raise ModuleNotFoundError(\"No module named 'bert_score'\", name='bert_score')",
}


@pytest.fixture(scope="module")
def server() -> Iterator[FaultServer]:
    with FaultServer(lambda prompt, attempt: ok("Yes.")) as s:
        yield s


def _run(data_dir: Path, url: str, tmp: Path, broken: str, tasks: str) -> subprocess.CompletedProcess[str]:
    shadow = tmp / "shadow" / broken
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text(BROKEN[broken] + "\n")
    env = {**os.environ, "PYTHONPATH": str(tmp / "shadow"), "OPENAI_API_KEY": "x", "COLUMNS": "300"}
    cmd = [sys.executable, "-m", "xlingmed.cli", "run", "--benchmark", "xlinghealth/liveqa", "--data-dir",
           str(data_dir), "--languages", "en", "--limit", "1", "--tasks", tasks, "--temperatures", "0", "--model",
           "openai/m", "--base-url", url, "--cache", str(tmp / "c.sqlite"), "--out", str(tmp / "run"), "--quiet",
           "--no-report"]  # fmt: skip
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)


@pytest.mark.parametrize(
    ("broken", "tasks", "says"),
    [
        ("pyarrow", "verifiability", ['pyarrow does not work in this environment (needed for scores.parquet)',
                                      "pyarrow requires NumPy 2.0 or newer", 'Fix: pip install "pyarrow<26"']),
        ("bert_score", "open_qa", ["bert_score does not work in this environment (needed for the open_qa task",
                                   "No module named 'bert_score'", 'Fix: pip install "bert-score"']),
    ],
)  # fmt: skip
def test_a_broken_package_stops_the_run_before_its_first_request(
    data_dir: Path, server: FaultServer, tmp_path: Path, broken: str, tasks: str, says: list[str]
) -> None:
    before = server.calls
    res = _run(data_dir, server.url, tmp_path, broken, tasks)
    print(res.stderr.strip())
    assert res.returncode == 5, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in res.stderr
    assert all(s in lines[0] for s in says) and lines[0].endswith("Nothing was sent.")
    assert server.calls == before  # nothing sent
    assert not (tmp_path / "run").exists() and not (tmp_path / "c.sqlite").exists()  # nothing written
