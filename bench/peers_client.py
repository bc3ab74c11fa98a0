"""The same chat requests through lm-evaluation-harness and inspect_ai; run with the *peers'* Python.

    PEERS/bin/python bench/peers_client.py lm_eval|inspect --url URL --n N --concurrency C --max-tokens T

Prints one JSON line: {"tool": ..., "wall_s": ..., "completed": ...}. ``bench/harness_overhead.py`` calls it;
both peers are installed in a virtual environment of their own (they pin packages xlingmed does not).
The prompts are ``bench_prompt(i)``, the same ones harness_overhead.py sends through xlingmed and the bare client.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time


def bench_prompt(i: int) -> str:
    return f"Question {i}: what is the usual adult dose of paracetamol, and when should a patient see a doctor?"


def run_lm_eval(url: str, n: int, concurrency: int, max_tokens: int) -> tuple[float, int]:
    from lm_eval.api.instance import Instance
    from lm_eval.models.api_models import JsonChatStr
    from lm_eval.models.openai_completions import LocalChatCompletion

    lm = LocalChatCompletion(
        base_url=f"{url}/chat/completions",
        model="m",
        num_concurrent=concurrency,
        max_retries=3,
        tokenized_requests=False,
        max_gen_toks=max_tokens,
    )
    requests = [
        Instance(
            request_type="generate_until",
            doc={},
            arguments=(
                JsonChatStr(json.dumps([{"role": "user", "content": bench_prompt(i)}])),
                {"until": [], "max_gen_toks": max_tokens, "temperature": 0, "do_sample": False},
            ),
            idx=i,
        )
        for i in range(n)
    ]
    t0 = time.perf_counter()
    out = lm.generate_until(requests, disable_tqdm=True)
    return time.perf_counter() - t0, sum(1 for o in out if o)


def run_inspect(url: str, n: int, concurrency: int, max_tokens: int) -> tuple[float, int]:
    from inspect_ai import Task, eval
    from inspect_ai.dataset import MemoryDataset, Sample
    from inspect_ai.solver import generate

    os.environ["LOCAL_API_KEY"] = "not-needed"
    os.environ["LOCAL_BASE_URL"] = url
    task = Task(dataset=MemoryDataset([Sample(input=bench_prompt(i), id=i) for i in range(n)]), solver=generate())
    with tempfile.TemporaryDirectory() as logs:
        t0 = time.perf_counter()
        result = eval(
            task,
            model="openai-api/local/m",
            max_connections=concurrency,
            max_tokens=max_tokens,
            temperature=0,
            log_dir=logs,
            display="none",
            max_retries=3,
        )
        wall = time.perf_counter() - t0
        samples = result[0].samples or []
        return wall, sum(1 for s in samples if s.output and s.output.completion)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("tool", choices=["lm_eval", "inspect"])
    ap.add_argument("--url", required=True)
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--max-tokens", type=int, default=16)
    args = ap.parse_args()
    run = run_lm_eval if args.tool == "lm_eval" else run_inspect
    wall, completed = run(args.url, args.n, args.concurrency, args.max_tokens)
    print(json.dumps({"tool": args.tool, "wall_s": wall, "completed": completed}))


if __name__ == "__main__":
    main()
