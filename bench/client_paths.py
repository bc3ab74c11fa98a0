"""Where an OpenAI-compatible request's client time goes: the SDK's paths against xlingmed's, on the instant server.

The same N chat requests at concurrency C through:

* ``create``: ``client.chat.completions.create`` (request parameter transform, httpx request, response models);
* ``raw``: ``with_raw_response.create`` and ``json.loads`` of the body (no response models);
* ``post``: ``client.post(..., cast_to=httpx.Response)`` (no parameter transform either, still the SDK's request
  building and its httpx-to-aiohttp adapter);
* ``xlingmed``: ``OpenAIModel._call`` + ``_read`` (aiohttp POST, the SDK's headers and exceptions, ``_Body``);
* ``aiohttp``: one ``aiohttp`` POST and ``json.loads`` (the floor).

All SDK clients use its aiohttp transport (``openai.DefaultAioHttpClient``), as xlingmed's Batch API calls do.
``--profile PATH`` runs that path under cProfile and prints the costliest functions.

    python bench/client_paths.py [--n 4000] [--concurrency 16] [--repeats 3] [--profile create]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from harness_overhead import start_server  # noqa: E402
from peers_client import bench_prompt  # noqa: E402

PATHS = ("create", "raw", "post", "xlingmed", "aiohttp")


def body(i: int) -> dict[str, Any]:
    return {"model": "m", "messages": [{"role": "user", "content": bench_prompt(i)}], "temperature": 0.0,
            "top_p": 1.0, "max_tokens": 16, "n": 1, "seed": 42}  # fmt: skip


async def run(path: str, url: str, n: int, concurrency: int) -> float:
    """Seconds for ``n`` requests through ``path``."""
    import aiohttp
    import openai

    from xlingmed.models.base import ModelOptions
    from xlingmed.models.openai_api import OpenAIModel

    try:  # the SDK's HTTP library
        import httpx2 as sdk_http
    except ImportError:
        import httpx as sdk_http  # type: ignore[no-redef]

    client = openai.AsyncOpenAI(base_url=url, api_key="x", max_retries=0, http_client=openai.DefaultAioHttpClient())
    model = OpenAIModel("m", ModelOptions(base_url=url, max_concurrency=concurrency))
    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=concurrency))

    async def create(i: int) -> str:
        resp = await client.chat.completions.create(**body(i))
        return resp.choices[0].message.content or ""

    async def raw(i: int) -> str:
        resp = await client.chat.completions.with_raw_response.create(**body(i))
        return str(json.loads(resp.http_response.content)["choices"][0]["message"]["content"])

    async def post(i: int) -> str:
        resp = await client.post("/chat/completions", body=body(i), cast_to=sdk_http.Response)
        return str(json.loads(resp.content)["choices"][0]["message"]["content"])

    async def xlingmed(i: int) -> str:
        return model._read(await model._call(body(i))).choices[0].message.content or ""  # type: ignore[union-attr]

    async def bare(i: int) -> str:
        async with session.post(f"{url}/chat/completions", json=body(i)) as resp:
            return str(json.loads(await resp.read())["choices"][0]["message"]["content"])

    one: Callable[[int], Awaitable[str]] = {
        "create": create, "raw": raw, "post": post, "xlingmed": xlingmed, "aiohttp": bare
    }[path]  # fmt: skip
    sem = asyncio.Semaphore(concurrency)

    async def limited(i: int) -> str:
        async with sem:
            return await one(i)

    t0 = time.perf_counter()
    out = await asyncio.gather(*(limited(i) for i in range(n)))
    wall = time.perf_counter() - t0
    await client.close()
    await model.aclose()
    await session.close()
    if not all(out):
        raise RuntimeError(f"{path}: empty answers")
    return wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=4000)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--profile", choices=PATHS, default=None, help="profile this path once instead")
    ap.add_argument("--top", type=int, default=30, help="functions printed with --profile")
    args = ap.parse_args()
    url, proc = start_server("instant")
    try:
        asyncio.run(run("aiohttp", url, 50, args.concurrency))  # warm the server
        if args.profile:
            prof = cProfile.Profile()
            prof.enable()
            wall = asyncio.run(run(args.profile, url, args.n, args.concurrency))
            prof.disable()
            print(f"{args.profile}: {args.n / wall:.0f} requests/s under cProfile")
            pstats.Stats(prof).sort_stats("cumulative").print_stats(args.top)
            return
        walls: dict[str, list[float]] = {p: [] for p in PATHS}
        for _ in range(args.repeats):
            for p in PATHS:
                walls[p].append(asyncio.run(run(p, url, args.n, args.concurrency)))
    finally:
        proc.terminate()
        proc.wait()
    print(f"{args.n} requests, concurrency {args.concurrency}, median of {args.repeats}")
    print(f"{'path':<10} {'req/s':>8} {'ms/req':>8}")
    for p, ws in walls.items():
        med = statistics.median(ws)
        print(f"{p:<10} {args.n / med:>8.0f} {med / args.n * 1e3:>8.3f}")


if __name__ == "__main__":
    main()
