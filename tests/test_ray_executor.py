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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import ray
from ray.cluster_utils import Cluster
from run_events import AtStored
from run_folders import cache_rows, comparable

from xlingmed.engine import evaluate
from xlingmed.engine.ray_local import bind_loopback


def _listening(pids: set[int]) -> list[tuple[str, str, int]]:
    """(process name, address, port) of every listening TCP socket of the processes ``pids``."""
    import psutil

    out = []
    for conn in psutil.net_connections(kind="inet"):
        if conn.status == psutil.CONN_LISTEN and conn.pid in pids:
            try:
                name = psutil.Process(conn.pid).name()
            except psutil.NoSuchProcess:
                continue
            out.append((name, conn.laddr.ip, conn.laddr.port))
    return out


def _remote_peers(pids: set[int]) -> list[str]:
    """The remote addresses of every connected TCP socket of the processes ``pids``."""
    import psutil

    return [c.raddr.ip for c in psutil.net_connections(kind="inet") if c.pid in pids and c.raddr]


def _family() -> set[int]:
    import psutil

    me = psutil.Process()
    return {me.pid, *(p.pid for p in me.children(recursive=True))}


def _loopback(address: str) -> bool:
    import ipaddress

    ip = ipaddress.ip_address(address)
    mapped = getattr(ip, "ipv4_mapped", None)
    return (mapped or ip).is_loopback


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    bind_loopback(ray)  # as xlingmed's own local instance: nothing listens beyond 127.0.0.1 (engine/ray_local.py)
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


def _replica_pids() -> list[int]:
    names = [a["name"] for a in ray.util.list_named_actors(all_namespaces=True) if a["name"].startswith("xlingmed-")]
    return [ray.get(ray.get_actor(n, namespace="xlingmed").ready.remote(), timeout=30) for n in names]


