"""Scale: the driver's peak memory as the plan grows to a million requests, and the throughput of Ray replicas.

1. **Driver peak RSS** of ``xlingmed run`` for plans of 10⁴, 10⁵ and 10⁶ requests whose answers are all in the
   completion cache (no model is called: what is measured is planning, the cache lookups, parsing, scoring and
   writing the run folder). The plan is a synthetic multiple-choice file (``mcq:FILE``, English, 4 options) of N/10
   questions at ten temperatures; the cache is filled beforehand, straight into SQLite, with the answer "The
   correct letter is: B" for every planned request (``fill``, a separate process). Each size runs in its own
   process; its ``ru_maxrss`` is printed with the growth per 10⁵ planned requests.
2. **Replica throughput** on this machine: correctness on Q LiveQA questions in English and Spanish with SmolLM2
   (llama.cpp; answers of up to T tokens, so decoding dominates, and a short judge call; a fresh cache each time)
   with ``--executor ray -M replicas=1`` and ``replicas=2`` (one CPU and one thread per replica), and with the
   local executor for reference; requests per second and the 2-vs-1 ratio. The wall time includes starting Ray
   and loading the model in each actor.

    python bench/scale.py [--sizes 10000,100000,1000000] [--replica-questions 6] [--max-tokens 128]
                           [--skip-ray] [--skip-memory]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from memory_scaling import write_items

TEMPERATURES = "0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9"
INSERT = "INSERT OR REPLACE INTO completions (key, model, request, completion, created, task) VALUES (?,?,?,?,?,?)"


def run_args(items: Path, cache: Path, out: Path) -> list[str]:
    return ["--benchmark", f"mcq:{items}", "--languages", "en", "--temperatures", TEMPERATURES, "--model",
            "openai/m", "--base-url", "http://127.0.0.1:9/v1", "--max-retries", "0", "--no-logprobs", "--quiet",
            "--no-report", "--cache", str(cache), "--out", str(out)]  # fmt: skip


def fill(items: str, cache: str, out: str) -> None:
    """Put an answer for every request of the plan into ``cache`` (in process, straight into SQLite)."""
    import sqlite3

    from xlingmed.config import make_config
    from xlingmed.engine.plan import make_plan
    from xlingmed.store import CompletionCache
    from xlingmed.types import Completion

    config = make_config(
        benchmark=f"mcq:{items}", languages="en", temperatures=TEMPERATURES, model="openai/m",
        base_url="http://127.0.0.1:9/v1", task_args={"logprobs": False}, cache=cache, out=out,
    )  # fmt: skip
    plan = make_plan(config)
    CompletionCache(cache).close()  # the schema
    answer = json.dumps(Completion("The correct letter is: B", "stop", 40, 6).to_json())
    db = sqlite3.connect(cache)
    rows = []
    for task, samples in plan.plans:
        for stage in task.stages:
            backend = plan.roles.get(stage.role)
            if backend is None:  # a role the run does not use (the extractor unless named)
                continue
            for sample in (s for part in samples.parts(8192) for s in part):
                req = task.request(stage.name, sample, {})
                if req is not None:
                    rows.append((req.cache_key(backend.model_id), backend.model_id, "{}", answer, time.time(),
                                 f"{task.name}:{stage.name}"))
                if len(rows) >= 50_000:
                    db.executemany(INSERT, rows)
                    rows = []
    db.executemany(INSERT, rows)
    db.commit()
    print(db.execute("SELECT COUNT(*) FROM completions").fetchone()[0])


def peak_rss(cmd: list[str]) -> tuple[float, float, str]:
    """(peak RSS of ``cmd`` in MiB, wall s, its stdout) from a wrapper process's RUSAGE_CHILDREN."""
    wrapper = (
        "import resource, subprocess, sys, time, json; t = time.perf_counter(); "
        "r = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
        "print(json.dumps([resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, time.perf_counter() - t, "
        "r.returncode, r.stdout[-2000:], r.stderr[-3000:]]))"
    )
    res = subprocess.run([sys.executable, "-c", wrapper, *cmd], capture_output=True, text=True, check=True)
    kib, wall, rc, out, err = json.loads(res.stdout)
    if rc != 0:
        raise SystemExit(f"{' '.join(cmd[:6])}… exited {rc}:\n{out}\n{err}")
    return kib / 1024, wall, out


