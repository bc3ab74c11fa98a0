"""``xlingmed cache info|verify|prune|export|import`` on real caches written by real runs, and runs that share one
cache file with each other and with ``prune`` and ``import`` at the same time."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from fault_server import FaultServer, Reply, ok
from run_folders import cache_rows

from xlingmed.config import make_config
from xlingmed.runner import evaluate


def _xlingmed(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "xlingmed.cli", *args], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "COLUMNS": "200"})  # fmt: skip


def _fill(data_dir: Path, url: str, cache: Path, out: Path, model: str = "openai/m", languages: str = "en",
          max_concurrency: int = 8) -> int:
    cfg = make_config(benchmark="xlinghealth/liveqa", data_dir=data_dir, languages=languages, limit=3,
                      tasks="correctness", model=model, judge="openai/judge", base_url=url, judge_base_url=url,
                      cache=cache, out=out, max_tokens=32, max_concurrency=max_concurrency)  # fmt: skip
    return evaluate(cfg).backend_calls


class Answers:
    """Each model answers in its own words, so that two models' answers get two judge calls."""

    with_payload = True

    def __call__(self, prompt: str, attempt: int, payload: dict[str, object]) -> Reply:
        return ok(f"{payload['model']} answers: {prompt[:40]}")


@pytest.fixture(scope="module")
def server() -> Iterator[FaultServer]:
    with FaultServer(Answers()) as s:
        yield s


def test_info_verify_prune(data_dir: Path, server: FaultServer, tmp_path: Path) -> None:
    cache = tmp_path / "cache.sqlite"
    _fill(data_dir, server.url, cache, tmp_path / "a", model="openai/m")
    _fill(data_dir, server.url, cache, tmp_path / "b", model="openai/other")
    res = _xlingmed("cache", "info", str(cache))
    assert res.returncode == 0, res.stderr
    assert f"{cache}: 12 completions" in res.stdout and "schema 2" in res.stdout
    lines = [line for line in res.stdout.splitlines() if "│" in line]
    cells = {tuple(c.strip() for c in line.split("│")[1:4]) for line in lines}
    assert {("openai/m", "correctness:answer", "3"), ("openai/judge", "correctness:judge", "6"),
            ("openai/other", "correctness:answer", "3")} <= cells  # fmt: skip
    # piped (not a terminal): each row whole on one line, dates included, so grep finds it; --cache FILE works too
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}  # a pipe with no width set, as in a log
    piped = subprocess.run([sys.executable, "-m", "xlingmed.cli", "cache", "info", "--cache", str(cache)],
                           capture_output=True, text=True, timeout=600, env=env)  # fmt: skip
    row = next(line for line in piped.stdout.splitlines() if "openai/other" in line)
    assert [c.strip() for c in row.split("│")[1:4]] == ["openai/other", "correctness:answer", "3"]
    assert len(row.split("│")[4].strip()) >= 19  # the oldest date and time, never cut across lines
    both = _xlingmed("cache", "info", str(cache), "--cache", str(tmp_path / "other.sqlite"))
    assert both.returncode == 2 and "two cache files named" in both.stderr

    res = _xlingmed("cache", "verify", str(cache))
    assert res.returncode == 0 and "ok (integrity check ok, 12 rows decode)" in res.stdout
    with sqlite3.connect(cache) as db:  # one row whose completion is not JSON
        db.execute("UPDATE completions SET completion = 'not json' WHERE rowid = (SELECT MIN(rowid) FROM completions)")
    res = _xlingmed("cache", "verify", str(cache))
    assert res.returncode == 5 and "1 of 12 rows do not decode" in " ".join(res.stderr.split())

    dry = _xlingmed("cache", "prune", str(cache), "--model", "openai/other", "--dry-run")
    assert dry.returncode == 0 and "would delete 3 completion(s)" in dry.stdout and cache_rows(cache) == 12
    assert "deleted 3 completion(s)" in _xlingmed("cache", "prune", str(cache), "--model", "openai/other").stdout
    assert cache_rows(cache) == 9
    assert "would delete 0" in _xlingmed("cache", "prune", str(cache), "--older-than", "1", "--dry-run").stdout
    assert "deleted 9" in _xlingmed("cache", "prune", str(cache), "--older-than", "0").stdout
    none = _xlingmed("cache", "prune", str(cache))
    assert none.returncode == 2 and "needs --model PATTERN and/or --older-than DAYS" in none.stderr


