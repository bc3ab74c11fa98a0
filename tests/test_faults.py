"""A misbehaving OpenAI-compatible server (tests/fault_server.py) against the runner: every request ends
completed or recorded as failed with its reason, retries are capped, overload slows the backend down and
Retry-After is honoured, rate and budget limits hold, and a later run completes what failed."""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
import time
import zlib
from pathlib import Path

import pytest
from fault_server import FaultServer, Reply, completion_body, deterministic_answer, error, ok

from xlingmed.config import make_config
from xlingmed.errors import BudgetExhausted, ConfigError
from xlingmed.models.base import ModelOptions
from xlingmed.models.openai_api import OpenAIModel, _retry_after
from xlingmed.models.pacing import AdaptiveConcurrency, RetryPolicy
from xlingmed.runner import Counters, dry_run, evaluate, generate_all
from xlingmed.types import Completion, GenerateRequest, Message


class _Quiet:
    def start(self, description: str, total: int) -> None:
        pass

    def advance(self, n: int = 1) -> None:
        pass


def _requests(n: int, max_tokens: int = 8) -> list[GenerateRequest]:
    return [GenerateRequest(messages=(Message("user", f"question {i}"),), max_tokens=max_tokens) for i in range(n)]


def _generate(url: str, requests: list[GenerateRequest], **options: object) -> tuple[OpenAIModel, list[Completion]]:
    model = OpenAIModel("m", ModelOptions(base_url=url, **options))  # type: ignore[arg-type]

    async def go() -> list[tuple[Completion, bool]]:
        try:
            return await generate_all(model, requests, None, Counters(), _Quiet())
        finally:
            await model.aclose()

    return model, [c for c, _ in asyncio.run(go())]


# -- one run through every fault ------------------------------------------------------------------------------

MODES = ("ok", "429_retry_after", "429_bare", "500_twice", "503", "timeout", "truncated", "empty", "refusal", "dead")


def _mode(prompt: str) -> str:
    return MODES[zlib.crc32(prompt.encode()) % len(MODES)]


class MixedFaults:
    """Each prompt gets one fault by the hash of its text; ``healthy`` turns every fault off."""

    def __init__(self) -> None:
        self.healthy = False

    def __call__(self, prompt: str, attempt: int) -> Reply:
        mode = "ok" if self.healthy else _mode(prompt)
        answer = ok(deterministic_answer(prompt))
        if mode == "429_retry_after":
            return error(429, "rate limited", {"Retry-After": "1"}) if attempt == 0 else answer
        if mode == "429_bare":
            return error(429, "rate limited") if attempt == 0 else answer
        if mode == "500_twice":
            return error(500, "boom") if attempt < 2 else answer
        if mode == "503":
            return error(503, "overloaded", {"Retry-After": "0"}) if attempt == 0 else answer
        if mode == "timeout":  # never answered: the client's timeout (0.5 s) ends the attempt, whatever the load
            return Reply(hold=True) if attempt == 0 else answer
        if mode == "truncated":
            return Reply(200, completion_body("cut")[:37]) if attempt == 0 else answer
        if mode == "empty":
            empty = json.dumps({"id": "x", "object": "chat.completion", "choices": []})
            return Reply(200, empty) if attempt == 0 else answer
        if mode == "refusal":
            return Reply(200, completion_body(None, refusal="I can't help with that."))
        if mode == "dead":
            return error(500, "this prompt always fails")
        return answer


