"""Issue 60: SQLite files from others are data. A view over an endless recursive query in a table's place, a
trigger, a symbolic link, or rows whose key is not their request's: the real CLI and stores answer with one line
(exit 2) within seconds, write nothing elsewhere, and import no poisoned row. The caches are real, filled by a real
run against the local server."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fault_server import FaultServer, Reply, ok

from xlingmed.annotate.answers import AnswerStore
from xlingmed.config import make_config
from xlingmed.errors import DataError
from xlingmed.runner import evaluate

ENDLESS = ("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
           "SELECT 'k' || i, 'm', '{}', '{}', 0.0, NULL FROM n")  # fmt: skip


def _xlingmed(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "xlingmed.cli", *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "COLUMNS": "300"})  # fmt: skip


@pytest.fixture(scope="module")
def real_cache(tmp_path_factory: pytest.TempPathFactory, data_dir: Path) -> Path:
    tmp = tmp_path_factory.mktemp("real_cache")

    def policy(prompt: str, attempt: int) -> Reply:
        return ok("Yes")

    with FaultServer(policy) as server:
        cfg = make_config(benchmark="xlinghealth/liveqa", data_dir=data_dir, languages="en", limit=3,
                          tasks="verifiability", model="openai/m", base_url=server.url, cache=tmp / "theirs.sqlite",
                          out=tmp / "run", max_tokens=8)  # fmt: skip
        evaluate(cfg)
    return tmp / "theirs.sqlite"


def _hostile_cache(path: Path, body: str) -> Path:
    with sqlite3.connect(path) as db:
        db.executescript(body)
    return path


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (f"CREATE VIEW completions(key, model, request, completion, created, task) AS {ENDLESS};", "is a view"),
        ("CREATE TABLE completions(key, model, request, completion, created, task);"
         "CREATE TABLE t(x); CREATE TRIGGER tr AFTER INSERT ON t BEGIN DELETE FROM completions; END;", "triggers"),
        ("CREATE TABLE completions(key, model);", "lacks column(s)"),
    ],
)
def test_a_hostile_cache_file_is_refused_in_one_line(tmp_path: Path, body: str, said: str) -> None:
    theirs = _hostile_cache(tmp_path / "theirs.sqlite", body)
    start = time.monotonic()
    res = _xlingmed("cache", "import", str(theirs), "--cache", str(tmp_path / "mine.sqlite"))
    out = res.stdout + res.stderr
    assert res.returncode == 2, out
    assert said in out and "Traceback" not in out and time.monotonic() - start < 30


def test_rows_whose_key_is_not_their_request_are_not_imported(real_cache: Path, tmp_path: Path) -> None:
    poisoned = tmp_path / "poisoned.sqlite"
    poisoned.write_bytes(real_cache.read_bytes())
    with sqlite3.connect(poisoned) as db:
        key, request, completion = db.execute("SELECT key, request, completion FROM completions LIMIT 1").fetchone()
        chosen = json.dumps({**json.loads(completion), "text": "No"})  # a chosen answer under another request's key
        other = db.execute("SELECT key FROM completions WHERE key != ? LIMIT 1", (key,)).fetchone()[0]
        db.execute("UPDATE completions SET completion = ? WHERE key = ?", (chosen, other))
        db.execute("UPDATE completions SET key = ? WHERE key = ?", ("f" * 64, key))  # a key made up
        total = db.execute("SELECT COUNT(*) FROM completions").fetchone()[0]
    res = _xlingmed("cache", "import", str(poisoned), "--cache", str(tmp_path / "mine.sqlite"))
    assert res.returncode == 0, res.stderr
    assert f"added {total - 1}" in res.stdout and "1 row(s) not imported" in res.stderr
    with sqlite3.connect(tmp_path / "mine.sqlite") as db:
        assert db.execute("SELECT COUNT(*) FROM completions WHERE key = ?", ("f" * 64,)).fetchone()[0] == 0
    # the same check on an export (JSON Lines)
    export = tmp_path / "export.jsonl"
    row = {"key": "0" * 64, "model": "openai/m", "request": json.loads(request), "completion": json.loads(chosen),
           "created": 0.0}  # fmt: skip
    export.write_text(json.dumps(row) + "\n", "utf-8")
    res = _xlingmed("cache", "import", str(export), "--cache", str(tmp_path / "mine2.sqlite"))
    assert res.returncode == 0 and "added 0" in res.stdout and "1 row(s) not imported" in res.stderr


def test_an_annotation_set_whose_answers_is_an_endless_view_is_refused_fast(tmp_path: Path) -> None:
    path = tmp_path / "answers.sqlite"
    endless = ENDLESS.replace("'k' || i, 'm', '{}', '{}', 0.0, NULL", "'a', 'i' || i, 'agree', 'x', ''")
    _hostile_cache(path, f"CREATE VIEW answers(annotator, item, verdict, label, reason) AS {endless};")
    start = time.monotonic()
    with pytest.raises(DataError, match="must be a table; it is a view"):
        AnswerStore.read_all(path)
    with pytest.raises(DataError, match="must be a table; it is a view"):
        AnswerStore(path)  # the server's own store refuses it too, before any query
    assert time.monotonic() - start < 30


def test_a_linked_answers_file_is_never_followed(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    dangling = tmp_path / "set1" / "answers.sqlite"
    dangling.parent.mkdir()
    dangling.symlink_to(elsewhere / "created.sqlite")
    other = elsewhere / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE mine(x)")
    linked = tmp_path / "set2" / "answers.sqlite"
    linked.parent.mkdir()
    linked.symlink_to(other)
    for path in (dangling, linked):
        with pytest.raises(DataError, match="symbolic link"):
            AnswerStore(path)
        with pytest.raises(DataError, match="symbolic link"):
            AnswerStore.read_all(path)
    assert not (elsewhere / "created.sqlite").exists()
    with sqlite3.connect(other) as db:
        assert [r[0] for r in db.execute("SELECT name FROM sqlite_master")] == ["mine"]  # no table added


def test_a_query_past_its_deadline_is_stopped(tmp_path: Path) -> None:
    """The last line of defence, for a statement no check foresaw: SQLite's progress handler interrupts it."""
    from xlingmed.sqlite_guard import guard, interrupted

    db = sqlite3.connect(":memory:")
    guard(db, seconds=0.5)
    start = time.monotonic()
    with pytest.raises(sqlite3.OperationalError) as caught:
        db.execute(f"SELECT COUNT(*) FROM ({ENDLESS})").fetchone()
    assert time.monotonic() - start < 5
    assert isinstance(interrupted(caught.value, tmp_path, "x"), DataError)
