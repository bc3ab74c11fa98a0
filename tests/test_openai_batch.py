"""``openai/… -M batch=true``: OpenAI's Batch API against a local server implementing its documented endpoints
(``tests/batch_server.py``; offline there is no other way): one batch per stage, per-line failures through the
usual retry path, an interrupted run resumes polling the batch it submitted instead of paying for it twice."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from batch_server import BatchServer, interrupted_while_polling
from fault_server import Reply, error, ok

from xlingmed.models.base import ModelOptions
from xlingmed.models.openai_api import OpenAIModel
from xlingmed.types import GenerateRequest, Message


def policy(prompt: str, attempt: int) -> Reply:
    if prompt == "bad":
        return error(400, "prompt too long")
    if prompt == "flaky" and attempt == 0:
        return error(500, "boom")
    return ok(f"answer to {prompt}")


def _model(url: str, cache: Path, **args: object) -> OpenAIModel:
    opts = {"batch": True, "batch_poll_s": 0.01, **args}
    return OpenAIModel(
        "m",
        ModelOptions(base_url=url, max_retries=2, retry_cap_s=0.01, cache_path=cache, args=tuple(sorted(opts.items()))),
    )


def _reqs(*prompts: str) -> list[GenerateRequest]:
    return [GenerateRequest(messages=(Message("user", p),), max_tokens=8) for p in prompts]


def _run(model: OpenAIModel, reqs: list[GenerateRequest]):  # type: ignore[no-untyped-def]
    async def go():  # type: ignore[no-untyped-def]
        try:
            return await model.generate_batch(reqs)  # type: ignore[attr-defined]
        finally:
            await model.aclose()

    return asyncio.run(go())


def test_one_batch_answers_a_stage_and_failed_lines_take_the_usual_path(tmp_path: Path) -> None:
    cache = tmp_path / "cache.sqlite"
    with BatchServer(policy) as server:
        model = _model(server.url, cache)
        reqs = _reqs("q1", "q2", "bad", "flaky", "q3")
        reqs[1] = GenerateRequest(messages=reqs[1].messages, max_tokens=8, top_k=5)
        out = _run(model, reqs)
        assert len(server.batches) == 1 and model.batch is not None and model.batch.submitted == 1
        batch = next(iter(server.batches.values()))
        assert batch["endpoint"] == "/v1/chat/completions" and batch["status"] == "completed"
        lines = server.files[batch["input_file_id"]].decode().splitlines()
        assert len(lines) == 5 and json.loads(lines[0])["body"]["messages"][0]["content"] == "q1"
        assert json.loads(lines[1])["body"]["top_k"] == 5 and "extra_body" not in lines[1]  # the body as sent
        assert server.single_requests == 1  # only the 500 line was resent on its own
    q1, q2, bad, flaky, q3 = out
    assert (q1.text, q2.text, q3.text, flaky.text) == (
        "answer to q1",
        "answer to q2",
        "answer to q3",
        "answer to flaky",
    )
    assert q1.prompt_tokens == 10 and q1.completion_tokens == 2 and q1.finish_reason == "stop"
    assert not bad.ok and bad.permanent and "400" in (bad.error or "") and "prompt too long" in (bad.error or "")
    assert json.loads((tmp_path / "cache.sqlite.batches.json").read_text()) == {}  # nothing left to resume


def test_an_interrupted_run_resumes_polling_instead_of_resubmitting(tmp_path: Path) -> None:
    cache = tmp_path / "cache.sqlite"
    reqs = _reqs("a", "b", "c")
    with BatchServer(policy, polls=10**9) as server:  # the batch never finishes while the first run waits
        interrupted_while_polling(_model(server.url, cache), reqs, server)
        ledger = json.loads((tmp_path / "cache.sqlite.batches.json").read_text())
        assert list(ledger) == ["batch_2"] and len(ledger["batch_2"]["keys"]) == 3  # kept before any wait
        server.polls = 1  # the provider finishes it while we were away
        again = _model(server.url, cache)
        out = _run(again, reqs)
        assert again.batch is not None and (again.batch.submitted, again.batch.resumed) == (0, 1)
        assert len(server.batches) == 1 and server.single_requests == 0  # never submitted or answered twice
    assert [c.text for c in out] == ["answer to a", "answer to b", "answer to c"]
    assert json.loads((tmp_path / "cache.sqlite.batches.json").read_text()) == {}


def test_an_expired_batch_sends_the_rest_one_by_one_and_caps_split_batches(tmp_path: Path) -> None:
    with BatchServer(policy, expire_after=1) as server:
        model = _model(server.url, tmp_path / "cache.sqlite", batch_max_requests=2)
        out = _run(model, _reqs("a", "b", "c", "d"))
        assert len(server.batches) == 2  # 4 requests, at most 2 a batch
        assert server.single_requests == 2  # each expired batch answered 1 line of 2
    assert [c.text for c in out] == ["answer to a", "answer to b", "answer to c", "answer to d"]


def test_a_run_with_batch_true_and_its_cached_rerun(data_dir: Path, tmp_path: Path) -> None:
    from xlingmed import evaluate, make_config

    with BatchServer(lambda p, a: ok("Yes")) as server:
        cfg = make_config(
            benchmark="xlinghealth/medicationqa", data_dir=data_dir, languages="en,es", limit=1,
            tasks="verifiability", temperatures="0", model="openai/m", base_url=server.url,
            model_args={"batch": True, "batch_poll_s": 0.01}, cache=tmp_path / "cache.sqlite", out=tmp_path / "run",
        )  # fmt: skip
        first = evaluate(cfg)
        assert first.backend_calls == 10 and first.failed_requests == 0
        assert len(server.batches) == 1 and server.single_requests == 0  # the whole stage in one batch
        again = evaluate(cfg.model_copy(update={"out": tmp_path / "again"}))
        assert again.backend_calls == 0 and again.cache_hits == 10 and len(server.batches) == 1
    ver = first.summary["tasks"]["verifiability"]["languages"]["en"]["temperatures"]["0"]
    assert ver["n_claims"] == 5 and ver["n_unparsed"] == 0