def memory(sizes: list[int]) -> None:
    print(f"{'planned requests':>16} {'questions':>9} {'peak RSS MiB':>13} {'run wall s':>10} "
          f"{'samples.jsonl MiB':>17}")  # fmt: skip
    rows = []
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            items, cache, out = Path(tmp) / "items.csv", Path(tmp) / "cache.sqlite", Path(tmp) / "run"
            write_items(items, n // 10)
            filled = subprocess.run([sys.executable, __file__, "fill", str(items), str(cache), str(out)],
                                    capture_output=True, text=True, check=True).stdout.split()[-1]  # fmt: skip
            assert int(filled) == n, (filled, n)
            rss, wall, _ = peak_rss([sys.executable, "-m", "xlingmed.cli", "run", *run_args(items, cache, out)])
            summary = json.loads((out / "summary.json").read_text())
            assert summary["backend_calls"] == 0 and summary["cache_hits"] == n, summary
            size = (out / "samples.jsonl").stat().st_size / 2**20
            rows.append((n, rss))
            print(f"{n:>16,} {n // 10:>9,} {rss:>13.1f} {wall:>10.1f} {size:>17.1f}", flush=True)
    if len(rows) < 2:  # one size: no growth to say
        return
    (n0, r0), (n1, r1) = rows[0], rows[-1]
    print(f"peak RSS grows {(r1 - r0) / (n1 - n0) * 1e5:.1f} MiB per 10^5 planned requests "
          f"({r0:.0f} MiB at {n0:,}, {r1:.0f} MiB at {n1:,})")  # fmt: skip


def replicas(n_questions: int, max_tokens: int) -> None:
    shared = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "xlinghealth"
    # correctness on LiveQA in two languages: an answer of up to max_tokens (decoding dominates) and a short judge
    # call per question and language
    base = ["--benchmark", "xlinghealth/liveqa", "--data-dir", str(shared), "--languages", "en,es", "--limit",
            str(n_questions), "--tasks", "correctness", "--model", "llamacpp/smollm2", "--max-tokens",
            str(max_tokens), "-T", "judge_max_tokens=8", "--quiet", "--no-report"]  # fmt: skip
    setups = {
        "local (2 threads)": [],
        "ray, 1 replica": ["--executor", "ray", "-M", "replicas=1", "-M", "cpus_per_replica=1"],
        "ray, 2 replicas": ["--executor", "ray", "-M", "replicas=2", "-M", "cpus_per_replica=1"],
    }
    print(f"\n{'executor':<20} {'requests':>8} {'wall s':>7} {'req/s':>6}")
    rates = {}
    for name, extra in setups.items():
        with tempfile.TemporaryDirectory() as tmp:
            cmd = [sys.executable, "-m", "xlingmed.cli", "run", *base, *extra, "--cache", f"{tmp}/c.sqlite",
                   "--out", f"{tmp}/run"]  # fmt: skip
            t = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True)
            wall = time.perf_counter() - t
            calls = json.loads(Path(f"{tmp}/run/summary.json").read_text())["backend_calls"]
            rates[name] = calls / wall
            print(f"{name:<20} {calls:>8} {wall:>7.1f} {rates[name]:>6.2f}", flush=True)
    print(f"2 replicas / 1 replica: {rates['ray, 2 replicas'] / rates['ray, 1 replica']:.2f}x "
          f"(wall time includes starting Ray and loading the model in each actor)")  # fmt: skip


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "fill":
        fill(*sys.argv[2:5])
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--replica-questions", type=int, default=6)
    ap.add_argument("--max-tokens", type=int, default=128)
    ap.add_argument("--skip-ray", action="store_true")
    ap.add_argument("--skip-memory", action="store_true")
    args = ap.parse_args()
    if not args.skip_memory:
        memory([int(s) for s in args.sizes.split(",")])
    if not args.skip_ray:
        replicas(args.replica_questions, args.max_tokens)


if __name__ == "__main__":
    main()
