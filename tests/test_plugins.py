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
        "tests/plugin_example/xlingmed_example/plain_language/__init__.py",
        "tests/plugin_example/xlingmed_example/plain_language/task.py",
        "tests/plugin_example/xlingmed_example/plain_language/summary.py",
        "tests/plugin_example/xlingmed_example/plain_language/view.py",
        "tests/plugin_example/xlingmed_example/plain_language/judge.txt",
        "tests/plugin_example/xlingmed_example/backend.py",
        "tests/plugin_example/xlingmed_example/metric.py",
        "tests/plugin_example/xlingmed_example/similarity.py",
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
    # the caller's PYTHONPATH stays after the plugin's (a checkout's src/ tested without installing it)
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (str(target), os.environ.get("PYTHONPATH"))))}


def _xlingmed(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "xlingmed.cli", *args], env=env, capture_output=True, text=True, timeout=600
    )


def test_list_shows_the_plugins(plugin_env: dict[str, str]) -> None:
    out = _xlingmed(plugin_env, "list")
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    for name in ("example/organs", "plain_language: a judge: is the answer in plain language?",
                 "-T answer_tokens=256", "echo/…: in process", "mentions_doctor"):  # fmt: skip
        assert name in text
    # the built-ins' -M options and presets, with their literal brackets (no console markup eats "[vllm]")
    for name in ("(extra [vllm])", "-M batch=False, batch_max_requests=50000", "-M device=cpu, dtype=auto",
                 "preset medalpaca (--preset medalpaca)"):  # fmt: skip
        assert name in text, name
    out = _xlingmed({**plugin_env, "COLUMNS": "300"}, "list", "metrics")  # wide: no name folded across lines
    assert out.returncode == 0, out.stderr
    rows = {line.split("│")[1].strip() for line in out.stdout.splitlines() if line.count("│") > 2}
    # every metric, declared where it is computed, the plugin's answer metric included
    assert {"sim_2gram", "bertscore_f1", "sim_sent", "sim_lda{k}", "lang_consistency", "macro_f1", "auc_hard_labels",
            "token_f1", "mentions_doctor"} <= rows  # fmt: skip