def test_every_fault_ends_completed_or_failed_and_a_later_retry_completes_them(data_dir: Path, tmp_path: Path) -> None:
    policy = MixedFaults()
    with FaultServer(policy) as server:
        cfg = make_config(
            benchmark="xlinghealth/liveqa",
            data_dir=data_dir,
            languages="en,es,zh,hi",
            limit=2,
            tasks="verifiability",
            model="openai/m",
            base_url=server.url,
            temperatures="0",
            max_retries=3,
            retry_cap_s=2,
            timeout_s=0.5,
            max_concurrency=4,
            logprobs=False,
            out=tmp_path / "run",
        )
        res = evaluate(cfg)
        prompts = list(server.seen)
        modes = {p: _mode(p) for p in prompts}
        dead = [p for p in prompts if modes[p] == "dead"]
        assert len(prompts) == 40 and set(modes.values()) == set(MODES)  # every fault happened
        # each prompt was tried exactly as often as its fault needs; the dead ones 1 + max_retries, then given up
        expected_tries = {"ok": 1, "refusal": 1, "500_twice": 3, "dead": 4}
        for p in prompts:
            assert server.seen[p] == expected_tries.get(modes[p], 2), (modes[p], server.seen[p])
        assert (res.backend_calls, res.failed_requests) == (40, len(dead))
        # failures reported per language, with their reason; the rest of the run is intact
        samples = [json.loads(line) for line in (tmp_path / "run" / "samples.jsonl").read_text().splitlines()]
        assert len(samples) == 40
        per_lang: dict[str, int] = {}
        for s in samples:
            prompt = s["prompt"][-1]["content"]
            if modes[prompt] == "dead":
                assert s["error"].startswith("InternalServerError (500)") and s["error"].endswith("after 4 attempts")
                per_lang[s["lang"]] = per_lang.get(s["lang"], 0) + 1
            elif modes[prompt] == "refusal":
                assert (s["error"], s["refusal"], s["response"]) == (None, "I can't help with that.", "")
            else:
                assert s["error"] is None and s["response"] == deterministic_answer(prompt)
        assert res.summary["failures"] == {lang: {"server_error": n} for lang, n in per_lang.items()}
        verif = res.summary["tasks"]["verifiability"]["languages"]
        for lang in ("en", "es", "zh", "hi"):
            assert verif[lang]["temperatures"]["0"]["n_errors"] == per_lang.get(lang, 0)

        # the server heals; a later run sends exactly the failed requests (transient failures are not cached)
        policy.healthy = True
        calls_before = server.calls
        again = evaluate(cfg.model_copy(update={"retry_failed": True}))
        assert (again.backend_calls, again.cache_hits, again.failed_requests) == (len(dead), 40 - len(dead), 0)
        assert server.calls - calls_before == len(dead)
        assert again.summary["failures"] == {}


def test_cached_permanent_failures_are_resent_only_with_retry_failed(data_dir: Path, tmp_path: Path) -> None:
    state = {"too_long": True}

    def policy(prompt: str, attempt: int) -> Reply:
        return error(400, "maximum context length exceeded") if state["too_long"] else ok("Yes")

    with FaultServer(policy) as server:
        cfg = make_config(
            benchmark="xlinghealth/liveqa", data_dir=data_dir, languages="en", limit=1, tasks="verifiability",
            model="openai/m", base_url=server.url, logprobs=False, temperatures="0", out=tmp_path / "run",
        )  # fmt: skip
        first = evaluate(cfg)
        assert (first.backend_calls, first.failed_requests, server.calls) == (5, 5, 5)  # 400 is never resent
        state["too_long"] = False  # e.g. the server now has a larger context window
        plain = evaluate(cfg)
        assert (plain.backend_calls, plain.cache_hits, plain.failed_requests) == (0, 5, 5)
        assert plain.summary["failures"] == {"en": {"bad_request": 5}}
        retried = evaluate(cfg.model_copy(update={"retry_failed": True}))
        assert (retried.backend_calls, retried.failed_requests, server.calls) == (5, 0, 10)


# -- pacing ---------------------------------------------------------------------------------------------------


