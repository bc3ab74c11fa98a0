"""SIGKILL a run at random points, resume it, again and again: the final run folder is identical to that of an
uninterrupted run, and no completion is lost or stored twice (the backend calls are counted at the server).

The points are random but never a race: the server answers a random number of requests and then holds the rest
(``FaultServer.hold_after``), so each kill lands mid-way after exactly that many new answers, on any machine."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from fault_server import FaultServer, Reply, completion_body, deterministic_answer
from run_folders import cache_rows, comparable

CONCURRENCY = 4


def _answers(prompt: str, attempt: int) -> Reply:
    return Reply(200, completion_body(deterministic_answer(prompt)))


def _cli(data_dir: Path, url: str, out: Path, cache: Path) -> list[str]:
    return [
        sys.executable, "-m", "xlingmed.cli", "run", "--benchmark", "xlinghealth/medicationqa",
        "--data-dir", str(data_dir), "--languages", "en,es,zh", "--limit", "4",
        "--tasks", "correctness,verifiability", "--model", "openai/m", "--base-url", url,
        "--max-concurrency", str(CONCURRENCY), "--no-logprobs", "--quiet", "--no-report", "--temperatures", "0",
        "--out", str(out), "--cache", str(cache),
    ]  # fmt: skip


def _wait_for_rows(cache: Path, rows: int, proc: subprocess.Popen[bytes]) -> None:
    """Until the cache holds ``rows`` completions. The run commits each answer the moment it arrives and the
    server answers no more than that, so this ends after milliseconds; the 300 s only stop a run that hung."""
    deadline = time.monotonic() + 300
    while cache_rows(cache) < rows:
        assert proc.poll() is None and time.monotonic() < deadline, f"the run stopped short of {rows} answers"
        time.sleep(0.01)
    assert cache_rows(cache) == rows


def test_repeated_sigkill_and_resume_equals_an_uninterrupted_run(data_dir: Path, tmp_path: Path) -> None:
    env = {**os.environ, "COLUMNS": "200"}
    with FaultServer(_answers) as server:
        ref = subprocess.run(
            _cli(data_dir, server.url, tmp_path / "ref", tmp_path / "ref.sqlite"),
            capture_output=True, text=True, env=env, timeout=300,
        )  # fmt: skip
        assert ref.returncode == 0, ref.stderr
        total = json.loads((tmp_path / "ref" / "summary.json").read_text())["backend_calls"]
        assert total == server.calls == len(server.seen) == cache_rows(tmp_path / "ref.sqlite")
        assert total == 4 * 3 * 2 + 4 * 3 * 5  # correctness answer + judge, 5 verifiability claims per question

        server.seen.clear()
        rng = random.Random(20261122)
        out, cache = tmp_path / "run", tmp_path / "cache.sqlite"
        kills, stored_after_kill = 0, []
        for k in range(10):
            before = cache_rows(cache)
            if before >= total - 1:
                break
            # kills 0 and 4 land in start-up or planning (nothing new is answered); the others after at most a third
            # of what is left, so several land mid-generation
            target = before if k in (0, 4) else rng.randint(before + 1, before + max(1, (total - before) // 3))
            server.hold_after(target - before)
            proc = subprocess.Popen(
                _cli(data_dir, server.url, out, cache), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
            )
            if k in (0, 4):
                # a random moment of start-up, planning or the first requests: the run cannot end before it,
                # since no answer comes, so the test's outcome does not depend on how long this sleep is
                time.sleep(rng.uniform(0.1, 1.5))
            else:
                server.wait_held(1)  # the run asks for more than the server answered: it is mid-way
                _wait_for_rows(cache, target, proc)  # and has stored every answer it got (it cannot get more)
            assert proc.poll() is None, "the run ended though the server held its requests"
            proc.kill()  # SIGKILL: no handler, no cleanup
            proc.wait()
            kills += 1
            stored_after_kill.append(cache_rows(cache))
            assert not out.exists()
        server.release()
        final = subprocess.run(_cli(data_dir, server.url, out, cache), capture_output=True, text=True, env=env)
        assert final.returncode == 0, final.stderr
        assert kills >= 5, f"only {kills} kills landed"
        assert len({n for n in stored_after_kill if 0 < n < total}) >= 2  # kills landed mid-generation

        # nothing lost or duplicated: every distinct request stored once; the server saw each at least once, and
        # resent only what was in flight when a kill landed
        # a request cut off mid-send by a kill reaches the server without a body (no prompt): not an answer
        cut_off = server.seen.pop("", 0)
        assert cache_rows(cache) == total and len(server.seen) == total
        assert total <= server.calls <= total + kills * CONCURRENCY and cut_off <= kills * CONCURRENCY
        assert comparable(out) == comparable(tmp_path / "ref")
        assert not list(tmp_path.glob(".run.*"))  # the killed runs' spools and staged folders were cleaned up
