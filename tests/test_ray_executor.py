"""``--executor ray`` on a real Ray cluster on this machine (CPU only), SmolLM2 replicas in llama.cpp actors.

One Ray test cluster (``ray.cluster_utils.Cluster``: a head and two worker nodes of one CPU each, all on this
machine) serves the module, because starting Ray takes several seconds. The faults are real: a replica's process
is SIGKILLed, the driver process is SIGKILLed, a node is removed. Each run answers 12 requests with the embedded
model (4 runs, Ray's start, a model load per actor), so the module takes one to two minutes.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import ray
from ray.cluster_utils import Cluster
from run_folders import cache_rows, comparable

from xlingmed.engine import evaluate


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})  # replicas run on the worker nodes only
    nodes = [c.add_node(num_cpus=1) for _ in range(2)]
    c.wait_for_nodes()
    ray.init(address=c.address, include_dashboard=False, log_to_driver=False)
    c.worker_nodes_list = nodes  # type: ignore[attr-defined]
    yield c
    ray.shutdown()
    c.shutdown()


def _fields(data_dir: Path, out: Path, cache: Path, **extra: Any) -> dict[str, Any]:
    # correctness: an answer and a judge call per question, two stages; 12 requests (MedicationQA: short prompts)
    return dict(
        benchmark="xlinghealth/medicationqa", data_dir=data_dir, languages="en,es", limit=3, tasks="correctness",
        model="llamacpp/smollm2", max_tokens=16, task_args={"judge_max_tokens": 8}, out=out, cache=cache, **extra,
    )  # fmt: skip


def _ray(**model_args: Any) -> dict[str, Any]:
    # one CPU per replica, so llama.cpp runs one thread in each, like the local reference run (-M n_threads=1):
    # llama.cpp's answers can change with its thread count
    return {"executor": "ray", "model_args": {"replicas": 2, "cpus_per_replica": 1, "replica_batch": 1, **model_args}}


@pytest.fixture(scope="module")
def local_run(data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The reference: the same run with the local executor."""
    tmp = tmp_path_factory.mktemp("local")
    return evaluate(**_fields(data_dir, tmp / "run", tmp / "cache.sqlite", model_args={"n_threads": 1}))


def _when(condition: Callable[[], bool], action: Callable[[], None], timeout: float = 120.0) -> threading.Thread:
    """Run ``action`` in a thread as soon as ``condition`` holds (polled every 20 ms)."""

    def watch() -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if condition():
                action()
                return
            time.sleep(0.02)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


def _replica_pids() -> list[int]:
    names = [a["name"] for a in ray.util.list_named_actors(all_namespaces=True) if a["name"].startswith("xlingmed-")]
    return [ray.get(ray.get_actor(n, namespace="xlingmed").ready.remote(), timeout=30) for n in names]


