"""An exit status a pipeline can trust: failed requests exit 4 after the run folder is written (``--fail-on-error``
sets the share tolerated), failure reasons say what happened, and a language that lost more items is marked."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

from fault_server import FaultServer, Reply, error, ok

from xlingmed.config import make_config
from xlingmed.engine.run import failure_kind
from xlingmed.runner import evaluate


def _xlingmed(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "xlingmed.cli", *args], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "COLUMNS": "200"})  # fmt: skip


def _closed_port() -> int:
    """A local port nobody listens on: a connection to it is refused at once."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run_args(data_dir: Path, tmp_path: Path, url: str, *extra: str) -> list[str]:
    return ["run", "--benchmark", "xlinghealth/liveqa", "--data-dir", str(data_dir), "--languages", "en,es",
            "--limit", "2", "--tasks", "verifiability", "--temperatures", "0", "--model", "openai/m", "--base-url",
            url, "--max-retries", "0", "--no-logprobs", "--quiet", "--no-report", "--cache",
            str(tmp_path / "cache.sqlite"), "--out", str(tmp_path / "run"), *extra]  # fmt: skip


def test_a_refused_connection_exits_4_with_the_reason_and_the_folder_written(data_dir: Path, tmp_path: Path) -> None:
    res = _xlingmed(*_run_args(data_dir, tmp_path, f"http://127.0.0.1:{_closed_port()}/v1"))
    assert res.returncode == 4, res.stderr
    assert "failed: 20 of 20 requests failed (100.0%; every request failed): connect 20" in " ".join(res.stderr.split())
    summary = json.loads((tmp_path / "run" / "summary.json").read_text(encoding="utf-8"))
    assert summary["failures"] == {"en": {"connect": 10}, "es": {"connect": 10}}  # a refusal is not a timeout
    # --fail-on-error none still fails a run that produced nothing
    again = _xlingmed(
        *_run_args(data_dir, tmp_path, f"http://127.0.0.1:{_closed_port()}/v1", "--fail-on-error", "none")
    )
    assert again.returncode == 4


def test_fail_on_error_tolerates_the_share_it_is_given(data_dir: Path, tmp_path: Path) -> None:
    # every Spanish request fails with a 500; English is answered: 10 of 20 requests failed
    def policy(prompt: str, attempt: int) -> Reply:
        return error(500, "boom") if "Spanish" in prompt or "¿" in prompt or "Responde" in prompt else ok("Yes.")

    with FaultServer(policy) as server:
        strict = _xlingmed(*_run_args(data_dir, tmp_path, server.url))
        lenient = _xlingmed(*_run_args(data_dir, tmp_path, server.url, "--fail-on-error", "0.6"))
        tight = _xlingmed(*_run_args(data_dir, tmp_path, server.url, "--fail-on-error", "0.05"))
        never = _xlingmed(*_run_args(data_dir, tmp_path, server.url, "--fail-on-error", "none"))
    summary = json.loads((tmp_path / "run" / "summary.json").read_text(encoding="utf-8"))
    failed = summary["failed_requests"]
    assert 0 < failed < 20 and summary["failures"] == {"es": {"server_error": failed}}
    assert (strict.returncode, lenient.returncode, tight.returncode, never.returncode) == (4, 0, 4, 0), strict.stderr
    assert "--fail-on-error tolerates 5%" in " ".join(tight.stderr.split())
    # Spanish lost its items: the summary and the command line mark it
    fewer = summary["uneven_losses"]["verifiability"]["fewer"]
    assert list(fewer) == ["es"] and fewer["es"] < 2
    assert f"fewer scored items in es {fewer['es']} than the 2 of the other languages" in " ".join(never.stderr.split())


def test_failure_reasons_name_what_happened() -> None:
    assert failure_kind("connection error: Cannot connect to host 127.0.0.1:9 [Connect call failed]") == "connect"
    assert failure_kind("timeout: no answer within 30 s after 4 attempts") == "timeout"
    assert failure_kind("RateLimitError (429): slow down after 4 attempts") == "rate_limit"
    assert failure_kind("AuthenticationError (401): invalid api key") == "auth"
    assert failure_kind("BadRequestError (400): maximum context length exceeded") == "bad_request"
    assert failure_kind("InternalServerError (503): overloaded after 4 attempts") == "server_error"
    assert failure_kind("malformed response: choices: field required") == "malformed"
    assert failure_kind("RuntimeError: llama_decode returned -1") == "engine"


def test_the_python_api_says_why_a_run_failed(data_dir: Path, tmp_path: Path) -> None:
    cfg = make_config(benchmark="xlinghealth/liveqa", data_dir=data_dir, languages="en", limit=1,
                      tasks="verifiability", temperatures="0", model="openai/m", max_retries=0, logprobs=False,
                      base_url=f"http://127.0.0.1:{_closed_port()}/v1", out=tmp_path / "run")  # fmt: skip
    result = evaluate(cfg)
    assert result.failure(0.0) is not None and result.failure(None) is not None  # nothing was produced
    assert (tmp_path / "run" / "summary.json").is_file()
