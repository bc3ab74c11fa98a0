"""``openai/...`` against a real llama.cpp server, and against a local server that injects faults."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import threading
from collections.abc import Iterator
from dataclasses import replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
from fault_server import completion_body

from xlingmed import RunConfig, evaluate, make_config
from xlingmed.errors import ModelError
from xlingmed.models import ModelOptions, get_model
from xlingmed.types import GenerateRequest, Message

LANGS = ("en", "zh")  # the server path, not the languages: the in-process run (full_run) has three


@pytest.mark.slow
def test_run_through_real_llama_cpp_server(data_dir: Path, tmp_path: Path, llama_server: str) -> None:
    cfg = make_config(
        benchmark="xlinghealth/medicationqa",  # its short texts keep the prompts (and the test) small
        data_dir=data_dir,
        languages=",".join(LANGS),
        limit=1,  # the server keeps every position's logits (logits_all): one item per language is enough
        model="openai/smollm2",
        base_url=llama_server,
        temperatures="0",
        max_tokens=24,
        judge_max_tokens=24,
        verify_max_tokens=4,
        verify_negatives=1,  # the answer and one negative per item: the server is slow with logits_all
        max_concurrency=4,
        out=tmp_path / "run",
    )
    first = evaluate(cfg)
    assert first.failed_requests == 0
    ver = first.summary["tasks"]["verifiability"]["languages"]
    for lang in LANGS:
        assert ver[lang]["temperatures"]["0"]["n_claims"] == 2
    assert first.summary["tasks"]["correctness"]["languages"]["zh"]["n_items"] == 1
    lines = [json.loads(x) for x in (tmp_path / "run" / "samples.jsonl").read_text().splitlines()]
    assert all(x["model"] == "openai/smollm2" for x in lines if x["stage"] != "judge")
    assert sum(1 for x in lines if x["stage"] == "verify") == 4
    # the server returned top logprobs, so P(yes) exists for the verifiability claims
    rows = (tmp_path / "run" / "verifiability.csv").read_text().splitlines()
    assert len(rows) == 5
    p_yes = [r["p_yes"] for r in csv.DictReader(io.StringIO("\n".join(rows)))]
    assert sum(1 for p in p_yes if p) >= 2 and all(0.0 <= float(p) <= 1.0 for p in p_yes if p)
    second = evaluate(cfg)
    assert second.backend_calls == 0 and second.cache_hits == first.backend_calls


class _FaultHandler(BaseHTTPRequestHandler):
    """Answers /v1/chat/completions by a script: each entry is (status, body, headers)."""

    script: ClassVar[list[tuple[int, str, dict[str, str]]]] = []
    calls = 0

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", 0))
        self.rfile.read(length)
        cls = type(self)
        status, body, headers = cls.script[min(cls.calls, len(cls.script) - 1)]
        cls.calls += 1
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        for k, v in headers.items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body.encode())

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def fault_server() -> Iterator[tuple[str, type[_FaultHandler]]]:
    handler = type("Handler", (_FaultHandler,), {"script": [], "calls": 0})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", handler
    finally:
        server.shutdown()


def _generate(base_url: str, retries: int) -> tuple[str, str | None]:
    model = get_model("openai/m", ModelOptions(base_url=base_url, max_retries=retries, timeout_s=5))

    async def go() -> tuple[str, str | None]:
        comp = await model.generate(GenerateRequest(messages=(Message("user", "q"),)))
        await model.aclose()
        return comp.text, comp.error

    return asyncio.run(go())


def test_429_then_success_is_retried(fault_server: tuple[str, type[_FaultHandler]]) -> None:
    url, handler = fault_server
    handler.script = [
        (429, '{"error": {"message": "slow down"}}', {"Retry-After": "0"}),
        (500, '{"error": {"message": "boom"}}', {}),
        (200, completion_body("Yes"), {}),
    ]
    assert _generate(url, retries=3) == ("Yes", None)
    assert handler.calls == 3


def test_persistent_500_is_recorded_not_raised_and_retries_are_capped(
    fault_server: tuple[str, type[_FaultHandler]],
) -> None:
    url, handler = fault_server
    handler.script = [(500, '{"error": {"message": "boom"}}', {"Retry-After": "0"})]
    text, error = _generate(url, retries=2)
    assert text == "" and error is not None and "500" in error
    assert handler.calls == 3  # 1 try + 2 retries, then it stops


def test_garbage_body_is_an_error(fault_server: tuple[str, type[_FaultHandler]]) -> None:
    url, handler = fault_server
    handler.script = [(200, '{"choices": []}', {})]
    _, error = _generate(url, retries=0)
    assert error == "server returned no choices"


def _verify_config(data_dir: Path, tmp_path: Path, url: str, languages: str, retries: int) -> RunConfig:
    """Verifiability on the first LiveQA question (5 claims per language) against the fault server."""
    return make_config(
        benchmark="xlinghealth/liveqa",
        data_dir=data_dir,
        languages=languages,
        limit=1,
        tasks="verifiability",
        model="openai/m",
        base_url=url,
        temperatures="0",
        max_retries=retries,
        out=tmp_path / "r",
    )


def test_failed_requests_do_not_stop_the_run_and_are_not_cached(
    data_dir: Path,
    tmp_path: Path,
    fault_server: tuple[str, type[_FaultHandler]],
) -> None:
    url, handler = fault_server
    handler.script = [(503, '{"error": {"message": "overloaded"}}', {"Retry-After": "0"})]
    cfg = _verify_config(data_dir, tmp_path, url, "en,hi", retries=1)
    res = evaluate(cfg)
    assert res.failed_requests == res.backend_calls == 10
    v = res.summary["tasks"]["verifiability"]["languages"]["hi"]["temperatures"]["0"]
    assert (v["n_errors"], v["n_scored"], v["macro_f1"]) == (5, 0, None)
    handler.script = [(200, completion_body("Yes"), {})]
    again = evaluate(cfg)  # failures were not cached: all 10 are asked again and now succeed
    assert (again.backend_calls, again.cache_hits, again.failed_requests) == (10, 0, 0)
    v = again.summary["tasks"]["verifiability"]["languages"]["hi"]["temperatures"]["0"]
    assert (v["n_scored"], v["predicted_yes"], v["accuracy"]) == (5, 5, 0.2)


def test_missing_api_key_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MY_KEY", raising=False)
    with pytest.raises(ModelError, match="set MY_KEY"):
        get_model("openai/gpt-4o", ModelOptions(api_key_env="MY_KEY"))


def test_permanent_400_is_cached_and_not_resent(
    data_dir: Path, tmp_path: Path, fault_server: tuple[str, type[_FaultHandler]]
) -> None:
    url, handler = fault_server
    handler.script = [(400, '{"error": {"message": "maximum context length exceeded"}}', {})]
    cfg = _verify_config(data_dir, tmp_path, url, "en", retries=3)
    res = evaluate(cfg)
    assert (res.backend_calls, res.failed_requests, handler.calls) == (5, 5, 5)  # 400 is not retried
    again = evaluate(cfg)
    assert (again.backend_calls, again.cache_hits, handler.calls) == (0, 5, 5)
    v = again.summary["tasks"]["verifiability"]["languages"]["en"]["temperatures"]["0"]
    assert v["n_errors"] == 5


@pytest.mark.slow
def test_raw_prompt_and_top_k_through_the_completions_endpoint(llama_server: str) -> None:
    """A ``raw_prompt`` request (MedAlpaca's Alpaca prompts) goes to ``/v1/completions`` verbatim; its logprobs
    come back in that endpoint's shape; ``top_k`` reaches the server's sampler (k = 1 at τ 1.5 is greedy)."""
    from xlingmed.prompts import medalpaca

    text = medalpaca.alpaca("Primer.", "Answer me 'Yes' or 'No'.", "Question: Is water wet?\nResponse: Yes", "")

    def ask(requests: list[GenerateRequest]) -> list[Any]:
        async def go() -> list[Any]:
            model = get_model("openai/smollm2", ModelOptions(base_url=llama_server, max_retries=0))
            try:
                return list(await asyncio.gather(*(model.generate(r) for r in requests)))
            finally:
                await model.aclose()

        return asyncio.run(go())

    base = GenerateRequest(messages=(Message("user", text),), max_tokens=6, raw_prompt=True)
    raw = ask(
        [replace(base, logprobs=True, top_logprobs=3)]
        + [replace(base, temperature=1.5, seed=s, top_k=1) for s in (1, 2)]
    )
    assert all(c.ok and c.text for c in raw), raw
    assert raw[1].text == raw[2].text == raw[0].text  # top-k 1 samples the greedy token at every step
    first = raw[0].logprobs[0] if raw[0].logprobs else None
    assert first is not None and first.logprob <= 0 and len(first.top) >= 1 and first.token in first.top
    # the same text as a chat message is wrapped in SmolLM2's template, so it is another, longer prompt
    chat = ask([replace(base, raw_prompt=False)])[0]
    assert chat.ok and chat.prompt_tokens > raw[0].prompt_tokens