@pytest.mark.slow  # runs a model in process
def test_a_killed_replica_is_restarted_and_its_requests_resent(
    cluster: Any, local_run: Any, data_dir: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache.sqlite"
    killed: list[int] = []

    def kill_one() -> None:
        pid = _replica_pids()[0]
        os.kill(pid, signal.SIGKILL)
        killed.append(pid)

    watcher = _when(lambda: cache_rows(cache) >= 2, kill_one)
    run = evaluate(**_fields(data_dir, tmp_path / "run", cache, **_ray()))
    watcher.join(timeout=5)
    assert killed, "the run ended before a replica could be killed"
    pool = run.summary["executor"]["backends"]["llamacpp/smollm2"]
    print(f"killed replica: {pool}; backend calls {run.backend_calls}, cache rows {cache_rows(cache)}")
    assert pool["replica_deaths"] >= 1 and pool["resends"] >= 1
    assert min(pool["requests_per_replica"]) > 0  # both replicas answered (the killed one after its restart)
    # backend calls = cache misses = the distinct requests: nothing lost, nothing stored twice
    assert run.backend_calls == local_run.backend_calls == cache_rows(cache)
    assert run.failed_requests == 0
    assert comparable(run.out_dir) == comparable(local_run.out_dir)


def test_a_killed_driver_resumes_from_the_cache(cluster: Any, local_run: Any, data_dir: Path, tmp_path: Path) -> None:
    cache, out = tmp_path / "cache.sqlite", tmp_path / "run"
    cmd = [
        sys.executable, "-m", "xlingmed.cli", "run", "--benchmark", "xlinghealth/medicationqa",
        "--data-dir", str(data_dir),
        "--languages", "en,es", "--limit", "3", "--tasks", "correctness", "--model", "llamacpp/smollm2",
        "--max-tokens", "16", "-T", "judge_max_tokens=8", "--executor", "ray", "--ray-address", cluster.address,
        "-M", "replicas=2", "-M", "replica_batch=1",
        "--quiet", "--no-report", "--cache", str(cache), "--out", str(out),
    ]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    end = time.monotonic() + 180
    while cache_rows(cache) < 3 and proc.poll() is None and time.monotonic() < end:
        time.sleep(0.02)
    assert proc.poll() is None, "the run ended before the driver could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    kept = cache_rows(cache)
    assert 3 <= kept < local_run.backend_calls and not out.exists()
    again = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "COLUMNS": "200"})
    assert again.returncode == 0, again.stdout + again.stderr
    summary = json.loads((out / "summary.json").read_text())
    print(
        f"killed driver: {kept} completions kept, the re-run sent {summary['backend_calls']} of "
        f"{local_run.backend_calls}"
    )
    assert summary["backend_calls"] == local_run.backend_calls - kept  # only what the killed driver never stored
    assert summary["cache_hits"] >= kept
    assert comparable(out) == comparable(local_run.out_dir)


def test_a_lost_node_does_not_stop_the_run(cluster: Any, local_run: Any, data_dir: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache.sqlite"
    lost: list[Any] = []

    def remove_node() -> None:
        node = cluster.worker_nodes_list[-1]
        cluster.remove_node(node, allow_graceful=False)
        lost.append(node)

    watcher = _when(lambda: cache_rows(cache) >= 2, remove_node)
    try:
        run = evaluate(**_fields(data_dir, tmp_path / "run", cache, **_ray()))
    finally:
        watcher.join(timeout=30)
        if lost:  # the module's cluster gets its second node back
            cluster.worker_nodes_list[-1] = cluster.add_node(num_cpus=1)
    assert lost, "the run ended before a node could be removed"
    pool = run.summary["executor"]["backends"]["llamacpp/smollm2"]
    print(f"lost node: {pool}; backend calls {run.backend_calls}, cache rows {cache_rows(cache)}")
    assert pool["replica_deaths"] >= 1 and pool["resends"] >= 1
    assert run.backend_calls == local_run.backend_calls == cache_rows(cache)
    assert run.failed_requests == 0
    assert comparable(run.out_dir) == comparable(local_run.out_dir)


def test_ray_executor_options_are_checked_before_anything_runs(data_dir: Path, tmp_path: Path) -> None:
    from xlingmed.config import make_config
    from xlingmed.errors import ConfigError

    with pytest.raises(ConfigError, match="-M replicas are options of --executor ray"):
        make_config(**_fields(data_dir, tmp_path / "r", tmp_path / "c.sqlite"), model_args={"replicas": 2})
    with pytest.raises(ConfigError, match="replicas"):
        evaluate(**_fields(data_dir, tmp_path / "r", tmp_path / "c.sqlite", executor="ray",
                           model_args={"replicas": 0}))  # fmt: skip
    assert not (tmp_path / "r").exists()


def test_without_ray_the_error_names_the_extra(data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from xlingmed.errors import ModelError

    monkeypatch.setitem(sys.modules, "ray", None)  # as if Ray were not installed: `import ray` raises ImportError
    with pytest.raises(ModelError, match=r"--executor ray needs Ray: pip install 'xlingmed\[ray\]'"):
        evaluate(**_fields(data_dir, tmp_path / "r", tmp_path / "c.sqlite", executor="ray"))
    assert not (tmp_path / "r").exists()
