"""A user's package adds a benchmark, a task, a backend and an answer metric through entry points.

The example plugin in ``tests/plugin_example`` is what ``docs/extending.md`` shows, verbatim; it is installed with
pip into a folder of its own (never into the test environment) and run through the real command line.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

REPO = Path(__file__).resolve().parents[1]
PLUGIN = REPO / "tests" / "plugin_example"


def test_the_recipes_are_the_plugin_verbatim() -> None:
    doc = (REPO / "docs" / "extending.md").read_text(encoding="utf-8")
    blocks = re.findall(r"<!-- file: (\S+) -->\n```\w+\n(.*?)\n```", doc, flags=re.S)
    assert [name for name, _ in blocks] == [
        "tests/plugin_example/pyproject.toml",
        "tests/plugin_example/xlingmed_example/benchmark.py",
        "tests/plugin_example/xlingmed_example/task.py",
        "tests/plugin_example/xlingmed_example/backend.py",
        "tests/plugin_example/xlingmed_example/metric.py",
    ]
    for name, text in blocks:
        assert (REPO / name).read_text(encoding="utf-8").rstrip() == text, name


@pytest.fixture(scope="module")
def plugin_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The example plugin pip-installed into its own folder; the environment that puts it on the path."""
    target = tmp_path_factory.mktemp("plugin-site")
    build = tmp_path_factory.mktemp("plugin-src")
    # pip builds in a copy: the source folder stays free of build output
    subprocess.run(["cp", "-r", str(PLUGIN), str(build / "src")], check=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--no-index",
         "--target", str(target), str(build / "src")],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    assert list(target.glob("xlingmed_example-*.dist-info/entry_points.txt"))
    return {**os.environ, "PYTHONPATH": str(target)}


def _xlingmed(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "xlingmed.cli", *args], env=env, capture_output=True, text=True, timeout=600
    )


def test_list_shows_the_plugins(plugin_env: dict[str, str]) -> None:
    out = _xlingmed(plugin_env, "list")
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    for name in ("example/organs", "answer_length: words in the answer", "-T answer_tokens=64", "echo/…: in process",
                 "mentions_doctor"):  # fmt: skip
        assert name in text
    # the built-ins' -M options and presets, with their literal brackets (no console markup eats "[vllm]")
    for name in ("(extra [vllm])", "-M batch=False, batch_max_requests=50000", "-M device=cpu, dtype=auto",
                 "preset medalpaca (--preset medalpaca)"):  # fmt: skip
        assert name in text, name


def test_plugin_benchmark_task_and_backend_end_to_end(plugin_env: dict[str, str], tmp_path: Path) -> None:
    run = tmp_path / "run"
    out = _xlingmed(
        plugin_env, "run", "--benchmark", "example/organs", "--tasks", "multiple_choice,answer_length",
        "--model", "echo/A", "--languages", "en,es", "-T", "answer_tokens=8", "--out", str(run),
        "--cache", str(tmp_path / "cache.sqlite"), "--quiet", "--no-report",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    summary = json.loads((run / "summary.json").read_text(encoding="utf-8"))
    mc = summary["tasks"]["multiple_choice"]["languages"]
    assert {lang: (cell["0"]["n_correct"], cell["0"]["n"]) for lang, cell in mc.items()} == {"en": (3, 3), "es": (3, 3)}
    assert summary["tasks"]["answer_length"]["languages"]["es"] == {"n": 3, "mean_words": 1.0}
    assert summary["backend_calls"] == 12  # 3 questions × 2 languages × 2 tasks
    scores = pd.read_parquet(run / "scores.parquet")
    words = scores[scores["task"] == "answer_length"]
    assert len(words) == 6 and set(words["value"]) == {1.0} and not words["higher_is_better"].any()
    manifest = json.loads((run / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["resolved"]["task_options"]["answer_length"] == {"answer_tokens": 8}
    lines = [json.loads(x) for x in (run / "samples.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {x["model"] for x in lines} == {"echo/A"}


def test_plugin_metric_and_backend_option(plugin_env: dict[str, str], tmp_path: Path) -> None:
    items = tmp_path / "items.csv"
    items.write_text(
        "item_id,lang,question,reference\n"
        "q1,en,What lowers a fever?,Paracetamol; ask your doctor if it lasts.\n"
        "q1,es,¿Qué baja la fiebre?,El paracetamol; consulte a su médico si dura.\n",
        encoding="utf-8",
    )
    run = tmp_path / "run"
    out = _xlingmed(
        plugin_env, "run", "--benchmark", f"qa:{items}", "--tasks", "correctness", "--model", "echo/Ask",
        "-M", "suffix= your doctor", "-T", "answer_metrics=mentions_doctor,token_f1", "--languages", "en,es",
        "--out", str(run), "--cache", str(tmp_path / "cache.sqlite"), "--quiet", "--no-report",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    summary = json.loads((run / "summary.json").read_text(encoding="utf-8"))
    metrics = summary["tasks"]["correctness"]["answer_metrics"]
    assert metrics["mentions_doctor"] == {"en": {"mean": 1.0, "n": 1}, "es": {"mean": 1.0, "n": 1}}
    # "Ask your doctor" against the English reference: 3 of 3 answer tokens in 7 reference tokens
    assert metrics["token_f1"]["en"]["mean"] == pytest.approx(100 * 2 * 1.0 * (3 / 7) / (1.0 + 3 / 7))
    table = pd.read_csv(run / "correctness.csv")
    assert list(table["answer"]) == ["Ask your doctor", "Ask your doctor"]
    scores = pd.read_parquet(run / "scores.parquet")
    doctor = scores[scores["metric"] == "mentions_doctor"]
    assert list(doctor["kind"]) == ["binary", "binary"] and list(doctor["value"]) == [1.0, 1.0]
