"""Issue 60: a run folder someone else made is data. ``xlingmed export inspect`` of one whose tasks are named
"../../x" or "/tmp/x", and whose item ids hold slashes, writes only inside ``--out`` (and zip members stay plain);
malformed lines end in one error line, exit 2. A real run against the local server, then tampered with."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from fault_server import FaultServer, Reply, ok

pytest.importorskip("inspect_ai")


def _policy(prompt: str, attempt: int) -> Reply:
    return ok("Answer: B")


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("hostile_run")
    (tmp / "mine.csv").write_text("id,language,question,A,B,C,D,answer\nq1,en,Which?,w,x,y,z,B\n"
                                  "q2,en,And which?,w,x,y,z,C\n", "utf-8")  # fmt: skip
    with FaultServer(_policy) as server:
        res = _cli(tmp, "run", "--benchmark", f"mcq:{tmp / 'mine.csv'}", "--languages", "en", "--model", "openai/m",
                   "--base-url", server.url, "--out", str(tmp / "run"), "--no-report")  # fmt: skip
    assert res.returncode == 0, res.stderr
    return tmp / "run"


def _cli(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "300", "XLINGMED_CACHE": str(tmp / "cache.sqlite")}
    return subprocess.run([sys.executable, "-m", "xlingmed.cli", *args], capture_output=True, text=True, env=env,
                          timeout=300)  # fmt: skip


def _tampered(run_dir: Path, tmp: Path, edit: object) -> Path:
    copy = tmp / "theirs"
    subprocess.run(["cp", "-r", str(run_dir), str(copy)], check=True)
    lines = (copy / "samples.jsonl").read_text("utf-8").splitlines()
    (copy / "samples.jsonl").write_text("\n".join(edit(lines)) + "\n", "utf-8")  # type: ignore[operator]
    return copy


def _renamed(task: str, item: str) -> object:
    def edit(lines: list[str]) -> list[str]:
        out = []
        for line in lines:
            rec = json.loads(line)
            rec["task"], rec["item_id"] = task, item
            out.append(json.dumps(rec))
        return out

    return edit


@pytest.mark.parametrize("task", ["../../escaped", "/tmp/xlingmed-escaped-export", "a/../../b", ".."])
def test_export_of_a_hostile_run_folder_writes_only_inside_out(run_dir: Path, tmp_path: Path, task: str) -> None:
    theirs = _tampered(run_dir, tmp_path, _renamed(task, "../../../evil/item"))
    out = tmp_path / "deep" / "out"
    out.mkdir(parents=True)
    before = {p for p in tmp_path.rglob("*")}
    res = _cli(tmp_path, "export", "inspect", str(theirs), "--out", str(out))
    assert res.returncode == 0, res.stdout + res.stderr
    new = {p for p in tmp_path.rglob("*")} - before
    assert new and all(out in p.parents for p in new), new
    assert not Path("/tmp/xlingmed-escaped-export.eval").exists()
    (log,) = out.glob("*.eval")
    with zipfile.ZipFile(log) as zf:
        for member in zf.namelist():
            assert ".." not in Path(member).parts and not member.startswith("/"), member


@pytest.mark.parametrize(
    "edit",
    [
        lambda lines: [*lines, "{not json"],
        lambda lines: [*lines, "[1, 2]"],
        lambda lines: [json.dumps({**json.loads(lines[0]), "temperature": "hot"})],
        lambda lines: [json.dumps({**json.loads(lines[0]), "prompt": [1, 2]})],
        lambda lines: ["[" * 100_000 + "]" * 100_000],
    ],
)
def test_a_malformed_samples_file_is_one_error_line(run_dir: Path, tmp_path: Path, edit: object) -> None:
    theirs = _tampered(run_dir, tmp_path, edit)
    res = _cli(tmp_path, "export", "inspect", str(theirs), "--out", str(tmp_path / "out"))
    out = res.stdout + res.stderr
    assert res.returncode == 2, out
    assert "Traceback" not in out and "samples.jsonl" in out and "line" in out


def test_a_samples_file_that_is_not_utf8_is_one_error_line(run_dir: Path, tmp_path: Path) -> None:
    theirs = _tampered(run_dir, tmp_path, lambda lines: lines)
    with (theirs / "samples.jsonl").open("ab") as fh:
        fh.write(b"\xff\xfe{}\n")
    res = _cli(tmp_path, "export", "inspect", str(theirs), "--out", str(tmp_path / "out"))
    assert res.returncode == 2 and "UTF-8" in res.stdout + res.stderr


def test_a_report_that_fails_half_way_leaves_the_earlier_report_whole(
    run_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 60: the report is built beside its folder and renamed into place; a failure after some files were
    written (here: injected while the page is rendered) leaves the earlier report as it was, and nothing partial."""
    import xlingmed.report as report

    copy = tmp_path / "run"
    subprocess.run(["cp", "-r", str(run_dir), str(copy)], check=True)
    index = report.build_report([copy], n_resamples=50)
    before = {p.relative_to(index.parent): p.read_bytes() for p in index.parent.rglob("*") if p.is_file()}

    def fail(html: str) -> str:
        raise RuntimeError("injected fault while the page is rendered")

    monkeypatch.setattr(report, "with_script_hashes", fail)
    with pytest.raises(RuntimeError, match="injected"):
        report.build_report([copy], n_resamples=50)
    after = {p.relative_to(index.parent): p.read_bytes() for p in index.parent.rglob("*") if p.is_file()}
    assert after == before
    assert not [p for p in copy.iterdir() if p.name.startswith(".report.")]  # no partial folder left behind
