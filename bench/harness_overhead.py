"""Harness overhead: xlingmed vs a bare asyncio ``openai`` client, and vs lm-evaluation-harness and inspect_ai.

The same N chat requests (distinct prompts, temperature 0, ``max_tokens`` T) at the same concurrency C against
the same local OpenAI-compatible server:

* ``bare``: ``openai.AsyncOpenAI`` + ``asyncio.Semaphore(C)`` + ``gather`` — the floor a harness built on the SDK's
  ``create`` pays — with the SDK's aiohttp transport; ``bare_httpx``: the same with the SDK's default httpx
  transport; ``bare_aiohttp``: one ``aiohttp`` POST and ``json.loads`` a request, the floor of xlingmed's
  transport (``OpenAIModel`` sends through aiohttp itself and raises the SDK's exceptions) and of lm-eval's.
* ``xlingmed``: ``runner.generate_all`` through ``OpenAIModel`` (adaptive concurrency, own retries) with the
  SQLite completion cache committing every answer as it arrives (fresh cache file each time).
* ``lm_eval`` (``local-chat-completions``) and ``inspect`` (``openai-api``), when ``--peers-venv`` names a virtual
  environment that has them (``pip install lm-eval[api] inspect-ai openai torch==2.13.0``: inspect's
  ``openai-api`` provider needs ``openai``); they run as subprocesses through ``bench/peers_client.py`` and time
  their own request phase.

Servers: ``instant`` (bench/instant_server.py, no model: isolates harness cost) and ``llama`` (a real
``python -m llama_cpp.server`` with SmolLM2-135M; it serialises requests, so the model dominates).
Each configuration runs ``--repeats`` times, alternating tools; the median wall time is reported with the ratio
to ``bare``, xlingmed's overhead over ``bare_aiohttp`` and, with the peers, xlingmed's rate over lm-eval's
(target ≥ 0.9).

    python bench/harness_overhead.py [--n 2000] [--concurrency 16] [--llama-n 24] [--peers-venv /path/to/venv]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from peers_client import bench_prompt  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_ready(url: str, proc: subprocess.Popen[bytes], timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            urllib.request.urlopen(f"{url}/models", timeout=2).read()
            return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError("server did not start")


def start_server(kind: str) -> tuple[str, subprocess.Popen[bytes]]:
    port = free_port()
    if kind == "instant":
        cmd = [sys.executable, str(HERE / "instant_server.py"), "--port", str(port)]
    else:
        from xlingmed.models.llamacpp import resolve_gguf

        cmd = [sys.executable, "-m", "llama_cpp.server", "--model", str(resolve_gguf("smollm2")[0]),
               "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048"]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/v1"
    wait_ready(url, proc)
    return url, proc


async def run_bare(url: str, n: int, concurrency: int, max_tokens: int, aiohttp: bool = True) -> tuple[float, int]:
    import openai

    http = openai.DefaultAioHttpClient() if aiohttp else None  # the transport xlingmed uses, or the SDK default
    client = openai.AsyncOpenAI(base_url=url, api_key="not-needed", max_retries=0, http_client=http)
    sem = asyncio.Semaphore(concurrency)

    async def one(i: int) -> str:
        async with sem:
            resp = await client.chat.completions.create(
                model="m", messages=[{"role": "user", "content": bench_prompt(i)}], temperature=0.0, top_p=1.0,
                max_tokens=max_tokens, n=1, seed=42,
            )  # fmt: skip
            return resp.choices[0].message.content or ""

    t0 = time.perf_counter()
    out = await asyncio.gather(*(one(i) for i in range(n)))
    wall = time.perf_counter() - t0
    await client.close()
    return wall, sum(1 for o in out if o)


async def run_bare_aiohttp(url: str, n: int, concurrency: int, max_tokens: int) -> tuple[float, int]:
    import aiohttp

    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=concurrency))
    sem = asyncio.Semaphore(concurrency)

    async def one(i: int) -> str:
        body = {"model": "m", "messages": [{"role": "user", "content": bench_prompt(i)}], "temperature": 0.0,
                "top_p": 1.0, "max_tokens": max_tokens, "n": 1, "seed": 42}  # fmt: skip
        async with sem, session.post(f"{url}/chat/completions", json=body) as resp:
            resp.raise_for_status()
            return str(json.loads(await resp.read())["choices"][0]["message"]["content"] or "")

    t0 = time.perf_counter()
    out = await asyncio.gather(*(one(i) for i in range(n)))
    wall = time.perf_counter() - t0
    await session.close()
    return wall, sum(1 for o in out if o)


async def run_xlingmed(url: str, n: int, concurrency: int, max_tokens: int) -> tuple[float, int]:
    from xlingmed.models.base import ModelOptions
    from xlingmed.models.openai_api import OpenAIModel
    from xlingmed.runner import Counters, generate_all
    from xlingmed.store import CompletionCache
    from xlingmed.types import GenerateRequest, Message

    class Quiet:
        def start(self, description: str, total: int) -> None:
            pass

        def advance(self, n: int = 1) -> None:
            pass

    model = OpenAIModel("m", ModelOptions(base_url=url, max_concurrency=concurrency))
    requests = [
        GenerateRequest(messages=(Message("user", bench_prompt(i)),), max_tokens=max_tokens, seed=42) for i in range(n)
    ]
    with tempfile.TemporaryDirectory() as tmp:
        cache = CompletionCache(Path(tmp) / "cache.sqlite")
        t0 = time.perf_counter()
        out = await generate_all(model, requests, cache, Counters(), Quiet())
        wall = time.perf_counter() - t0
        cache.close()
    await model.aclose()
    return wall, sum(1 for c, _ in out if c.ok and c.text)


def run_peer(venv: Path, tool: str, url: str, n: int, concurrency: int, max_tokens: int) -> tuple[float, int]:
    res = subprocess.run(
        [str(venv / "bin" / "python"), str(HERE / "peers_client.py"), tool, "--url", url, "--n", str(n),
         "--concurrency", str(concurrency), "--max-tokens", str(max_tokens)],
        capture_output=True, text=True, timeout=3600,
    )  # fmt: skip
    if res.returncode != 0:
        raise RuntimeError(f"{tool} failed:\n{res.stderr[-2000:]}")
    line = json.loads(res.stdout.strip().splitlines()[-1])
    return float(line["wall_s"]), int(line["completed"])


def measure(
    server: str, n: int, concurrency: int, max_tokens: int, repeats: int, peers: Path | None
) -> dict[str, list[float]]:
    url, proc = start_server(server)
    tools = ["bare", "xlingmed", "bare_httpx", "bare_aiohttp"] + (["lm_eval", "inspect"] if peers else [])
    walls: dict[str, list[float]] = {t: [] for t in tools}
    try:
        asyncio.run(run_bare(url, min(n, 50), concurrency, max_tokens))  # warm the server
        for _ in range(repeats):
            for tool in tools:
                if tool in ("bare", "bare_httpx"):
                    wall, done = asyncio.run(run_bare(url, n, concurrency, max_tokens, aiohttp=tool == "bare"))
                elif tool == "bare_aiohttp":
                    wall, done = asyncio.run(run_bare_aiohttp(url, n, concurrency, max_tokens))
                elif tool == "xlingmed":
                    wall, done = asyncio.run(run_xlingmed(url, n, concurrency, max_tokens))
                else:
                    assert peers is not None
                    wall, done = run_peer(peers, tool, url, n, concurrency, max_tokens)
                if done != n:
                    raise RuntimeError(f"{tool}: {done} of {n} requests completed")
                walls[tool].append(wall)
    finally:
        proc.terminate()
        proc.wait()
    return walls


def report(title: str, walls: dict[str, list[float]], n: int) -> None:
    base = statistics.median(walls["bare"])
    print(f"\n{title}")
    print(f"{'tool':<12} {'median s':>9} {'req/s':>8} {'vs bare':>8}   runs (s)")
    for tool, ws in walls.items():
        med = statistics.median(ws)
        runs = " ".join(f"{w:.3f}" for w in ws)
        print(f"{tool:<12} {med:>9.3f} {n / med:>8.1f} {med / base:>7.3f}×   {runs}")
    xl = statistics.median(walls["xlingmed"])
    print(f"xlingmed overhead vs bare SDK client: {(xl / base - 1) * 100:+.1f} %")
    print(f"xlingmed overhead vs bare aiohttp: {(xl / statistics.median(walls['bare_aiohttp']) - 1) * 100:+.1f} %")
    if "lm_eval" in walls:  # rates: the inverse ratio of the median walls
        ratio = statistics.median(walls["lm_eval"]) / xl
        print(f"xlingmed / lm_eval requests per second: {ratio:.2f}× (target ≥ 0.9×)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2000, help="requests against the instant server")
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--max-tokens", type=int, default=16)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--llama-n", type=int, default=24, help="requests against llama_cpp.server (0 = skip)")
    ap.add_argument("--peers-venv", type=Path, default=None, help="venv with lm-eval and inspect-ai")
    args = ap.parse_args()
    print(f"python {sys.version.split()[0]}; {args.n} requests, concurrency {args.concurrency}, "
          f"max_tokens {args.max_tokens}, median of {args.repeats}")  # fmt: skip
    walls = measure("instant", args.n, args.concurrency, args.max_tokens, args.repeats, args.peers_venv)
    report(f"instant server (no model): {args.n} requests", walls, args.n)
    if args.llama_n:
        walls = measure("llama", args.llama_n, 4, args.max_tokens, args.repeats, args.peers_venv)
        report(f"llama_cpp.server, SmolLM2-135M: {args.llama_n} requests, concurrency 4", walls, args.llama_n)


if __name__ == "__main__":
    main()
