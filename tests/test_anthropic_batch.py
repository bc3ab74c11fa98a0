"""``litellm/anthropic/… -M batch=true``: Anthropic's Message Batches against a local server implementing its
documented endpoints (``tests/batch_server.py``): one batch per stage, the Messages API body, failed lines through
LiteLLM's single path, resumed polling, the key only ever in its header."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import litellm  # noqa: F401  (the dev extra holds it: a missing litellm fails here, never skips)
import pytest
from batch_server import BatchServer, interrupted_while_polling
from fault_server import Reply, error, ok

from xlingmed.errors import ModelError
from xlingmed.models.base import ModelOptions
from xlingmed.types import GenerateRequest, Message

KEY = "sk-ant-test-0123456789"


def policy(prompt: str, attempt: int) -> Reply:
    if prompt == "bad":
        return error(400, "prompt is too long")
    if prompt == "flaky" and attempt == 0:
        return error(500, "overloaded")
    return ok(f"answer to {prompt}")


def _model(url: str, cache: Path, name: str = "anthropic/claude-test", **args: object):  # type: ignore[no-untyped-def]
    from xlingmed.models.litellm_api import LiteLLMModel

    opts = {"batch": True, "batch_poll_s": 0.01, **args}
    options = ModelOptions(
        base_url=url, api_key_env="ANTHROPIC_API_KEY", max_retries=2, retry_cap_s=0.01, cache_path=cache,
        args=tuple(sorted(opts.items())),
    )  # fmt: skip
    return LiteLLMModel(name, options)


def _run(model, reqs):  # type: ignore[no-untyped-def]
    async def go():  # type: ignore[no-untyped-def]
        try:
            return await model.generate_batch(reqs)
        finally:
            await model.aclose()

    return asyncio.run(go())


def _req(prompt: str, **kw: object) -> GenerateRequest:
    return GenerateRequest(messages=(Message("system", "Be brief."), Message("user", prompt)), max_tokens=8, **kw)  # type: ignore[arg-type]


def test_message_batches_answer_a_stage_and_failed_lines_take_litellms_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    reqs = [_req("q1"), _req("bad"), _req("flaky", top_k=5), _req("q2", temperature=0.5)]
    with BatchServer(policy) as server:
        model = _model(server.root, tmp_path / "cache.sqlite")
        out = _run(model, reqs)
        (batch,) = server.batches.values()
        assert batch["processing_status"] == "ended" and model.batch.submitted == 1
        params = [r["params"] for r in batch["requests"]]
        assert [r["custom_id"] for r in batch["requests"]] == [r.cache_key(model.model_id) for r in reqs]
        assert params[0] == {"model": "claude-test", "max_tokens": 8, "temperature": 0.0, "system": "Be brief.",
                             "messages": [{"role": "user", "content": "q1"}]}  # fmt: skip
        assert params[2]["top_k"] == 5 and "top_p" not in params[2]
        assert server.single_requests == 1  # the overloaded line, resent through LiteLLM's Messages call
        assert set(server.keys_seen) == {KEY}  # the key travels in its header, to this server only
    q1, bad, flaky, q2 = out
    assert (q1.text, flaky.text, q2.text) == ("answer to q1", "answer to flaky", "answer to q2")
    assert q1.finish_reason == "stop" and (q1.prompt_tokens, q1.completion_tokens) == (10, 2)
    assert not bad.ok and bad.permanent and "invalid_request_error" in (bad.error or "")
    assert json.loads((tmp_path / "cache.sqlite.batches.json").read_text()) == {}


def test_an_interrupted_run_resumes_the_message_batch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    reqs = [_req("a"), _req("b")]
    with BatchServer(policy, polls=10**9) as server:
        interrupted_while_polling(_model(server.root, tmp_path / "cache.sqlite"), reqs, server)
        assert list(json.loads((tmp_path / "cache.sqlite.batches.json").read_text())) == ["msgbatch_1"]
        server.polls = 1
        again = _model(server.root, tmp_path / "cache.sqlite")
        out = _run(again, reqs)
        assert (again.batch.submitted, again.batch.resumed) == (0, 1) and len(server.batches) == 1
    assert [c.text for c in out] == ["answer to a", "answer to b"]


def test_expired_lines_are_resent_and_verbatim_prompts_fail_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    with BatchServer(policy, expire_after=1) as server:
        raw = GenerateRequest(messages=(Message("user", "### Instruction: x"),), raw_prompt=True)
        out = _run(_model(server.root, tmp_path / "cache.sqlite"), [_req("a"), raw, _req("b")])
        assert server.single_requests == 1  # "b" expired in the batch
    assert [c.text for c in out[::2]] == ["answer to a", "answer to b"]
    assert not out[1].ok and out[1].permanent and "verbatim prompt" in (out[1].error or "")


def test_batch_on_another_litellm_provider_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="takes litellm/anthropic/"):
        _model("http://127.0.0.1:9/v1", tmp_path / "c.sqlite", name="gemini/gemini-1.5-pro")
