"""API keys come only from the environment and are never written anywhere: a planted key is sent to the server
(proof it was used) but appears in no output file, cache, console line or error — even when a hostile server
echoes it back in its error messages."""

from __future__ import annotations

import os
import subprocess
import sys
import zlib
from pathlib import Path

from fault_server import FaultServer, Reply, error, ok

KEY = "sk-planted-7f3a9c1e5b2d4a6e8c0f"
ENV_NAME = "XLINGMED_TEST_PLANTED_KEY"


def _hostile(server: list[FaultServer]) -> object:
    def policy(prompt: str, attempt: int) -> Reply:
        auth = server[0].headers_seen[-1].get("authorization", "")
        if zlib.crc32(prompt.encode()) % 3 == 0:  # a third of the prompts: an error that quotes the request back
            return error(500, f"internal error while handling {auth!r} for you")
        if zlib.crc32(prompt.encode()) % 3 == 1:
            return error(400, f"bad request from key {auth.removeprefix('Bearer ')}")
        return ok("Yes")

    return policy


def test_a_planted_key_is_used_but_never_written(data_dir: Path, tmp_path: Path) -> None:
    ref: list[FaultServer] = []
    with FaultServer(_hostile(ref)) as server:  # type: ignore[arg-type]
        ref.append(server)
        env = {**os.environ, ENV_NAME: KEY, "COLUMNS": "200", "XLINGMED_CACHE": str(tmp_path / "cache.sqlite")}
        base = [
            sys.executable, "-m", "xlingmed.cli", "run", "--benchmark", "xlinghealth/liveqa", "--data-dir",
            str(data_dir), "--languages", "en,hi", "--limit", "2", "--tasks", "correctness,verifiability",
            "--model", "openai/m", "--base-url", server.url, "--api-key-env", ENV_NAME, "--max-retries", "1",
            "--retry-cap", "0.1", "--no-logprobs", "--temperatures", "0", "--out", str(tmp_path / "run"),
        ]  # fmt: skip
        outputs = []
        for extra in (["--dry-run"], ["--max-requests", "5"], [], ["--retry-failed"]):
            res = subprocess.run([*base, *extra], capture_output=True, text=True, env=env, timeout=600)
            outputs.append(res.stdout + res.stderr)
            assert res.returncode in (0, 3, 4), res.stderr  # 4: the hostile server failed requests
        # the key really was sent (so the test would catch a leak)
        assert any(h.get("authorization") == f"Bearer {KEY}" for h in server.headers_seen)
        # and the server's errors really quoted it back
        assert server.calls > 10

    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.name == "summary.json" for p in written) and any(p.name.startswith("cache.sqlite") for p in written)
    assert any(p.suffix == ".png" for p in written)  # the report was built too
    for path in written:
        data = path.read_bytes()
        assert KEY.encode() not in data, f"key leaked into {path}"
        assert KEY.encode("utf-16-le") not in data
    for text in outputs:
        assert KEY not in text
    samples = (tmp_path / "run" / "samples.jsonl").read_text()
    assert "***" in samples  # the echoed key was scrubbed from the recorded error texts, not just absent


def test_credentials_in_a_url_and_a_short_key_are_never_recorded(data_dir: Path, tmp_path: Path) -> None:
    """Issue 60: ``user:pass@`` in --base-url never reaches manifest.json, the report or the console; a key of
    three characters is masked in errors too; a reply that quotes the key is stored masked (so no judge is ever
    sent it)."""
    short = "k9z"

    def policy(prompt: str, attempt: int) -> Reply:
        if zlib.crc32(prompt.encode()) % 2:
            return ok(f"Yes. By the way your key is {short}.")
        return error(400, f"bad key {short}")

    outputs = []
    with FaultServer(policy) as server:
        env = {**os.environ, ENV_NAME: short, "COLUMNS": "200", "XLINGMED_CACHE": str(tmp_path / "cache.sqlite")}
        for k, url in enumerate((server.url.replace("http://", "http://alice:s3cr3t-pass@"), server.url)):
            res = subprocess.run(
                [sys.executable, "-m", "xlingmed.cli", "run", "--benchmark", "xlinghealth/liveqa", "--data-dir",
                 str(data_dir), "--languages", "en", "--limit", "3", "--tasks", "verifiability", "--model",
                 "openai/m", "--base-url", url, "--api-key-env", ENV_NAME, "--max-retries", "0", "--out",
                 str(tmp_path / f"run{k}")],
                capture_output=True, text=True, env=env, timeout=600,
            )  # fmt: skip
            assert res.returncode in (0, 4), res.stderr
            outputs.append(res.stdout + res.stderr)
        assert server.calls > 0
        assert any(h.get("authorization") == f"Bearer {short}" for h in server.headers_seen)
    manifest = (tmp_path / "run0" / "manifest.json").read_text("utf-8")
    assert "alice" not in manifest and "***@127.0.0.1" in manifest
    for path in (p for p in tmp_path.rglob("*") if p.is_file()):
        data = path.read_bytes()
        assert b"s3cr3t-pass" not in data, f"URL credentials leaked into {path}"
        assert f"key is {short}".encode() not in data and f"bad key {short}".encode() not in data, path
    assert all("s3cr3t-pass" not in out and f"key {short}" not in out for out in outputs)