def test_overload_halves_the_concurrency_and_health_grows_it_back() -> None:
    """The server holds the client's first requests until 8 are in flight (the client starts at its ceiling of 8,
    so they always meet) and turns them all away with 429: one burst. Then it answers everything."""
    burst = threading.Barrier(8)
    lock = threading.Lock()
    seen = {"arrivals": 0, "successes": 0}
    in_flight_before_4_successes: list[int] = []
    server_ref: list[FaultServer] = []

    def policy(prompt: str, attempt: int) -> Reply:
        with lock:
            seen["arrivals"] += 1
            first = seen["arrivals"] <= 8
            if not first and seen["successes"] < 4:
                in_flight_before_4_successes.append(server_ref[0].in_flight)
        if first:
            burst.wait(timeout=300)  # 300 s only stop a client that never sends 8 at once (a failure)
            return error(429, "too many requests in flight")
        with lock:
            seen["successes"] += 1
        return ok("ok")

    with FaultServer(policy) as server:
        server_ref.append(server)
        model, out = _generate(server.url, _requests(60), max_concurrency=8, max_retries=20, retry_cap_s=0.2)
        assert all(c.ok for c in out)
        assert model.limiter.decreases == 1  # eight 429s of one burst halve the limit once
        # halved: until 4 answers had been sent (the fifth takes the limit to 5 when the client reads it) the
        # server never had more than 4 of its requests at once
        assert in_flight_before_4_successes and max(in_flight_before_4_successes) <= 4
        assert sum(1 for *_, status in server.log if status == 429) == 8  # it adapted instead of hammering
        assert model.limiter.limit == 8  # 60 answers grow it back (24 are enough from 4)

        model2 = OpenAIModel("m", ModelOptions(base_url=server.url, max_concurrency=8))
        model2.limiter._limit = 1.0  # start from the bottom, as after a long overload

        async def healthy() -> None:
            await generate_all(model2, _requests(120, max_tokens=9), None, Counters(), _Quiet())
            await model2.aclose()

        asyncio.run(healthy())
        assert model2.limiter.limit == 8 and model2.limiter.decreases == 0  # 31 answers take it from 1 to 8


def test_retry_after_pauses_every_request_of_the_backend() -> None:
    first = {"done": False}

    def policy(prompt: str, attempt: int) -> Reply:
        if not first["done"]:
            first["done"] = True
            return error(429, "slow down", {"Retry-After": "1"})
        return ok("fine")

    with FaultServer(policy) as server:
        _, out = _generate(server.url, _requests(6), max_concurrency=1, max_retries=2)
        assert all(c.ok for c in out)
        t429 = server.log[0][0]
        assert server.log[0][3] == 429
        # a lower bound: the client sleeps at least the pause, however loaded the machine (never shorter)
        assert all(t - t429 >= 0.95 for t, *_ in server.log[1:])  # nothing sent during the pause


def test_persistent_429_gives_up_after_max_retries_and_caps_retry_after() -> None:
    with FaultServer(lambda p, a: error(429, "quota exceeded", {"Retry-After": "3600"})) as server:
        t0 = time.monotonic()
        _, out = _generate(server.url, _requests(2), max_concurrency=2, max_retries=3, retry_cap_s=0.2)
        # capped, the waits total 0.6 s; uncapped, 3 hours: 60 s tells them apart on any machine
        assert time.monotonic() - t0 < 60  # an hour-long Retry-After is capped, and the loop ends
        assert server.calls == 8  # 2 requests × (1 + 3 retries)
        assert all(c.error is not None and "RateLimitError (429)" in c.error for c in out)
        assert all(c.error is not None and c.error.endswith("after 4 attempts") for c in out)


def test_denied_requests_are_not_resent() -> None:
    with FaultServer(lambda p, a: error(401, "invalid api key")) as server:
        _, out = _generate(server.url, _requests(3), max_retries=5)
        assert server.calls == 3
        assert all(c.error is not None and c.error.startswith("AuthenticationError (401)") for c in out)
        assert not any(c.permanent for c in out)  # not cached: a fixed key makes the re-run work


