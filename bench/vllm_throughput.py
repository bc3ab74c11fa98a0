"""vLLM throughput: xlingmed's ``vllm/`` path against vLLM's own ``LLM.generate`` on the same prompts.

The workload is a consistency stage: Q questions × K samples at temperature 1 (``max_tokens`` T). ``vllm``: one
``LLM.generate`` call with every prompt and a per-request seed (what a careful user writes by hand).
``xlingmed``: the same requests through ``generate_all`` (the completion cache included, a fresh file each time),
which groups each question's K samples into one ``n = K`` request. Output: generated tokens per second of each
and the ratio xlingmed / vllm (target ≥ 0.95). Needs a CUDA GPU and vLLM; run it on the accelerator machine:

    python bench/vllm_throughput.py --model /path/to/hf-folder [--q 200] [--k 10] [--max-tokens 128]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True, help="a Hugging Face folder or hub id vLLM can load")
    ap.add_argument("--q", type=int, default=200)
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--max-tokens", type=int, default=128)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--gpu-memory-utilization", type=float, default=0.8)
    args = ap.parse_args()

    from vllm import SamplingParams

    from xlingmed.engine.generate import Counters, NoProgress, generate_all
    from xlingmed.models.base import ModelOptions
    from xlingmed.models.vllm_offline import VLLMModel
    from xlingmed.store import CompletionCache
    from xlingmed.types import GenerateRequest, Message

    questions = [f"Question {i}: what are the common side effects of drug number {i}?" for i in range(args.q)]
    requests = [
        GenerateRequest(
            messages=(Message("user", q),), temperature=1.0, max_tokens=args.max_tokens, seed=1000 * i + k,
            sample_index=k,
        )
        for i, q in enumerate(questions)
        for k in range(args.k)
    ]  # fmt: skip
    model = VLLMModel(args.model, ModelOptions(args=(("gpu_memory_utilization", args.gpu_memory_utilization),)))
    llm = model._load()  # one engine for both paths: the comparison is of the call pattern, not of the load
    prompts = [model.prompt(r) for r in requests]

    def bare() -> int:
        params = [SamplingParams(temperature=1.0, max_tokens=args.max_tokens, seed=r.seed) for r in requests]
        outs = llm.generate(prompts, params, use_tqdm=False)
        return sum(len(o.outputs[0].token_ids) for o in outs)

    def ours() -> int:
        with tempfile.TemporaryDirectory() as tmp:
            cache = CompletionCache(Path(tmp) / "cache.sqlite")
            out = asyncio.run(generate_all(model, requests, cache, Counters(), NoProgress()))
            cache.close()
        return sum(c.completion_tokens for c, _ in out)

    bare()  # warm-up: CUDA graphs, allocator
    rates: dict[str, list[float]] = {"vllm": [], "xlingmed": []}
    for _ in range(args.repeats):
        for name, fn in (("vllm", bare), ("xlingmed", ours)):
            start = time.perf_counter()
            tokens = fn()
            rates[name].append(tokens / (time.perf_counter() - start))
    med = {k: statistics.median(v) for k, v in rates.items()}
    print(f"{len(requests)} requests ({args.q} questions × K={args.k}), max_tokens {args.max_tokens}")
    for name, rate in med.items():
        print(f"  {name:9s} {rate:10.0f} generated tokens/s (median of {args.repeats})")
    print(f"ratio xlingmed / vllm = {med['xlingmed'] / med['vllm']:.3f} (target ≥ 0.95)")


if __name__ == "__main__":
    main()
