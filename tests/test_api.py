"""The README's Python API example, run as written (in a scratch folder with ../shared beside it)."""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.slow  # runs a model in process
def test_readme_api_example_runs_as_written(data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    code = re.search(r"<!-- api-example -->\n```python\n(.*?)\n```", readme, flags=re.S)
    assert code is not None
    work = tmp_path / "work"
    work.mkdir()
    (tmp_path / "shared").symlink_to(REPO.parent / "shared")
    monkeypatch.chdir(work)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code.group(1), "README.md", "exec"), {})  # the documented example itself
    lines = out.getvalue().splitlines()
    assert lines[0] == "5"  # 1 question × 5 claims in Hindi
    assert lines[-1] == "hi True"
    assert (work / "runs" / "api" / "report" / "index.html").is_file()
    assert (work / "runs" / "api" / "scores.parquet").is_file()


def test_import_loads_no_engine() -> None:
    heavy = "('torch', 'llama_cpp', 'matplotlib', 'xlingmed.engine', 'xlingmed.report', 'scipy', 'sklearn', 'pandas')"
    code = f"import sys, xlingmed; print(sorted(m for m in {heavy} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=os.environ, check=True)
    assert out.stdout.strip() == "[]"
    # the engine loads on first use, through the same names
    code = "import sys, xlingmed; f = xlingmed.evaluate; print(f.__module__, 'xlingmed.engine' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=os.environ, check=True)
    assert out.stdout.split() == ["xlingmed.engine.run", "True"]