def _paced(url: str, requests: list[GenerateRequest], **options: object) -> list[float]:
    """When the rate limits let each request go, read at the limiter itself (the server's arrival times add the
    machine's scheduling to the spacing)."""
    model = OpenAIModel("m", ModelOptions(base_url=url, **options))  # type: ignore[arg-type]
    times: list[float] = []
    acquire = model._rates.acquire

    async def recorded(tokens: int) -> None:
        await acquire(tokens)
        times.append(time.monotonic())

    model._rates.acquire = recorded  # type: ignore[method-assign]

    async def go() -> None:
        try:
            await generate_all(model, requests, None, Counters(), _Quiet())
        finally:
            await model.aclose()

    asyncio.run(go())
    return sorted(times)


def test_requests_per_minute_spaces_requests_evenly() -> None:
    with FaultServer(lambda p, a: ok("x")) as server:
        times = _paced(server.url, _requests(8), max_concurrency=8, rpm=600)  # one per 0.1 s
        assert server.calls == 8
    # lower bounds: a limiter waits at least its interval, never less, however loaded the machine
    assert times[-1] - times[0] >= 0.69
    assert min(b - a for a, b in itertools.pairwise(times)) >= 0.099


def test_tokens_per_minute_holds_after_a_minute_worth_burst() -> None:
    with FaultServer(lambda p, a: ok("x")) as server:
        # each request reserves ≈ 3 prompt tokens + 8 max_tokens = 11; 660 per minute = a burst of 60, then 1/s
        times = _paced(server.url, _requests(62), max_concurrency=8, tpm=660)
        assert server.calls == 62
    # the 61st waits until 11 tokens have drained from the full bucket (1 s after the first), the 62nd 2 s: lower
    # bounds, which hold however loaded the machine. Spaced at one a second the first 60 would take 59 s: 30 s
    # tells that apart on any machine.
    assert times[60] - times[0] >= 0.99 and times[61] - times[0] >= 1.99 and times[59] - times[0] < 30


def test_adaptive_concurrency_rules() -> None:
    async def go() -> None:
        lim = AdaptiveConcurrency(8)
        async with lim.slot() as started:
            pass
        lim.overloaded(started)
        lim.overloaded(started)  # same burst: halved once
        assert (lim.limit, lim.decreases) == (4, 1)
        async with lim.slot() as later:
            pass
        lim.overloaded(later)
        assert lim.limit == 2
        for _ in range(40):
            lim.succeeded()
        assert lim.limit == 8  # additive increase, capped at the ceiling
        t0 = time.monotonic()
        lim.overloaded(time.monotonic(), retry_after_s=0.3)
        async with lim.slot():
            assert time.monotonic() - t0 >= 0.29  # a lower bound: the pause is never shorter, whatever the load

    asyncio.run(go())


def test_retry_delays_have_jitter_a_cap_and_honour_retry_after() -> None:
    policy = RetryPolicy(max_retries=5, base_s=1.0, cap_s=4.0)
    delays = [policy.delay(3) for _ in range(200)]
    assert min(delays) >= 0 and max(delays) <= 4.0 and len({round(d, 6) for d in delays}) > 150
    assert policy.delay(0, retry_after_s=2.5) == 2.5 and policy.delay(0, retry_after_s=99) == 4.0
    assert _retry_after({"retry-after-ms": "250"}) == 0.25
    assert _retry_after({"retry-after": "7"}) == 7.0
    assert _retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}) == 0.0  # a date in the past
    assert _retry_after({"retry-after": "soon"}) is None and _retry_after({}) is None


# -- budgets and plans ----------------------------------------------------------------------------------------


def _verif_cfg(data_dir: Path, tmp_path: Path, url: str, **extra: object) -> object:
    return make_config(
        benchmark="xlinghealth/liveqa", data_dir=data_dir, languages="en,es", limit=2, tasks="verifiability",
        model="openai/m", base_url=url, logprobs=False, max_concurrency=1, temperatures="0", out=tmp_path / "run",
        **extra,
    )  # fmt: skip


