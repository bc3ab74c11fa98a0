"""SIGKILL a run at random points, resume it, again and again: the final run folder is identical to that of an
uninterrupted run, and no completion is lost or stored twice (the backend calls are counted at the server)."""

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


def _slow_answers(prompt: str, attempt: int) -> Reply:
    # 100 ms per answer stretches the run over a few seconds, so kills land in every phase
    return Reply(200, completion_body(deterministic_answer(prompt)), delay_s=0.1)


def _cli(data_dir: Path, url: str, out: Path, cache: Path) -> list[str]:
    return [
        sys.executable, "-m", "xlingmed.cli", "run", "--benchmark", "xlinghealth/medicationqa",
        "--data-dir", str(data_dir), "--languages", "en,es,zh", "--limit", "4",
        "--tasks", "correctness,verifiability", "--model", "openai/m", "--base-url", url,
        "--max-concurrency", str(CONCURRENCY), "--no-logprobs", "--quiet", "--no-report", "--temperatures", "0",
        "--out", str(out), "--cache", str(cache),
    ]  # fmt: skip


def test_repeated_sigkill_and_resume_equals_an_uninterrupted_run(data_dir: Path, tmp_path: Path) -> None:
    env = {**os.environ, "COLUMNS": "200"}
    with FaultServer(_slow_answers) as server:
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
            proc = subprocess.Popen(
                _cli(data_dir, server.url, out, cache), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
            )
            # some kills at a random moment of start-up and planning, most when a random number of new answers
            # has been stored (mid-generation, between and during stages)
            if k in (0, 4):
                deadline, target = time.monotonic() + rng.uniform(0.1, 1.5), total + 1
            else:
                # at most a third of what is left: several kills still land on a slow, loaded machine
                target = rng.randint(before + 1, before + max(1, (total - before) // 3))
                deadline = time.monotonic() + 120
            while proc.poll() is None and time.monotonic() < deadline and cache_rows(cache) < target:
                time.sleep(0.005)
            if proc.poll() is not None:
                assert proc.returncode == 0
                break
            proc.kill()  # SIGKILL: no handler, no cleanup
            proc.wait()
            kills += 1
            stored_after_kill.append(cache_rows(cache))
            if out.exists():  # killed after its folder was renamed into place: then the folder is whole
                assert cache_rows(cache) == total
                assert {p.name for p in out.iterdir()} == {p.name for p in (tmp_path / "ref").iterdir()}
                json.loads((out / "summary.json").read_text())
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