def test_export_and_import_share_completions_and_never_replace_one(
    data_dir: Path, server: FaultServer, tmp_path: Path
) -> None:
    mine, theirs = tmp_path / "mine.sqlite", tmp_path / "theirs.sqlite"
    _fill(data_dir, server.url, theirs, tmp_path / "t", languages="en,es")
    export = tmp_path / "shared.jsonl.gz"
    res = _xlingmed("cache", "export", str(export), "--cache", str(theirs))
    assert res.returncode == 0 and "wrote 12 completion(s)" in res.stdout

    _fill(data_dir, server.url, mine, tmp_path / "m")  # English only: 6 of the 12
    with sqlite3.connect(mine) as db:  # one stored answer differs from the colleague's
        row = db.execute("SELECT key, completion FROM completions LIMIT 1").fetchone()
        changed = {**json.loads(row[1]), "text": "my own answer"}
        db.execute("UPDATE completions SET completion = ? WHERE key = ?", (json.dumps(changed), row[0]))
    res = _xlingmed("cache", "import", str(export), "--cache", str(mine))
    assert res.returncode == 0, res.stderr
    assert "added 6, already held 5" in res.stdout and "1 key(s) were held with a different completion" in res.stderr
    with sqlite3.connect(mine) as db:
        kept = json.loads(db.execute("SELECT completion FROM completions WHERE key = ?", (row[0],)).fetchone()[0])
    assert kept["text"] == "my own answer" and cache_rows(mine) == 12

    # the imported completions answer a run: the Spanish half sends nothing now; the one changed answer is
    # judged anew (its judge prompt holds the answer)
    calls = server.calls
    _fill(data_dir, server.url, mine, tmp_path / "again", languages="en,es")
    assert server.calls == calls + 1
    # a cache file imports as well as an export; a damaged export names its line
    assert "added 0, already held 11" in _xlingmed("cache", "import", str(theirs), "--cache", str(mine)).stdout
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"key": "k", "model": "m"}\n', encoding="utf-8")
    res = _xlingmed("cache", "import", str(bad), "--cache", str(mine))
    assert res.returncode == 2 and f"file {bad}, row 1: not a cache export row (KeyError" in " ".join(
        res.stderr.split()
    )


def test_runs_share_a_cache_with_each_other_and_with_prune_and_import(
    data_dir: Path, server: FaultServer, tmp_path: Path
) -> None:
    cache = tmp_path / "cache.sqlite"
    donor = tmp_path / "donor.sqlite"
    _fill(data_dir, server.url, donor, tmp_path / "d", model="openai/donor", languages="en,es,zh,hi")
    export = tmp_path / "donor.jsonl"
    res = _xlingmed("cache", "export", str(export), "--cache", str(donor), "--model", "openai/donor")
    assert res.returncode == 0 and "wrote 12 completion(s)" in res.stdout  # its answers, not its judge calls

    results: dict[str, object] = {}

    def run(name: str, url: str) -> None:
        try:
            results[name] = _fill(data_dir, url, cache, tmp_path / name, languages="en,es,zh,hi", max_concurrency=2)
        except Exception as exc:  # shown by the assertion below, not lost in the thread
            results[name] = exc

    with FaultServer(Answers()) as held:
        held.hold_after(4)
        threads = [threading.Thread(target=run, args=(f"r{i}", held.url)) for i in range(2)]
        for t in threads:
            t.start()
        # 4 answers, then each run's two workers wait on the server: both runs are mid-way, their cache open, while
        # a colleague's completions come in and an old model's go out, in other processes
        held.wait_held(4)
        imported = _xlingmed("cache", "import", str(export), "--cache", str(cache))
        pruned = _xlingmed("cache", "prune", str(cache), "--model", "openai/donor")
        held.release()
        for t in threads:
            t.join()
    assert imported.returncode == 0, imported.stderr
    assert pruned.returncode == 0 and "deleted 12 completion(s)" in pruned.stdout  # the whole import, nothing else
    assert sorted(results) == ["r0", "r1"] and all(isinstance(v, int) for v in results.values()), results
    assert cache_rows(cache) == 24  # both runs' work, stored once: 12 answers and 12 judge calls
    calls = server.calls
    assert _fill(data_dir, server.url, cache, tmp_path / "third", languages="en,es,zh,hi") == 0
    assert server.calls == calls
    assert _xlingmed("cache", "verify", str(cache)).returncode == 0
