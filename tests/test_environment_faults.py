"""Every environment fault in one line, with the real fault: a garbage cache file, a cache from a newer xlingmed,
a full disk (``RLIMIT_FSIZE``: the kernel refuses to grow any file past the limit, as a full disk does) while the
cache or the run folder is written, folders that cannot be created. Each asserts the message, the exit status (5),
that nothing was half-written, and that the same command after the fault is removed gives the results of a run
that never met it."""

from __future__ import annotations

import os
import resource
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fault_server import FaultServer, ok
from run_events import exits_after
from run_folders import cache_rows, comparable

LONG = "Yes. " + "The claim agrees with what is known about this condition. " * 12


@pytest.fixture(scope="module")
def server() -> Iterator[FaultServer]:
    with FaultServer(lambda prompt, attempt: ok(LONG)) as s:
        yield s


def _run(data_dir: Path, url: str, cache: Path, out: Path, limit_bytes: int | None = None) -> tuple[int, str]:
    """``xlingmed run`` in a subprocess (under a file size limit when given); (exit status, stderr in one line)."""

    def limited() -> None:
        if limit_bytes is not None:  # past the limit a write fails with EFBIG instead of killing the process
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))

    args = ["run", "--benchmark", "xlinghealth/liveqa", "--data-dir", str(data_dir), "--languages", "en,es",
            "--limit", "4", "--tasks", "verifiability", "--temperatures", "0", "--model", "openai/m", "--base-url",
            url, "--no-logprobs", "--quiet", "--no-report", "--cache", str(cache), "--out", str(out)]  # fmt: skip
    res = subprocess.run([sys.executable, "-m", "xlingmed.cli", *args], capture_output=True, text=True, timeout=600,
                         preexec_fn=limited, env={**os.environ, "COLUMNS": "300"})  # fmt: skip
    return res.returncode, " ".join(res.stderr.split())


def _leftovers(folder: Path) -> list[str]:
    """Spools and staged folders a failed run must not leave behind."""
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


