"""Issue 60: a shared config file cannot send your secrets anywhere. Its server, key variable and code-running
options are taken only with ``--trust-config`` (and said first) or when the command line gives the same; a file may
name only a provider's own key variable. Through the real CLI against a local server that records every request."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from fault_server import FaultServer, Reply, ok

SECRET = "aws-planted-4b1d9e7c2a"


def _policy(prompt: str, attempt: int) -> Reply:
    return ok("Yes")


def _run(tmp: Path, yaml_text: str, *flags: str) -> subprocess.CompletedProcess[str]:
    (tmp / "items.csv").write_text("id,question,answer\nq1,Is water wet?,Yes\n", encoding="utf-8")
    (tmp / "run.yaml").write_text(yaml_text, encoding="utf-8")
    env = {**os.environ, "AWS_SECRET_ACCESS_KEY": SECRET, "OPENAI_API_KEY": SECRET + "-openai", "COLUMNS": "300",
           "XLINGMED_CACHE": str(tmp / "cache.sqlite")}  # fmt: skip
    args = [sys.executable, "-m", "xlingmed.cli", "run", "--config", str(tmp / "run.yaml"), "--benchmark",
            f"qa:{tmp / 'items.csv'}", "--languages", "en", "--tasks", "verifiability", "--model", "openai/m",
            "--max-retries", "0", "--out", str(tmp / "run"), "--no-report", *flags]  # fmt: skip
    return subprocess.run(args, capture_output=True, text=True, env=env, timeout=300)


@pytest.mark.parametrize("trust", [False, True])
def test_a_config_naming_another_host_and_a_foreign_secret_sends_nothing(tmp_path: Path, trust: bool) -> None:
    with FaultServer(_policy) as server:
        res = _run(tmp_path, f"base_url: {server.url}\napi_key_env: AWS_SECRET_ACCESS_KEY\n",
                   *(["--trust-config"] if trust else []))  # fmt: skip
        assert server.calls == 0 and not server.headers_seen
    out = res.stdout + res.stderr
    assert res.returncode == 2, out
    host = server.url.split("//")[1].split("/")[0]
    assert "AWS_SECRET_ACCESS_KEY" in out and host in out  # the console names the variable and the host
    assert SECRET not in out and not (tmp_path / "run").exists()


def test_a_config_server_needs_trust_and_is_said_before_the_first_request(tmp_path: Path) -> None:
    yaml_text = "api_key_env: OPENAI_API_KEY\nbase_url: {url}\n"
    with FaultServer(_policy) as server:
        refused = _run(tmp_path, yaml_text.format(url=server.url))
        assert refused.returncode == 2 and server.calls == 0, refused.stderr
        assert "--trust-config" in refused.stdout + refused.stderr
        trusted = _run(tmp_path, yaml_text.format(url=server.url), "--trust-config")
        assert trusted.returncode == 0, trusted.stderr
        assert server.calls > 0
        assert server.headers_seen[0]["authorization"] == f"Bearer {SECRET}-openai"  # the trusted file's choice
    out = trusted.stdout + trusted.stderr
    host = server.url.split("//")[1].split("/")[0]
    note = out.index(f"base_url → host {host}")
    assert "$OPENAI_API_KEY" in out[note:] and note < out.index("wrote ")


def test_the_same_server_on_the_command_line_needs_no_trust(tmp_path: Path) -> None:
    with FaultServer(_policy) as server:
        res = _run(tmp_path, f"base_url: {server.url}\n", "--base-url", server.url)
        assert res.returncode == 0, res.stderr
        assert server.calls > 0


def test_a_config_asking_for_remote_code_needs_trust(tmp_path: Path) -> None:
    res = _run(tmp_path, "model_args:\n  trust_remote_code: true\n")
    assert res.returncode == 2
    assert "trust_remote_code" in res.stdout + res.stderr


def test_a_billion_laughs_config_is_refused_by_its_cap(tmp_path: Path) -> None:
    lol = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for k in range(1, 9):
        prev, cur = chr(ord("a") + k - 1), chr(ord("a") + k)
        lol.append(f"{cur}: &{cur} [{', '.join(['*' + prev] * 9)}]")
    res = _run(tmp_path, "prices:\n  " + "\n  ".join(lol) + "\n")
    out = res.stdout + res.stderr
    assert res.returncode == 2, out
    assert "YAML nodes" in out and "Traceback" not in out