@pytest.mark.slow  # runs a model in process
def test_a_killed_replica_is_restarted_and_its_requests_resent(
    cluster: Any, local_run: Any, data_dir: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache.sqlite"
    pids: list[int] = []
    killed: list[int] = []
    # The first answer is stored: note the replicas' processes. The second: kill one. Each replica was handed its
    # next request just before (the pool's dispatcher sends it as soon as an answer comes back, before the driver
    # stores that answer), and the run waits while the action runs, so the replica dies with a request.
    note = AtStored(1, lambda: pids.extend(_replica_pids()))
    kill = AtStored(2, lambda: (os.kill(pids[0], signal.SIGKILL), killed.append(pids[0])))
    run = evaluate(**_fields(data_dir, tmp_path / "run", cache, **_ray()), progress=_Both(note, kill))
    assert killed and kill.fired_at == 2
    pool = run.summary["executor"]["backends"]["llamacpp/smollm2"]
    print(f"killed replica: {pool}; backend calls {run.backend_calls}, cache rows {cache_rows(cache)}")
    assert pool["replica_deaths"] >= 1 and pool["resends"] >= 1
    assert min(pool["requests_per_replica"]) > 0  # both replicas answered (the killed one after its restart)
    # backend calls = cache misses = the distinct requests: nothing lost, nothing stored twice
    assert run.backend_calls == local_run.backend_calls == cache_rows(cache)
    assert run.failed_requests == 0
    assert comparable(run.out_dir) == comparable(local_run.out_dir)


class _Both:
    def __init__(self, *progress: AtStored) -> None:
        self.progress = progress

    def start(self, description: str, total: int) -> None:
        pass

    def advance(self, n: int = 1) -> None:
        for p in self.progress:
            p.advance(n)


def test_a_killed_driver_resumes_from_the_cache(cluster: Any, local_run: Any, data_dir: Path, tmp_path: Path) -> None:
    cache, out = tmp_path / "cache.sqlite", tmp_path / "run"
    # the driver stops for good once it has stored 3 completions (tests/run_events.py), and is killed there
    fields = {**_fields(data_dir, out, cache, executor="ray", ray_address=cluster.address,
                        model_args={"replicas": 2, "replica_batch": 1}), "data_dir": str(data_dir), "out": str(out),
              "cache": str(cache)}  # fmt: skip
    driver = [sys.executable, str(Path(__file__).parent / "run_events.py"), json.dumps(fields), "3"]
    proc = subprocess.Popen(driver, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    assert proc.stdout is not None
    said = proc.stdout.readline()  # blocks until the driver has paused (or ended: then the line is empty)
    assert said == "paused 3\n", said + proc.communicate()[1][-3000:]
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    kept = cache_rows(cache)
    assert kept == 3 and not out.exists()
    cmd = [
        sys.executable, "-m", "xlingmed.cli", "run", "--benchmark", "xlinghealth/medicationqa",
        "--data-dir", str(data_dir),
        "--languages", "en,es", "--limit", "3", "--tasks", "correctness", "--model", "llamacpp/smollm2",
        "--max-tokens", "16", "-T", "judge_max_tokens=8", "--executor", "ray", "--ray-address", cluster.address,
        "-M", "replicas=2", "-M", "replica_batch=1",
        "--quiet", "--no-report", "--cache", str(cache), "--out", str(out),
    ]  # fmt: skip
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

    # the node goes when 2 answers are stored, while the run waits: its replica holds a request then
    at_two = AtStored(2, remove_node)
    try:
        run = evaluate(**_fields(data_dir, tmp_path / "run", cache, **_ray()), progress=at_two)
    finally:
        if lost:  # the module's cluster gets its second node back
            cluster.worker_nodes_list[-1] = cluster.add_node(num_cpus=1)
    assert lost and at_two.fired_at == 2
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


def test_every_socket_the_test_cluster_opened_is_on_loopback(cluster: Any) -> None:
    # last in the module: the GCS, the three raylets, their workers and agents, and the actors of the runs above
    sockets = _listening(_family())
    print(f"{len(sockets)} listening sockets: {sorted({(n, a) for n, a, _ in sockets})}")
    assert any(name == "gcs_server" for name, _, _ in sockets) and sum(n == "raylet" for n, _, _ in sockets) >= 3
    assert [s for s in sockets if not _loopback(s[1])] == []
    assert [a for a in _remote_peers(_family()) if not _loopback(a)] == []  # no traffic beyond loopback either


_LOCAL_POOL = """
import asyncio, json, sys
sys.path.insert(0, sys.argv[1])
from test_ray_executor import _family, _listening, _remote_peers
from xlingmed.engine.executors import RayOptions
from xlingmed.engine.ray_pool import RayPool
from xlingmed.models.base import ModelOptions, get_model
from xlingmed.types import GenerateRequest, Message

async def main():
    opts = ModelOptions(base_url="http://127.0.0.1:9/v1", max_retries=0, timeout_s=5)
    pool = RayPool(get_model("openai/m", opts), "openai/m", opts, RayOptions(replicas=1, cpus_per_replica=0.5))
    comp = await pool.generate(GenerateRequest(messages=(Message("user", "hi"),), temperature=0.0, max_tokens=4))
    import os
    found = {"sockets": _listening(_family()), "peers": _remote_peers(_family()), "error": comp.error,
             "auth": os.environ.get("RAY_AUTH_MODE")}
    await pool.aclose()
    print(json.dumps(found))

asyncio.run(main())
"""


def test_the_local_ray_instance_xlingmed_starts_listens_on_loopback_only(tmp_path: Path) -> None:
    # a fresh process: --executor ray with no --ray-address starts its own instance (RayPool -> bind_loopback);
    # one replica of an HTTP backend, asked once (the server is a closed port: a connect error, fast)
    ours = ("RAY_ADDRESS", "RAY_AUTH_MODE", "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER")  # as a user's shell has them
    env = {k: v for k, v in os.environ.items() if k not in ours}
    proc = subprocess.run([sys.executable, "-c", _LOCAL_POOL, str(Path(__file__).parent)], capture_output=True,
                          text=True, timeout=180, env={**env, "OPENAI_API_KEY": "x"}, cwd=tmp_path)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    found = json.loads(proc.stdout.strip().splitlines()[-1])
    print(f"local instance: {sorted({(n, a) for n, a, _ in found['sockets']})}; auth {found['auth']}")
    assert found["error"] and "connect" in found["error"].lower()  # the replica really answered the request
    assert any(n == "gcs_server" for n, _, _ in found["sockets"]) and any(n == "raylet" for n, _, _ in found["sockets"])
    assert [s for s in found["sockets"] if not _loopback(s[1])] == []
    assert [a for a in found["peers"] if not _loopback(a)] == []
    assert found["auth"] == "token"