@pytest.fixture(scope="module")
def clean(data_dir: Path, server: FaultServer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The run folder of a run that met no fault (its own cache)."""
    root = tmp_path_factory.mktemp("clean")
    code, err = _run(data_dir, server.url, root / "cache.sqlite", root / "run")
    assert code == 0, err
    return root / "run"


def test_disk_full_while_the_cache_is_written(data_dir: Path, server: FaultServer, clean: Path, tmp_path: Path) -> None:
    cache, out = tmp_path / "cache.sqlite", tmp_path / "run"
    code, err = _run(data_dir, server.url, cache, out, limit_bytes=100_000)
    assert code == 5, err
    assert f"error: no space left while writing the completion cache {cache}" in err
    assert "every completion committed before it is kept in the cache" in err and "resumes from the cache" in err
    assert "Traceback" not in err and "Unclosed client session" not in err
    kept = cache_rows(cache)
    assert 0 < kept < 40 and not out.exists() and _leftovers(tmp_path) == []
    # the fault removed, the same command resumes: only the rest is sent, and the results are a clean run's
    calls = server.calls
    code, err = _run(data_dir, server.url, cache, out)
    assert code == 0, err
    assert server.calls - calls == 40 - kept
    assert comparable(out) == comparable(clean)


def test_disk_full_while_the_run_folder_is_written(
    data_dir: Path, server: FaultServer, clean: Path, tmp_path: Path
) -> None:
    cache, out = tmp_path / "cache.sqlite", tmp_path / "run"
    assert _run(data_dir, server.url, cache, tmp_path / "first")[0] == 0  # every answer is in the cache now
    before = cache.read_bytes()
    code, err = _run(data_dir, server.url, cache, out, limit_bytes=40_000)  # samples.jsonl is ~80 KB
    assert code == 5, err
    assert f"error: no space left while writing the run folder {out}" in err
    assert f"nothing was sent (every answer came from the cache {cache}, which is unchanged)" in err
    assert "no run folder was written" in err and "Traceback" not in err
    assert not out.exists() and _leftovers(tmp_path) == [] and cache.read_bytes() == before
    code, err = _run(data_dir, server.url, cache, out)
    assert code == 0, err
    assert comparable(out) == comparable(clean)


def test_a_damaged_cache_is_named_and_left_alone(data_dir: Path, server: FaultServer, tmp_path: Path) -> None:
    cache = tmp_path / "cache.sqlite"
    cache.write_bytes(b"this is not a database " * 100)
    calls = server.calls
    code, err = _run(data_dir, server.url, cache, tmp_path / "run")
    assert code == 5, err
    assert f"error: the completion cache {cache} is damaged (file is not a database)" in err
    assert "Move it aside, or use another cache" in err and "Traceback" not in err
    assert cache.read_bytes() == b"this is not a database " * 100 and server.calls == calls
    assert not (tmp_path / "run").exists()


def test_a_cache_from_a_newer_xlingmed_is_refused(data_dir: Path, server: FaultServer, tmp_path: Path) -> None:
    cache = tmp_path / "cache.sqlite"
    with sqlite3.connect(cache) as db:
        db.execute("CREATE TABLE completions (key TEXT PRIMARY KEY, model TEXT, request TEXT, completion TEXT, "
                   "created REAL)")  # fmt: skip
        db.execute("PRAGMA user_version = 9")
    code, err = _run(data_dir, server.url, cache, tmp_path / "run")
    assert code == 5, err
    assert "was written by a newer xlingmed (schema 9; this one reads up to 2)" in err


def test_an_unversioned_cache_is_migrated_and_answers(data_dir: Path, server: FaultServer, tmp_path: Path) -> None:
    first = tmp_path / "first.sqlite"
    assert _run(data_dir, server.url, first, tmp_path / "first")[0] == 0
    cache = tmp_path / "cache.sqlite"
    with sqlite3.connect(cache) as db:  # the file of xlingmed 0.1: this table, no index, no version
        db.execute("CREATE TABLE completions (key TEXT PRIMARY KEY, model TEXT NOT NULL, request TEXT NOT NULL, "
                   "completion TEXT NOT NULL, created REAL NOT NULL)")  # fmt: skip
        db.execute("ATTACH DATABASE ? AS old", (str(first),))
        db.execute("INSERT INTO completions SELECT key, model, request, completion, created FROM old.completions")
    calls = server.calls
    code, err = _run(data_dir, server.url, cache, tmp_path / "again")
    assert code == 0, err
    assert server.calls == calls  # every answer still found
    with sqlite3.connect(cache) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 2
        assert "task" in {row[1] for row in db.execute("PRAGMA table_info(completions)")}
        assert db.execute("SELECT COUNT(*) FROM completions WHERE task IS NULL").fetchone()[0] == 40


def test_folders_that_cannot_be_created(data_dir: Path, server: FaultServer, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    code, err = _run(data_dir, server.url, tmp_path / "cache.sqlite", blocker / "run")
    assert code == 5, err
    assert f"error: cannot create the run folder {blocker / 'run'}" in err and "Choose another --out" in err
    assert "nothing was sent" in err and "Traceback" not in err
    code, err = _run(data_dir, server.url, blocker / "cache.sqlite", tmp_path / "run")
    assert code == 5, err
    assert f"error: cannot open or create the completion cache {blocker / 'cache.sqlite'}" in err
    assert "nothing was sent" in err


# The command line, run as a shell runs it: SIGINT at Python's default handler and unblocked in the child.
AS_FROM_A_TERMINAL = (
    "import runpy, signal, sys; signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT}); "
    "signal.signal(signal.SIGINT, signal.default_int_handler); sys.argv[0] = 'xlingmed'; "
    "runpy.run_module('xlingmed.cli', run_name='__main__')"
)


def _signal_state(pid: int) -> str:
    """The blocked, ignored and caught signal masks of process ``pid`` (Linux ``/proc``), for a failure message."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        return f"unreadable ({exc})"
    return ", ".join(line.replace("\t", " ") for line in lines if line.startswith(("SigBlk", "SigIgn", "SigCgt")))


def test_ctrl_c_says_what_was_kept_and_the_same_command_resumes(data_dir: Path, clean: Path, tmp_path: Path) -> None:
    cache, out = tmp_path / "cache.sqlite", tmp_path / "run"
    with FaultServer(lambda prompt, attempt: ok(LONG)) as server:
        server.hold_after(4)  # 4 answers, then every request waits: the run is mid-way when Ctrl-C comes
        args = ["run", "--benchmark", "xlinghealth/liveqa", "--data-dir", str(data_dir), "--languages", "en,es",
                "--limit", "4", "--tasks", "verifiability", "--temperatures", "0", "--model", "openai/m",
                "--base-url", server.url, "--no-logprobs", "--quiet", "--no-report", "--max-concurrency", "2",
                "--cache", str(cache), "--out", str(out)]  # fmt: skip
        # Ctrl-C as a terminal delivers it: the child starts with SIGINT at its default and unblocked, whatever the
        # test worker's own state (a signal a library ignored or blocked in this process would be inherited
        # through fork and exec, and the child would never see the interrupt)
        proc = subprocess.Popen([sys.executable, "-c", AS_FROM_A_TERMINAL, *args], stderr=subprocess.PIPE, text=True,
                                env={**os.environ, "COLUMNS": "300", "PYTHONFAULTHANDLER": "1"})  # fmt: skip
        # both workers wait on the server: each stored its last answer before it sent the request held now, so
        # the cache holds exactly the 4 answers
        server.wait_held(2)
        signals = _signal_state(proc.pid)
        proc.send_signal(signal.SIGINT)
        try:
            stderr = exits_after(proc)
        except AssertionError as exc:  # say how the child held SIGINT when it was sent (/proc/PID/status)
            raise AssertionError(f"{exc}\nthe child's signals when SIGINT was sent: {signals}; this worker's: "
                                 f"{_signal_state(os.getpid())}") from None
    said = " ".join(stderr.split())
    assert proc.returncode == 130, said
    assert f"interrupted: every completion received so far is kept in {cache}; no run folder was written" in said
    assert "Traceback" not in said and not out.exists() and _leftovers(tmp_path) == []
    assert cache_rows(cache) == 4
    with FaultServer(lambda prompt, attempt: ok(LONG)) as fast:
        code, err = _run(data_dir, fast.url, cache, out)
    assert code == 0, err
    assert fast.calls == 40 - 4  # only what the interrupted run never stored
    assert comparable(out) == comparable(clean)


def test_a_folder_the_user_may_not_write(data_dir: Path, server: FaultServer, tmp_path: Path) -> None:
    # the immutable attribute refuses every write in the folder, even root's (EPERM): tests run as root here
    locked = tmp_path / "locked"
    locked.mkdir()
    if subprocess.run(["chattr", "+i", str(locked)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not available on this file system")
    try:
        code, err = _run(data_dir, server.url, tmp_path / "cache.sqlite", locked / "run")
        assert code == 5, err
        assert f"error: cannot write the run folder {locked / 'run'}: Operation not permitted" in err
        assert "Choose a folder you can write (--out DIR) or fix its permissions" in err and "Traceback" not in err
        code, err = _run(data_dir, server.url, locked / "cache.sqlite", tmp_path / "run")
        assert code == 5, err
        assert f"error: cannot open or create the completion cache {locked / 'cache.sqlite'}" in err
    finally:
        subprocess.run(["chattr", "-i", str(locked)], check=True)
    assert not (tmp_path / "run").exists()
