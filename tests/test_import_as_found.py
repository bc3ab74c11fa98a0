"""``xlingmed import`` on logs as people have them (issue 48): a log of one language with nothing to pair, a language
xlingmed has no file for, a copy cut short, several tasks in one import (each kept apart), a per-sample metric that
is no accuracy, and an existing ``--out``. The logs are written by lm-evaluation-harness and inspect_ai themselves
(``tool_logs.py``), then copied and cut as a user's files are."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from tool_logs import imported, runner, tool_env

from xlingmed.cli import app


def _copy(source: Path, dest: Path, keep: str = "") -> Path:
    """The samples and results files of ``source`` whose names contain ``keep``, flat in ``dest``."""
    dest.mkdir(parents=True)
    for path in source.rglob("*.json*"):
        if keep in path.name or path.name.startswith("results_"):
            shutil.copy(path, dest / path.name)
    return dest


def _strip_language(folder: Path, old: str, new: str) -> None:
    """As an English-only task is logged: no language in its name nor in its documents."""
    for path in list(folder.glob(f"samples_{old}_*.jsonl")):
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        for line in lines:
            line["doc"].pop("language", None)
            line["doc"].pop("id", None)  # nothing to pair by either
        path.with_name(path.name.replace(old, new)).write_text(
            "".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")  # fmt: skip
        path.unlink()
    for path in folder.glob("results_*.json"):
        path.write_text(path.read_text(encoding="utf-8").replace(f'"{old}"', f'"{new}"'), encoding="utf-8")


def test_a_one_language_log_imports_with_language_and_its_report_builds(lm_eval_out: Path, tmp_path: Path) -> None:
    source = _copy(lm_eval_out, tmp_path / "src", "mymc_en")
    _strip_language(source, "mymc_en", "medquiz")
    refused = runner.invoke(app, ["import", "lm-eval", str(source), "--out", str(tmp_path / "no")])
    assert refused.exit_code == 2 and "give it with --language CODE" in " ".join(refused.output.split())
    result = runner.invoke(app, ["import", "lm-eval", str(source), "--language", "en", "--out", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "r" / "summary.json").read_text("utf-8"))
    (results_file,) = source.glob("results_*.json")
    own = json.loads(results_file.read_text("utf-8"))["results"]["medquiz"]["exact_match,letter"]
    assert summary["languages"] == ["en"]
    assert summary["tasks"]["multiple_choice"]["languages"]["en"]["0"]["accuracy"] == pytest.approx(own, abs=1e-9)
    assert (tmp_path / "r" / "report" / "index.html").is_file()
    items = pd.read_csv(tmp_path / "r" / "multiple_choice.csv", dtype={"item_id": str})["item_id"]
    assert list(items) == [f"medquiz#{k}" for k in range(6)]  # lm-eval's doc_id: pairs with nothing


def test_a_language_without_a_file_here_is_a_language_of_the_run(lm_eval_out: Path, tmp_path: Path) -> None:
    source = _copy(lm_eval_out, tmp_path / "src", "mymc_es")
    _strip_language(source, "mymc_es", "mymc_ca")  # as a Catalan task is named
    summary = imported("lm-eval", source, tmp_path / "r", "--language-from", "task")
    assert summary["languages"] == ["ca"]
    page = runner.invoke(app, ["report", str(tmp_path / "r")])
    assert page.exit_code == 0, page.output
    assert "Catalan" in (tmp_path / "r" / "report" / "index.html").read_text("utf-8")


def test_a_truncated_copy_is_refused_unless_allowed(lm_eval_out: Path, tmp_path: Path) -> None:
    source = _copy(lm_eval_out, tmp_path / "src")
    (samples,) = source.glob("samples_mymc_en_*.jsonl")
    lines = samples.read_text(encoding="utf-8").splitlines(keepends=True)
    samples.write_text("".join(lines[:3]), encoding="utf-8")  # cut at a line boundary: every line still parses
    result = runner.invoke(app, ["import", "lm-eval", str(source), "--out", str(tmp_path / "r")])
    line = " ".join(result.output.split())
    assert result.exit_code == 2 and "task mymc_en: 3 samples in the log, lm-evaluation-harness's results file says 6" \
        in line and "--allow-partial" in line  # fmt: skip
    assert not (tmp_path / "r").exists()
    summary = imported("lm-eval", source, tmp_path / "r", "--allow-partial")
    assert summary["imported"]["partial"] == ["mymc_en"]
    manifest = json.loads((tmp_path / "r" / "manifest.json").read_text("utf-8"))
    assert manifest["imported"]["sample_counts"]["mymc_en"] == {"logged": 3, "expected": 6}


def test_several_tasks_are_kept_apart_per_task_and_language(
    lm_eval_out: Path, lm_eval_loglikelihood_out: Path, tmp_path: Path
) -> None:
    both = tmp_path / "both"
    _copy(lm_eval_out, both / "a")
    _copy(lm_eval_loglikelihood_out, both / "b")
    # the two runs went through two lm-eval backends (chat and completions) of one server: two models to lm-eval
    refused = runner.invoke(app, ["import", "lm-eval", str(both), "--out", str(tmp_path / "r")])
    assert refused.exit_code == 2 and "logs of several models (local-chat-completions/smollm2, " \
        "local-completions/smollm2)" in " ".join(refused.output.split())  # fmt: skip
    summary = imported("lm-eval", both, tmp_path / "r", "--model", "local/smollm2")
    assert summary["dataset"]["tasks_apart"] is True
    assert summary["imported"]["sample_counts"]["mcll_es"] == {"logged": 2, "expected": 2}  # both results files
    results = {}
    for path in both.rglob("results_*.json"):
        results.update(json.loads(path.read_text("utf-8"))["results"])
    cells = summary["tasks"]["multiple_choice"]["languages"]
    for task, metric in (("mymc", "exact_match,letter"), ("mcll", "acc,none")):
        for lang in ("en", "es"):
            got = cells[lang]["0"]["per_category"][task]
            assert got["n_correct"] / got["n"] == pytest.approx(results[f"{task}_{lang}"][metric], abs=1e-9)
    # items of two tasks never pair: every statistic and verdict is on one task's items
    from xlingmed.report import build_report

    build_report([tmp_path / "r"], n_resamples=200)
    verdicts = pd.read_csv(tmp_path / "r" / "report" / "stats" / "verdicts.csv")
    assert sorted(set(verdicts["task"])) == ["multiple_choice[mcll]", "multiple_choice[mymc]"]
    assert set(verdicts[verdicts["task"] == "multiple_choice[mcll]"]["n_items"]) == {2}  # --limit 2
    assert set(verdicts[verdicts["task"] == "multiple_choice[mymc]"]["n_items"]) == {6}
    gaps = pd.read_csv(tmp_path / "r" / "report" / "stats" / "gaps.csv")
    assert set(gaps["criterion"]) == {"multiple_choice[mcll]", "multiple_choice[mymc]"}
    # pooled on request: the two tasks ask the same questions under the same ids, so one language has each twice
    pooled = runner.invoke(app, ["import", "lm-eval", str(both), "--out", str(tmp_path / "p"), "--model", "m/x",
                                 "--pool-tasks"])  # fmt: skip
    assert pooled.exit_code == 2 and "pooled tasks need ids unique across them" in " ".join(pooled.output.split())
    # --out exists: refused without --overwrite, replaced with it
    again = runner.invoke(app, ["import", "lm-eval", str(both), "--out", str(tmp_path / "r"), "--no-report",
                                "--model", "local/smollm2"])  # fmt: skip
    assert again.exit_code == 2 and "exists; --overwrite replaces it" in " ".join(again.output.split())
    imported("lm-eval", both, tmp_path / "r", "--overwrite", "--model", "local/smollm2")


def test_a_metric_that_is_no_accuracy_keeps_its_name_and_inspects_mean(
    data: Path, llama_server: str, tmp_path: Path
) -> None:
    """inspect_ai itself, with a scorer whose value per sample is a number in [0, 1.5] (reply length / 100)."""
    from inspect_ai.log import read_eval_log

    samples = [{"id": f"{lang}-{k}", "input": f"Say a word about the heart ({lang} {k}).",
                "metadata": {"language": lang, "item_id": f"q{k}"}}
               for lang in ("en", "es") for k in range(3)]  # fmt: skip
    (tmp_path / "task.py").write_text(
        "from inspect_ai import Task, task\nfrom inspect_ai.dataset import MemoryDataset, Sample\n"
        "from inspect_ai.scorer import Score, mean, scorer\nfrom inspect_ai.solver import generate\n\n"
        "@scorer(metrics=[mean()])\ndef length():\n    async def score(state, target):\n"
        "        return Score(value=min(len(state.output.completion), 150) / 100)\n    return score\n\n"
        f"SAMPLES = {samples!r}\n\n@task\ndef lengths():\n"
        "    return Task(dataset=MemoryDataset([Sample(**s) for s in SAMPLES]), solver=generate(), scorer=length())\n",
        "utf-8",
    )
    cmd = [sys.executable, "-m", "inspect_ai", "eval", "task.py@lengths", "--model", "openai-api/local/smollm2",
           "--log-dir", str(tmp_path / "logs"), "--max-tokens", "16", "--temperature", "0", "--max-connections",
           "1", "--display", "none"]  # fmt: skip
    done = subprocess.run(cmd, cwd=tmp_path, env=tool_env(tmp_path, llama_server), capture_output=True, text=True,
                          timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    (log_file,) = (tmp_path / "logs").glob("*.eval")
    log = read_eval_log(str(log_file))
    summary = imported("inspect", tmp_path / "logs", tmp_path / "r")
    assert list(summary["tasks"]) == ["source_metric"]
    assert summary["tasks"]["source_metric"]["metric"] == "length"  # the scorer's own name
    means = summary["tasks"]["source_metric"]["languages"]
    for lang in ("en", "es"):
        own = [float(s.scores["length"].value) for s in log.samples if s.metadata["language"] == lang]
        assert means[lang]["mean"] == pytest.approx(sum(own) / len(own), abs=1e-9)
    overall = log.results.scores[0].metrics["mean"].value
    assert (means["en"]["mean"] + means["es"]["mean"]) / 2 == pytest.approx(overall, abs=1e-9)
    # a verdict needs a margin in the metric's own units: without one it says so; with one it is given
    from xlingmed.report import build_report

    build_report([tmp_path / "r"], n_resamples=200)
    (row,) = pd.read_csv(tmp_path / "r" / "report" / "stats" / "verdicts.csv").to_dict(orient="records")
    assert row["verdict"] == "inconclusive" and "no margin: --margin logged_metric=δ" in row["reason"]
    build_report([tmp_path / "r"], tmp_path / "with_margin", n_resamples=200, margins="logged_metric=0.5")
    (row,) = pd.read_csv(tmp_path / "with_margin" / "stats" / "verdicts.csv").to_dict(orient="records")
    assert row["margin"] == 0.5 and "no margin" not in row["reason"]


def test_older_and_renamed_lm_eval_files_and_a_filter_named_with_the_metric(lm_eval_out: Path, tmp_path: Path) -> None:
    source = _copy(lm_eval_out, tmp_path / "src")
    (results,) = source.glob("results_*.json")
    renamed = results.rename(source / f"mymc-smollm2_{results.name[8:]}")  # as a user renamed it
    for path in source.glob("samples_*.jsonl"):  # as lm-eval 0.4.3 wrote lines: no "metrics" nor "filter" keys
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        path.write_text("".join(json.dumps({k: v for k, v in line.items() if k not in ("metrics", "filter")}) + "\n"
                                for line in lines), encoding="utf-8")  # fmt: skip
    summary = imported("lm-eval", source, tmp_path / "r", "--metric", "exact_match,letter")
    own = json.loads(renamed.read_text("utf-8"))["results"]
    cells = summary["tasks"]["multiple_choice"]["languages"]
    assert cells["en"]["0"]["accuracy"] == pytest.approx(own["mymc_en"]["exact_match,letter"], abs=1e-9)
    assert summary["model"] == "local-chat-completions/smollm2"  # the renamed results file was read
    assert summary["imported"]["sample_counts"]["mymc_es"] == {"logged": 6, "expected": 6}
    plain = imported("lm-eval", source, tmp_path / "plain")  # the config's metric_list names the metric
    assert plain["imported"]["metrics"] == {"mymc_en": "exact_match", "mymc_es": "exact_match"}
    wrong = runner.invoke(app, ["import", "lm-eval", str(source), "--metric", "exact_match,strict-match", "--out",
                                str(tmp_path / "w")])  # fmt: skip
    assert wrong.exit_code == 2
    assert "task mymc_en has no filter 'strict-match' (it has letter)" in " ".join(wrong.output.split())


def test_model_names_as_the_tools_layouts_and_paths_give_them() -> None:
    from xlingmed.importers.base import model_name
    from xlingmed.importers.lighteval import _model_dir

    layout = Path("out/details/Qwen/Qwen2.5-7B-Instruct/2026-01-02T03-04-05.678901/details_x_2026.parquet")
    assert _model_dir(layout) == "Qwen/Qwen2.5-7B-Instruct"  # details/<org>/<model>/<date>/
    assert _model_dir(Path("out/details/smollm2/2026-01-02T03-04-05/details_x.parquet")) == "smollm2"
    assert _model_dir(Path("elsewhere/details_x.parquet")) is None
    assert model_name("/data/ckpt/Qwen2.5-7B/", "hf") == ("hf/Qwen2.5-7B", "/data/ckpt/Qwen2.5-7B/")
    assert model_name("Qwen/Qwen2.5-7B", "hf") == ("Qwen/Qwen2.5-7B", None)
    assert model_name("smollm2", "local-completions") == ("local-completions/smollm2", None)
