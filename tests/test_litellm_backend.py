"""``litellm/<provider>/<model>`` through the real LiteLLM SDK, against a local OpenAI-compatible server that
answers, throttles and fails on purpose (``tests/fault_server.py``): LiteLLM's errors land on xlingmed's
transient / permanent failures and retries."""

from __future__ import annotations

import asyncio

import litellm  # noqa: F401  (the dev extra holds it: a missing litellm fails here, never skips)
import pytest
from fault_server import FaultServer, Reply, error, ok

from xlingmed.models.base import ModelOptions
from xlingmed.types import GenerateRequest, Message


def _model(url: str):  # type: ignore[no-untyped-def]
    from xlingmed.models.litellm_api import LiteLLMModel

    return LiteLLMModel("openai/m", ModelOptions(base_url=url, max_retries=2, retry_cap_s=0.05, timeout_s=10))


def _ask(prompt: str) -> GenerateRequest:
    return GenerateRequest(messages=(Message("user", prompt),), max_tokens=8)


def test_answers_throttling_and_failures_map_onto_retries() -> None:
    def policy(prompt: str, attempt: int) -> Reply:
        if prompt == "throttled" and attempt == 0:
            return error(429, "slow down", {"retry-after": "0"})
        if prompt == "bad":
            return error(400, "prompt too long")
        if prompt == "denied":
            return error(401, "no key")
        if prompt == "down":
            return error(500, "boom")
        return ok(f"answer to {prompt}")

    prompts = ("q", "throttled", "bad", "denied", "down")

    async def ask_all(model):  # type: ignore[no-untyped-def]
        return await asyncio.gather(*(model.generate(_ask(p)) for p in prompts))

    with FaultServer(policy) as server:
        model = _model(server.url)
        out = asyncio.run(ask_all(model))
        seen = dict(server.seen)
    q, throttled, bad, denied, down = out
    assert q.ok and q.text == "answer to q" and q.prompt_tokens == 10 and q.completion_tokens == 2
    assert throttled.ok and throttled.text == "answer to throttled"  # resent after the 429
    assert not bad.ok and bad.permanent and "400" in (bad.error or "")  # cached: the same prompt fails again
    assert not denied.ok and not denied.permanent and "401" in (denied.error or "")
    assert not down.ok and not down.permanent and "after 3 attempts" in (down.error or "")
    assert model.attempts == 1 + 2 + 1 + 1 + 3
    assert seen == {"q": 1, "throttled": 2, "bad": 1, "denied": 1, "down": 3}  # the server saw exactly these


def test_model_id_and_registry() -> None:
    from xlingmed.models.base import backends

    spec = backends()["litellm"]
    assert not spec.in_process and not spec.free and spec.open_weights is None
    assert _model("http://127.0.0.1:9/v1").model_id == "litellm/openai/m"


@pytest.mark.slow
def test_a_run_through_litellm_against_the_real_llama_cpp_server(data_dir, tmp_path, llama_server) -> None:  # type: ignore[no-untyped-def]
    """End to end through LiteLLM's OpenAI-compatible route: verifiability and correctness on a real server,
    chat and verbatim (``raw_prompt``, LiteLLM's text completion) prompts; then the cached re-run."""
    import json

    from xlingmed import evaluate, make_config

    cfg = make_config(
        benchmark="xlinghealth/medicationqa", data_dir=data_dir, languages="en,es", limit=1,
        model="litellm/openai/smollm2", base_url=llama_server, temperatures="0", max_tokens=12,
        task_args={"verify_max_tokens": 4, "judge_max_tokens": 12, "verify_negatives": 1}, max_concurrency=2,
        cache=tmp_path / "cache.sqlite", out=tmp_path / "run",
    )  # fmt: skip
    first = evaluate(cfg)
    assert first.failed_requests == 0 and first.backend_calls == 2 + 2 + 4  # answers, judgements, claims
    ver = first.summary["tasks"]["verifiability"]["languages"]
    assert ver["en"]["temperatures"]["0"]["n_claims"] == 2 and ver["es"]["temperatures"]["0"]["n_claims"] == 2
    rows = [json.loads(x) for x in (tmp_path / "run" / "samples.jsonl").read_text().splitlines()]
    assert {r["model"] for r in rows} == {"litellm/openai/smollm2"} and sum(1 for r in rows if r["response"]) >= 6
    assert not any(r["raw_prompt"] for r in rows)
    again = evaluate(cfg.model_copy(update={"out": tmp_path / "again"}))
    assert again.backend_calls == 0 and again.cache_hits == 8
    # MedAlpaca's verbatim prompts through LiteLLM's text completion
    alpaca = evaluate(
        cfg.model_copy(update={"tasks": ("verifiability",), "preset": "medalpaca", "out": tmp_path / "alpaca",
                               "task_args": {**cfg.task_args, "prompt_style": "medalpaca"}})
    )  # fmt: skip
    assert alpaca.failed_requests == 0 and alpaca.backend_calls == 4
    rows = [json.loads(x) for x in (tmp_path / "alpaca" / "samples.jsonl").read_text().splitlines()]
    assert all(r["raw_prompt"] for r in rows) and sum(1 for r in rows if r["response"]) >= 3


def test_max_cost_prices_a_model_from_litellms_cost_map(data_dir, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``--max-cost`` without ``--price``: gpt-4o-mini is priced from the map LiteLLM ships (0.15 and 0.60 USD
    per 1M tokens); a model the map does not know still needs ``--price``; a user's price wins."""
    from xlingmed import evaluate, make_config
    from xlingmed.errors import ConfigError

    def cfg(model: str, **kw):  # type: ignore[no-untyped-def]
        return make_config(
            benchmark="xlinghealth/medicationqa", data_dir=data_dir, languages="en", limit=2, tasks="verifiability",
            temperatures="0", model=model, base_url=server.url, max_retries=0, max_cost=1.0,
            cache=tmp_path / f"{model.replace('/', '_')}.sqlite", out=tmp_path / model.replace("/", "_"), **kw,
        )  # fmt: skip

    with FaultServer(lambda p, a: ok("Yes")) as server:
        with pytest.raises(ConfigError, match="--max-cost needs a price for litellm/openai/not-a-mapped-model"):
            evaluate(cfg("litellm/openai/not-a-mapped-model"))
        assert server.calls == 0
        run = evaluate(cfg("litellm/openai/gpt-4o-mini"))
        assert run.backend_calls == 10 and server.calls == 10
        # the fault server reports 10 prompt and 2 completion tokens a request
        assert run.summary["cost_usd"] == pytest.approx(10 * (10 * 0.15 + 2 * 0.60) / 1e6)
        price = run.summary["prices"]["litellm/openai/gpt-4o-mini"]
        assert price == {"usd_per_1m_prompt": pytest.approx(0.15), "usd_per_1m_completion": pytest.approx(0.60),
                         "source": "LiteLLM cost map"}  # fmt: skip
        mine = evaluate(cfg("litellm/openai/gpt-4o-mini", prices=["litellm/openai/gpt-4o-mini=1000,1000"],
                            retry_failed=True).model_copy(update={"out": tmp_path / "mine"}))  # fmt: skip
        assert mine.summary["prices"]["litellm/openai/gpt-4o-mini"]["source"] == "--price"