def test_plugin_benchmark_task_and_backend_end_to_end(plugin_env: dict[str, str], tmp_path: Path) -> None:
    run = tmp_path / "run"
    out = _xlingmed(
        plugin_env, "run", "--benchmark", "example/organs", "--tasks", "multiple_choice,plain_language",
        "--model", "echo/A", "--judge", "echo/Yes", "--languages", "en,es", "-T", "answer_tokens=8", "--out", str(run),
        "--cache", str(tmp_path / "cache.sqlite"), "--quiet", "--no-report",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    summary = json.loads((run / "summary.json").read_text(encoding="utf-8"))
    mc = summary["tasks"]["multiple_choice"]["languages"]
    assert {lang: (cell["0"]["n_correct"], cell["0"]["n"]) for lang, cell in mc.items()} == {"en": (3, 3), "es": (3, 3)}
    plain = summary["tasks"]["plain_language"]["languages"]["es"]
    assert plain == {"plain": {"mean": 1.0, "n": 3}, "metrics": {"mentions_doctor": {"mean": 0.0, "n": 3}}, "unread": 0}
    assert summary["backend_calls"] == 18  # 3 questions × 2 languages × (multiple choice, an answer, its judge)
    assert summary["judge"] == "echo/Yes"  # a judged plugin task names its judge
    scores = pd.read_parquet(run / "scores.parquet")
    verdicts = scores[(scores["task"] == "plain_language") & (scores["metric"] == "plain")]
    assert len(verdicts) == 6 and set(verdicts["value"]) == {1.0} and set(verdicts["parse_method"]) == {"plain_yes"}
    manifest = json.loads((run / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["resolved"]["task_options"]["plain_language"]["answer_tokens"] == 8
    lines = [json.loads(x) for x in (run / "samples.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {x["model"] for x in lines} == {"echo/A", "echo/Yes"}


def test_a_plugin_task_runs_on_built_in_benchmarks_into_the_report_verdicts_and_annotation(
    plugin_env: dict[str, str], data_dir: Path, tmp_path: Path
) -> None:
    """The worked example of docs/extending.md: the plugin task, which no built-in benchmark lists, runs on
    XLingHealth LiveQA and on a user's multiple-choice file; the report shows its section, the verdicts its
    outcome (judge-unverified until people check the judge), and an annotation set samples its judge decisions.
    The task is one package (task, typed summary, view, judge prompt as data), added through an entry point: none
    of this needs an edit to xlingmed."""
    run = tmp_path / "liveqa"
    out = _xlingmed(
        plugin_env, "run", "--benchmark", "xlinghealth/liveqa", "--data-dir", str(data_dir), "--limit", "2",
        "--languages", "en,es,zh,hi", "--tasks", "plain_language", "--model", "echo/Rest",
        "-M", "suffix=, and see a doctor if it lasts.", "--judge", "echo/Yes", "--out", str(run),
        "--cache", str(tmp_path / "cache.sqlite"),
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    # its view's table, from its typed summary, on the command line: every answer plain and naming a doctor
    assert "xlinghealth/liveqa: plain-language answers (judge echo/Yes)" in " ".join(out.stdout.split())
    rows = [[c.strip() for c in line.strip("│").split("│")] for line in out.stdout.splitlines() if "│" in line]
    assert [r for r in rows if r[0] == "es"] == [["es", "100% (n=2)", "100% (n=2)"]], out.stdout
    summary = json.loads((run / "summary.json").read_text(encoding="utf-8"))
    cells = summary["tasks"]["plain_language"]["languages"]
    assert {lang: (c["plain"]["mean"], c["metrics"]["mentions_doctor"]["mean"]) for lang, c in cells.items()} == {
        lang: (1.0, 1.0) for lang in ("en", "es", "zh", "hi")
    }
    html = (run / "report" / "index.html").read_text(encoding="utf-8")
    assert "Plain language (example plugin)" in html and (run / "report" / "figures" / "plain_language.png").is_file()
    verdicts = pd.read_csv(run / "report" / "stats" / "verdicts.csv")
    mine = verdicts[verdicts["outcome"] == "plain_language"]
    assert sorted(mine["lang"]) == ["es", "hi", "zh"] and list(mine["difference"]) == [0.0, 0.0, 0.0]
    assert not mine["judge_verified"].any()  # judged, and no person has checked the judge yet
    out = _xlingmed(plugin_env, "annotate", "sample", str(run), "--out", str(tmp_path / "set"), "--fraction", "1")
    assert out.returncode == 0, out.stderr
    settings = json.loads((tmp_path / "set" / "set.json").read_text(encoding="utf-8"))
    assert (settings["task"], settings["n_items"]) == ("plain_language", 8)
    assert settings["source_file"] == "plain_language.csv"
    assert settings["labels"] == ["yes", "no"]

    mcq = tmp_path / "mcq.csv"
    mcq.write_text("id,language,question,A,B,answer\nq1,en,Which organ pumps blood?,The heart,The liver,A\n"
                   "q1,es,¿Qué órgano bombea la sangre?,El corazón,El hígado,A\n", encoding="utf-8")  # fmt: skip
    out = _xlingmed(
        plugin_env, "run", "--benchmark", f"mcq:{mcq}", "--languages", "en,es", "--tasks",
        "multiple_choice,plain_language", "--model", "echo/A", "--judge", "echo/No", "--out", str(tmp_path / "mcq"),
        "--cache", str(tmp_path / "cache.sqlite"), "--quiet", "--no-report",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    summary = json.loads((tmp_path / "mcq" / "summary.json").read_text(encoding="utf-8"))
    assert summary["tasks"]["multiple_choice"]["languages"]["es"]["0"]["n_correct"] == 1
    assert summary["tasks"]["plain_language"]["languages"]["es"]["plain"] == {"mean": 0.0, "n": 1}


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


def test_a_plugin_consistency_metric_is_one_file(plugin_env: dict[str, str], tmp_path: Path) -> None:
    """``xlingmed_example/similarity.py`` registers a set metric through the ``xlingmed.set_metrics`` entry point;
    consistency computes it beside a built-in, into its CSV, its Scores, its summary and Table A9."""
    items = tmp_path / "items.csv"
    items.write_text(
        "item_id,lang,question,reference\nq1,en,What lowers a fever?,Paracetamol.\n"
        "q1,es,¿Qué baja la fiebre?,El paracetamol.\n",
        encoding="utf-8",
    )
    run = tmp_path / "run"
    out = _xlingmed(
        plugin_env, "run", "--benchmark", f"qa:{items}", "--tasks", "consistency", "--model", "echo/Rest",
        "-M", "suffix= and drink water.", "-T", "consistency_metrics=ngram,same_answer",
        "-T", "consistency_mode=native", "--samples", "3", "--temperatures", "0,1", "--languages", "en,es",
        "--out", str(run), "--cache", str(tmp_path / "cache.sqlite"), "--quiet", "--no-report",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    table = pd.read_csv(run / "consistency.csv")
    assert list(table.columns[-3:]) == ["sim_1gram", "sim_2gram", "same_answer"]
    assert set(table["same_answer"]) == {1.0} and len(table) == 4  # the echo answers alike: 2 languages × 2 τ
    summary = json.loads((run / "summary.json").read_text(encoding="utf-8"))["tasks"]["consistency"]
    assert summary["table_a9"]["columns"]["same_answer"] == "same answer"
    assert summary["table_a9"]["metrics"]["same_answer"]["es"]["cell"] == "1.0000/0.0%"
    assert summary["languages"]["es"]["1"]["metrics"]["same_answer"] == {"mean": 1.0, "sd": None, "n": 1}  # 1 question
    scores = pd.read_parquet(run / "scores.parquet")
    assert len(scores[scores["metric"] == "same_answer"]) == 4
