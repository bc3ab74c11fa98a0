"""Owner-only files for everything that holds prompts and replies (``filemodes.py``): the completion cache and its
WAL/SHM files, the spools, the staged run folder; a finished run folder follows the umask unless ``--private``."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fault_server import FaultServer, Reply, ok

from xlingmed import output
from xlingmed.filemodes import describe_mode
from xlingmed.runner import evaluate
from xlingmed.store import CompletionCache, default_cache_path
from xlingmed.types import Completion, GenerateRequest, Message


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(autouse=True)
def _umask_022() -> Iterator[None]:
    old = os.umask(0o022)  # the common default: new files world-readable unless made otherwise
    yield
    os.umask(old)


@pytest.fixture(scope="module")
def server() -> Iterator[FaultServer]:
    with FaultServer(lambda prompt, attempt: Reply(200, ok("Answer: yes").body)) as s:
        yield s


def _run(data_dir: Path, url: str, out: Path, cache: Path, **extra: object) -> None:
    evaluate(benchmark="xlinghealth/liveqa", data_dir=data_dir, languages="en", limit=2, tasks="correctness",
             model="openai/m", base_url=url, cache=cache, out=out, max_tokens=16, **extra)  # fmt: skip


def test_the_cache_and_its_wal_are_owner_only_and_the_run_folder_follows_the_umask(
    data_dir: Path, server: FaultServer, tmp_path: Path
) -> None:
    cache, out = tmp_path / "cache.sqlite", tmp_path / "run"
    _run(data_dir, server.url, out, cache)
    modes = {p.name: oct(_mode(p)) for p in tmp_path.glob("cache.sqlite*")}
    print(f"cache files: {modes}; run folder {oct(_mode(out))}")
    assert modes["cache.sqlite"] == oct(0o600)
    assert all(m == oct(0o600) for m in modes.values())  # -wal and -shm, where SQLite left them
    assert _mode(out) == 0o755
    assert {oct(_mode(p)) for p in out.rglob("*") if p.is_file()} == {oct(0o644)}
    assert not list(tmp_path.glob(".run.*"))  # no spool or staged folder left behind


def test_a_private_run_folder_is_owner_only_and_stays_so(data_dir: Path, server: FaultServer, tmp_path: Path) -> None:
    out = tmp_path / "run"
    _run(data_dir, server.url, out, tmp_path / "cache.sqlite", private=True)
    assert _mode(out) == 0o700
    files = [p for p in out.rglob("*") if p.is_file()]
    assert len(files) >= 5 and {_mode(p) for p in files} == {0o600}
    assert json.loads((out / "manifest.json").read_text())["config"]["private"] is True
    output.write_atomic(out / "report" / "index.html", "<p>later</p>")  # a report written into it later
    assert _mode(out / "report") == 0o700 and _mode(out / "report" / "index.html") == 0o600
    shared = tmp_path / "shared"  # (pytest's tmp_path is owner-only itself: so is what is made in it)
    shared.mkdir(mode=0o755)
    plain = shared / "plain"
    output.write_atomic(plain / "a.txt", "x")  # elsewhere: the umask's modes
    assert _mode(plain) == 0o755 and _mode(plain / "a.txt") == 0o644


def test_a_report_and_an_export_of_a_private_run_written_elsewhere_are_owner_only(
    data_dir: Path, server: FaultServer, tmp_path: Path
) -> None:
    """Issue 49: ``report --out`` and ``export`` of a ``--private`` run leave no file another user can read."""
    from xlingmed.exporters import export
    from xlingmed.report import build_report

    run = tmp_path / "run"
    _run(data_dir, server.url, run, tmp_path / "cache.sqlite", private=True)
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    build_report([run], shared / "report", n_resamples=50)
    reported = [shared / "report", *(shared / "report").rglob("*")]
    assert len(reported) > 5 and {p.name: _mode(p) & 0o077 for p in reported} == {p.name: 0 for p in reported}
    existing = shared / "existing"  # a folder the user made readable: narrowed when a private run's report goes in
    existing.mkdir(mode=0o755)
    build_report([run], existing, n_resamples=50)
    assert _mode(existing) == 0o700 and all(_mode(p) & 0o077 == 0 for p in existing.rglob("*") if p.is_file())
    (log,) = export("inspect", run, shared / "logs")
    assert _mode(shared / "logs") == 0o700 and _mode(log) == 0o600
    plain = tmp_path / "plain_run"  # a run that is not private: its report follows the umask as before
    _run(data_dir, server.url, plain, tmp_path / "cache.sqlite")
    build_report([plain], shared / "plain_report", n_resamples=50)
    assert _mode(shared / "plain_report") == 0o755 and _mode(shared / "plain_report" / "index.html") == 0o644


def test_spools_and_the_staged_folder_are_owner_only(tmp_path: Path) -> None:
    beside = tmp_path / "run"
    jsonl, records, sqlite = output.JsonlSpool(beside), output.RecordSpool(beside), output.SqliteSpool(beside)
    try:
        jsonl.write({"prompt": "a patient's question"})
        records.extend([{"response": "a reply"}])
        store = CompletionCache(sqlite.path)
        req = GenerateRequest(messages=(Message("user", "a patient's question"),), temperature=0.0, max_tokens=4)
        store.put(req.cache_key("openai/m"), "openai/m", req, Completion("a reply", "stop", 3, 2))
        store.flush()
        spools = [jsonl.path, records.path, *Path(tmp_path).glob(f"{sqlite.path.name}*")]
        assert len(spools) >= 4  # the SQLite spool with its -wal
        assert {p.name: _mode(p) for p in spools} == {p.name: 0o600 for p in spools}
        store.close()
    finally:
        jsonl.discard(), records.discard(), sqlite.discard()
    with output.staged_dir(beside) as staging:
        output.write_atomic(staging / "samples.jsonl", "{}\n")
        assert _mode(staging) == 0o700 and _mode(staging / "samples.jsonl") == 0o600
    assert _mode(beside) == 0o755 and _mode(beside / "samples.jsonl") == 0o644


def test_the_default_cache_folder_is_owner_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XLINGMED_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    path = default_cache_path()
    assert tmp_path in path.parents
    CompletionCache(path).close()
    assert _mode(path.parent) == 0o700 and _mode(path) == 0o600


def test_cache_info_shows_who_may_read_the_file(data_dir: Path, server: FaultServer, tmp_path: Path) -> None:
    cache = tmp_path / "cache.sqlite"
    _run(data_dir, server.url, tmp_path / "run", cache)

    def info(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "xlingmed.cli", "cache", "info", *args], capture_output=True,
                              text=True, timeout=120)  # fmt: skip

    text = info("--cache", str(cache))
    assert text.returncode == 0, text.stderr
    assert "mode 0600 (owner only)" in text.stdout.splitlines()[0]
    os.chmod(cache, 0o644)  # a file made before 0.3, or by hand: shown, never changed behind the user's back
    record = json.loads(info(str(cache), "--format", "json").stdout)
    assert record["mode"] == describe_mode(cache) == "0644 (readable by others)" and record["rows"] == 4