def test_max_requests_stops_cleanly_and_the_same_command_resumes(data_dir: Path, tmp_path: Path) -> None:
    with FaultServer(lambda p, a: ok(deterministic_answer(p))) as server:
        ref = evaluate(make_config(**{**_verif_cfg(data_dir, tmp_path, server.url).model_dump(),  # type: ignore[attr-defined]
                                      "out": tmp_path / "ref", "cache": tmp_path / "ref.sqlite"}))  # fmt: skip
        calls = server.calls
        cfg = _verif_cfg(data_dir, tmp_path, server.url, max_requests=7)
        with pytest.raises(BudgetExhausted, match="--max-requests 7 reached: stopped after 7 backend calls"):
            evaluate(cfg)  # type: ignore[arg-type]
        assert server.calls - calls == 7 and not (tmp_path / "run").exists()
        resumed = evaluate(cfg.model_copy(update={"max_requests": None}))  # type: ignore[attr-defined]
        assert (resumed.backend_calls, resumed.cache_hits) == (ref.backend_calls - 7, 7)
        assert resumed.summary["tasks"] == ref.summary["tasks"]


def test_max_cost_never_overspends(data_dir: Path, tmp_path: Path) -> None:
    with FaultServer(lambda p, a: ok("Yes")) as server:
        with pytest.raises(ConfigError, match="--max-cost needs a price for openai/m"):
            evaluate(_verif_cfg(data_dir, tmp_path, server.url, max_cost=1.0))  # type: ignore[arg-type]
        assert server.calls == 0
        # 10,000 USD per 1M tokens = 0.01 USD a token; the server reports 10 + 2 tokens = 0.12 USD a request
        cfg = _verif_cfg(data_dir, tmp_path, server.url, max_cost=4.0, prices=["openai/m=10000,10000"])
        with pytest.raises(BudgetExhausted, match="--max-cost 4 USD reached"):
            evaluate(cfg)  # type: ignore[arg-type]
        sent = server.calls
        assert 0 < sent < 20 and sent * 0.12 <= 4.0
        done = evaluate(cfg.model_copy(update={"max_cost": 100.0}))  # type: ignore[attr-defined]
        assert done.backend_calls == 20 - sent and done.summary["cost_usd"] == pytest.approx(0.12 * (20 - sent))


def test_dry_run_counts_requests_tokens_and_cost_without_calling(data_dir: Path, tmp_path: Path) -> None:
    with FaultServer(lambda p, a: ok("Yes")) as server:
        cfg = make_config(
            benchmark="xlinghealth/medicationqa", data_dir=data_dir, languages="en,zh", limit=3,
            tasks="correctness,verifiability", model="openai/m", base_url=server.url, max_tokens=100,
            judge_max_tokens=50, verify_max_tokens=4, logprobs=False, prices=["openai/m=1,2"], temperatures="0",
            out=tmp_path / "run",
        )  # fmt: skip
        rows = dry_run(cfg)
        assert server.calls == 0 and not (tmp_path / "run").exists()
        by = {(r["task"], r["stage"], r["lang"]): r for r in rows}
        assert by[("correctness", "answer", "en")]["requests"] == 3
        assert by[("correctness", "judge", "zh")]["upper_bound"] is True
        assert by[("verifiability", "verify", "en")]["to_send"] == 15
        assert by[("verifiability", "verify", "en")]["max_completion_tokens"] == 60
        ans = by[("correctness", "answer", "zh")]
        assert ans["cost_usd"] == pytest.approx((ans["prompt_tokens"] * 1 + ans["max_completion_tokens"] * 2) / 1e6)
        # the judge prompt holds the (not yet generated) answer, estimated at its full max_tokens
        judge = by[("correctness", "judge", "en")]
        assert judge["prompt_tokens"] >= 3 * 100
        evaluate(cfg)
        calls = server.calls
        after = dry_run(cfg)
        assert server.calls == calls
        assert all(r["to_send"] == 0 and r["cached"] == r["requests"] for r in after)
