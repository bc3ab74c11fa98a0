"""The in-process backends: embedded model resolution, Gemma's plain-text path, logprobs, context overflow."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from xlingmed.errors import ModelError
from xlingmed.models import ModelOptions, get_model
from xlingmed.models.llamacpp import render_plain, resolve_gguf
from xlingmed.tasks.verifiability import p_yes
from xlingmed.types import Completion, GenerateRequest, Message


def _run(model_id: str, *requests: GenerateRequest, n_ctx: int = 2048) -> list[Completion]:
    model = get_model(model_id, ModelOptions(n_ctx=n_ctx))

    async def go() -> list[Completion]:
        try:
            return [await model.generate(r) for r in requests]
        finally:
            await model.aclose()

    return asyncio.run(go())


def test_resolve_embedded_and_paths(tmp_path: Path) -> None:
    path, chat = resolve_gguf("smollm2")
    assert path.name == "SmolLM2-135M-Instruct.Q4_1.gguf" and path.stat().st_size > 50_000_000 and chat
    with pytest.raises(ModelError, match="expected an embedded model"):
        resolve_gguf("llama-3-70b")
    with pytest.raises(ModelError, match="file not found"):
        resolve_gguf(str(tmp_path / "absent.gguf"))


def test_render_plain_for_base_models() -> None:
    text = render_plain((Message("system", "Be brief."), Message("user", "Is water wet?")))
    assert text == "Be brief.\n\nUser: Is water wet?\n\nAssistant:"


@pytest.mark.slow
def test_gemma3_base_model_generates_with_logprobs() -> None:
    msgs = (Message("user", "Is Paris the capital of France? Answer Yes or No."),)
    plain, scored = _run(
        "llamacpp/gemma3-270m",
        GenerateRequest(messages=msgs, max_tokens=8, seed=1),
        GenerateRequest(messages=msgs, max_tokens=4, seed=1, logprobs=True, top_logprobs=20),
    )
    assert plain.ok and plain.text.strip() and plain.completion_tokens > 0
    assert scored.ok and scored.logprobs is not None and len(scored.logprobs[0].top) >= 5
    assert scored.text == plain.text[: len(scored.text)]  # same greedy path, shorter
    value = p_yes(scored.logprobs, "en")
    assert value is None or 0.0 <= value <= 1.0


@pytest.mark.slow
def test_smollm2_chat_logprobs_and_context_overflow_is_a_permanent_error() -> None:
    ok, too_long = _run(
        "llamacpp/smollm2",
        GenerateRequest(
            messages=(Message("user", "Reply Yes or No: is 2 > 1?"),), max_tokens=3, logprobs=True, top_logprobs=5
        ),
        GenerateRequest(messages=(Message("user", "word " * 3000),), max_tokens=3),
        n_ctx=512,
    )
    assert ok.ok and ok.logprobs is not None and len(ok.logprobs) >= 1
    assert all(len(t.top) == 5 for t in ok.logprobs)
    assert not too_long.ok and too_long.permanent and "exceed context window" in (too_long.error or "")


@pytest.mark.slow
def test_rescored_logprobs_equal_llama_cpp_logits_all(smollm2_path: Path) -> None:
    """Our logprobs (no logits_all) against llama.cpp's own logits_all logprobs for the same greedy reply."""
    from llama_cpp import Llama

    msgs = (Message("system", "Answer Yes or No."), Message("user", "Is the heart a muscle?"))
    (ours,) = _run("llamacpp/smollm2", GenerateRequest(messages=msgs, max_tokens=6, logprobs=True, top_logprobs=5))
    ref_llm = Llama(model_path=str(smollm2_path), n_ctx=2048, logits_all=True, flash_attn=True, verbose=False)
    try:
        ref = ref_llm.create_chat_completion(
            messages=[{"role": m.role, "content": m.content} for m in msgs],
            max_tokens=6,
            temperature=0,
            seed=None,
            logprobs=True,
            top_logprobs=5,
        )["choices"][0]
    finally:
        ref_llm.close()
    assert ours.text == ref["message"]["content"]
    assert ours.logprobs is not None and len(ours.logprobs) == len(ref["logprobs"]["content"]) == 6
    for mine, theirs in zip(ours.logprobs, ref["logprobs"]["content"], strict=True):
        assert mine.token == theirs["token"]
        assert mine.logprob == pytest.approx(float(theirs["logprob"]), abs=1e-3)
        assert mine.top == pytest.approx({a["token"]: float(a["logprob"]) for a in theirs["top_logprobs"]}, abs=1e-3)


@pytest.mark.slow
def test_answers_do_not_depend_on_request_order() -> None:
    """Same request → same text and logprobs whatever came before (no prompt-cache reuse across requests)."""
    system = Message("system", "Answer Yes or No. " * 20)
    reqs = [
        GenerateRequest(messages=(system, Message("user", q)), max_tokens=4, logprobs=True, top_logprobs=5)
        for q in ("Is the heart a muscle?", "Is the heart a bone?", "Is aspirin an antibiotic?")
    ]
    forward = _run("llamacpp/smollm2", *reqs)
    backward = _run("llamacpp/smollm2", *reversed(reqs))[::-1]
    for f, b in zip(forward, backward, strict=True):
        assert f.ok and f.text == b.text and f.logprobs == b.logprobs


@pytest.mark.slow  # runs a model in process
def test_the_prefix_cache_changes_no_logit_and_is_used() -> None:
    """Prompts that share blocks of a long instruction, and K samples of one prompt: with the aligned prefix cache
    (the default) text and logprobs equal those of evaluating every prompt from scratch, bit for bit."""
    system = Message("system", "You are a careful medical assistant. Answer Yes or No, then one sentence. " * 8)
    reqs = [
        GenerateRequest(messages=(system, Message("user", q)), max_tokens=6, logprobs=True, top_logprobs=5)
        for q in ("Is the heart a muscle?", "Is the heart a bone?", "Is aspirin an antibiotic?")
    ] + [
        GenerateRequest(messages=(system, Message("user", "Name a fruit.")), temperature=1.0, seed=s, max_tokens=6)
        for s in (1, 2, 3)
    ]

    def run(prefix_cache: bool) -> tuple[list[Completion], int]:
        args = (("prefix_cache", prefix_cache),)
        model = get_model("llamacpp/smollm2", ModelOptions(n_ctx=2048, args=args))

        async def go() -> list[Completion]:
            try:
                return [await model.generate(r) for r in [*reqs, *reversed(reqs)]]
            finally:
                await model.aclose()

        out = asyncio.run(go())
        return out, model.prefix_cache["reused"]  # type: ignore[attr-defined]

    cached, reused = run(True)
    fresh, none = run(False)
    assert reused >= 9 * 64 and none == 0  # at least one 64-token block of the instruction per later request
    for c, f in zip(cached, fresh, strict=True):
        assert c.ok and c.text == f.text and c.logprobs == f.logprobs
