"""``xlingmed import`` on logs the tools themselves wrote, and ``xlingmed export inspect`` read back by inspect_ai.

lm-evaluation-harness and inspect_ai each run a small multiple-choice task (six invented questions, English and
Spanish, the same ids in both) against the session's real llama.cpp server (SmolLM2). lighteval cannot run
offline: every run imports its built-in tasks, one of which downloads ``tinyBenchmarks.pkl`` from GitHub, and with
litellm installed its model loader fails at import (``LiteLLMCacheType.DISK``); so its details files are written
by lighteval's own ``EvaluationTracker`` from the same server's replies. Each import must give lm-eval's,
inspect's and lighteval's own per-language accuracy; ``--rescore`` must count per language how each reply was
read. About two minutes in all: the tools' start-up, 48 short completions and 16 log-likelihood requests.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest
from conftest import chromium_page
from tool_logs import ITEMS, accuracy, imported, prompt, rows, runner

from xlingmed.cli import app


def test_lm_eval_samples_import_with_its_own_accuracy_and_rescore_counts(lm_eval_out: Path, tmp_path: Path) -> None:
    (results_file,) = lm_eval_out.rglob("results_*.json")
    results = json.loads(results_file.read_text(encoding="utf-8"))["results"]
    summary = imported("lm-eval", lm_eval_out, tmp_path / "run")
    assert summary["languages"] == ["en", "es"] and summary["n_items_per_language"] == {"en": 6, "es": 6}
    got = accuracy(summary)
    assert got["en"] == pytest.approx(results["mymc_en"]["exact_match,letter"])  # the numbers are lm-eval's
    assert got["es"] == pytest.approx(results["mymc_es"]["exact_match,letter"])
    assert summary["imported"]["tool"] == "lm-evaluation-harness" and summary["imported"]["version"]
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text(encoding="utf-8"))
    assert {Path(f["path"]).name.split("_20")[0] for f in manifest["imported"]["files"]} >= {
        "samples_mymc_en", "samples_mymc_es"}
    assert all(len(f["sha256"]) == 64 for f in manifest["imported"]["files"])
    # paired by item: the verdict statistics see six pairs
    scores = pd.read_parquet(tmp_path / "run" / "scores.parquet")
    assert sorted(scores.groupby("lang")["item_id"].nunique().items()) == [("en", 6), ("es", 6)]
    # --rescore: xlingmed reads each raw reply again; every reply is counted per language under one method
    rescored = imported("lm-eval", lm_eval_out, tmp_path / "rescored", "--rescore")
    methods = rescored["tasks"]["multiple_choice"]["parsing"]["methods"]
    assert {lang: sum(m.values()) for lang, m in methods.items()} == {"en": 6, "es": 6}
    readings = rescored["imported"]["readings"]
    table = pd.read_csv(tmp_path / "rescored" / "multiple_choice.csv", dtype={"item_id": str})
    for lang in ("en", "es"):
        mine = table[table["lang"] == lang]
        both = mine["prediction"].notna() & mine["source_prediction"].notna()
        differ = both & (mine["prediction"] != mine["source_prediction"])
        assert readings[lang]["read_differently"] == int(differ.sum())
        assert readings[lang]["source_accuracy"] == pytest.approx(got[lang])
        assert readings[lang]["xlingmed_accuracy"] == pytest.approx((mine["prediction"] == mine["gold"]).mean())
    # how the replies were read again is the user's choice, recorded with the log's settings
    lenient = imported("lm-eval", lm_eval_out, tmp_path / "lenient", "--rescore", "--reading", "lenient",
                       "--answer-marker", "Answer:")  # fmt: skip
    assert lenient["imported"]["settings"]["reading"] == "lenient"
    assert lenient["imported"]["settings"]["answer_marker"] == "Answer:"
    assert rescored["imported"]["settings"]["reading"] == "strict"


def test_lm_eval_loglikelihood_tasks_import_with_the_top_ranked_option(lm_eval_loglikelihood_out: Path,
                                                                         tmp_path: Path) -> None:  # fmt: skip
    (results_file,) = lm_eval_loglikelihood_out.rglob("results_*.json")
    results = json.loads(results_file.read_text(encoding="utf-8"))["results"]
    summary = imported("lm-eval", lm_eval_loglikelihood_out, tmp_path / "run")
    assert accuracy(summary) == {"en": pytest.approx(results["mcll_en"]["acc,none"]),
                                 "es": pytest.approx(results["mcll_es"]["acc,none"])}  # fmt: skip
    assert summary["tasks"]["multiple_choice"]["parsing"]["methods"] == {
        "en": {"source_loglikelihood": 2}, "es": {"source_loglikelihood": 2}}  # fmt: skip
    table = pd.read_csv(tmp_path / "run" / "multiple_choice.csv", dtype={"item_id": str})
    assert list(table["gold"][:2]) == [ITEMS[i][4] for i in ("q1", "q2")]  # the target index, as a letter
    # the option the log-likelihoods rank first is the reading; right exactly when lm-eval's acc says so
    assert ((table["prediction"] == table["gold"]) == (table["source_correct"] == 1.0)).all()
    # nothing to read again: a log-likelihood task has no reply text, so it keeps lm-eval's reading, and says so
    result = runner.invoke(app, ["import", "lm-eval", str(lm_eval_loglikelihood_out), "--out", str(tmp_path / "r"),
                                 "--rescore", "--no-report"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "--rescore kept lm-evaluation-harness's reading of task mcll_en: no reply text" in " ".join(
        result.output.split())
    readings = json.loads((tmp_path / "r" / "summary.json").read_text("utf-8"))["imported"]["readings"]
    assert {lang: (r["kept_source_reading"], r["xlingmed_accuracy"]) for lang, r in readings.items()} == {
        lang: (2, pytest.approx(r["source_accuracy"])) for lang, r in readings.items()}


def test_imported_run_renders_verdicts_and_both_readings_in_chromium(lm_eval_out: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["import", "lm-eval", str(lm_eval_out), "--out", str(tmp_path / "run"), "--rescore"])
    assert result.exit_code == 0, result.output
    assert "against English" in result.output  # the verdict line, as after a run
    index = tmp_path / "run" / "report" / "index.html"
    problems: list[str] = []
    with chromium_page(problems) as page:
        page.goto(index.as_uri(), wait_until="load")
        assert page.locator("#x-status").inner_text() == "6 of 6 shown"
        assert page.locator("#explorer-body", has_text="source tool read:").count() == 1
        assert "imported" in page.content()
    assert problems == []


def test_inspect_logs_import_with_inspects_own_accuracy(inspect_out: Path, lm_eval_out: Path, tmp_path: Path) -> None:
    from inspect_ai.log import read_eval_log

    from xlingmed.report import build_report

    (log_file,) = inspect_out.glob("*.eval")
    log = read_eval_log(str(log_file))
    assert log.status == "success"  # inspect exits 0 even when a task errors
    own = {lang: [s.scores["pattern"].value == "C" for s in log.samples if s.metadata["language"] == lang]
           for lang in ("en", "es")}  # fmt: skip
    summary = imported("inspect", inspect_out, tmp_path / "run")
    assert summary["model"] == "openai-api/local/smollm2"
    renamed = imported("inspect", inspect_out, tmp_path / "renamed", "--model", "local/smollm2-135m")
    assert renamed["model"] == "local/smollm2-135m"
    assert renamed["imported"]["settings"]["model_as_logged"] == "openai-api/local/smollm2"
    assert accuracy(summary) == {lang: pytest.approx(sum(v) / len(v)) for lang, v in own.items()}
    overall = log.results.scores[0].metrics["accuracy"].value
    assert (sum(own["en"]) + sum(own["es"])) / 12 == pytest.approx(overall)
    # two imported runs compare as any two runs do: one report, both models, item by item
    imported("lm-eval", lm_eval_out, tmp_path / "lm_eval_run")
    index = build_report([tmp_path / "lm_eval_run", tmp_path / "run"], tmp_path / "both", n_resamples=200)
    page = index.read_text(encoding="utf-8")
    assert "openai-api/local/smollm2" in page and "local-chat-completions/smollm2" in page
    assert list((tmp_path / "both" / "stats").glob("models_*.csv"))  # the paired comparison of the two models
    # a copy of the log with half its samples (results.total_samples still 12) is refused unless --allow-partial
    from inspect_ai.log import write_eval_log

    log.samples = log.samples[:6]
    write_eval_log(log, str(tmp_path / "cut" / log_file.name))
    result = runner.invoke(app, ["import", "inspect", str(tmp_path / "cut"), "--out", str(tmp_path / "r2")])
    assert result.exit_code == 2
    assert "task mymc: 6 samples in the log, inspect_ai's results file says 12" in " ".join(result.output.split())
    assert imported("inspect", tmp_path / "cut", tmp_path / "r3", "--allow-partial")["imported"]["partial"] == ["mymc"]
    # samples without a score: one (its scorer failed) is a loss; none at all is a log run with --no-score
    log = read_eval_log(str(log_file))
    log.samples[0].scores = None
    write_eval_log(log, str(tmp_path / "one_unscored" / log_file.name))
    unscored = imported("inspect", tmp_path / "one_unscored", tmp_path / "r6")
    assert sum(cell["n"] for cell in (unscored["tasks"]["multiple_choice"]["languages"][lang]["0"]
                                      for lang in ("en", "es"))) == 11  # fmt: skip
    for sample in log.samples:
        sample.scores = None
    write_eval_log(log, str(tmp_path / "unscored" / log_file.name))
    result = runner.invoke(app, ["import", "inspect", str(tmp_path / "unscored"), "--out", str(tmp_path / "r7")])
    assert result.exit_code == 2 and "has no scores (run with --no-score" in " ".join(result.output.split())
    log = read_eval_log(str(log_file))
    log.samples = log.samples[:6]
    log.status = "cancelled"  # a run stopped early (inspect's cancel): refused, or imported as partial
    write_eval_log(log, str(tmp_path / "cancelled" / log_file.name))
    result = runner.invoke(app, ["import", "inspect", str(tmp_path / "cancelled"), "--out", str(tmp_path / "r4")])
    assert result.exit_code == 2 and "did not finish (status cancelled); --allow-partial" in " ".join(
        result.output.split())
    assert imported("inspect", tmp_path / "cancelled", tmp_path / "r5", "--allow-partial")["imported"]["partial"] == [
        "mymc"]
    rescored = imported("inspect", inspect_out, tmp_path / "rescored", "--rescore", "--pair-by", "metadata.item_id")
    assert {k: sum(v.values()) for k, v in rescored["tasks"]["multiple_choice"]["parsing"]["methods"].items()} == {
        "en": 6, "es": 6}


def test_lighteval_details_written_by_lighteval_import_with_its_metric(
    data: Path, llama_server: str, tmp_path: Path
) -> None:
    from lighteval.logging.evaluation_tracker import EvaluationTracker
    from lighteval.metrics.metrics_sample import ExactMatches
    from lighteval.models.abstract_model import ModelConfig
    from lighteval.models.model_output import ModelResponse
    from lighteval.tasks.requests import Doc
    from openai import OpenAI

    client = OpenAI(base_url=llama_server, api_key="none")
    # lighteval's own exact match, on the letter a regex finds (as the helper task of lighteval's docs)
    letter_em = ExactMatches(strip_strings=True, normalize_pred=lambda s: ((m := re.search(r"\b([ABCD])\b", s))
                             and m.group(1)) or s)  # fmt: skip
    tracker = EvaluationTracker(output_dir=str(tmp_path / "lighteval"), save_details=True)
    tracker.general_config_logger.log_model_info(model_config=ModelConfig(model_name="smollm2"))
    own: dict[str, list[float]] = {"en": [], "es": []}
    for lang in ("en", "es"):
        for r in rows(lang):
            doc = Doc(query=prompt(r), choices=["A", "B", "C", "D"], gold_index="ABCD".index(r["answer"]),
                      task_name=f"mymc_{lang}|0", specific={"language": lang, "item_id": r["id"]})  # fmt: skip
            reply = client.chat.completions.create(model="smollm2", max_tokens=24, temperature=0,
                                                   messages=[{"role": "user", "content": doc.query}])  # fmt: skip
            text = reply.choices[0].message.content or ""
            response = ModelResponse(input=[{"role": "user", "content": doc.query}], text=[text])
            em = float(letter_em.compute(doc=doc, model_response=response))
            own[lang].append(em)
            tracker.details_logger.log(doc.task_name, doc, response, {"letter_em": em})
            tracker.metrics_logger.log(doc.task_name, {"letter_em": em})
    tracker.save()
    details = sorted((tmp_path / "lighteval" / "details").rglob("details_*.parquet"))
    assert len(details) == 2
    summary = imported("lighteval", tmp_path / "lighteval" / "details", tmp_path / "run")
    assert accuracy(summary) == {lang: pytest.approx(sum(v) / 6) for lang, v in own.items()}
    assert summary["model"] == "lighteval/smollm2"
    assert summary["imported"]["metrics"] == {"mymc_en|0": "letter_em", "mymc_es|0": "letter_em"}
    # the sample counts of lighteval's results file (config_tasks, as lighteval's pipeline logs them): a details
    # file cut short is refused
    (results_file,) = (tmp_path / "lighteval" / "results").rglob("results_*.json")
    written = json.loads(results_file.read_text("utf-8"))
    written["config_tasks"] = {f"mymc_{lang}|0": {"name": f"mymc_{lang}", "original_num_docs": 6,
                                                  "effective_num_docs": 6} for lang in ("en", "es")}  # fmt: skip
    results_file.write_text(json.dumps(written), "utf-8")
    whole = imported("lighteval", tmp_path / "lighteval" / "details", tmp_path / "whole")
    assert whole["imported"]["sample_counts"]["mymc_en|0"] == {"logged": 6, "expected": 6}
    shutil.copytree(tmp_path / "lighteval", tmp_path / "cut")
    (first,) = [p for p in (tmp_path / "cut" / "details").rglob("details_mymc_en*.parquet")]
    pd.read_parquet(first).head(4).to_parquet(first)
    result = runner.invoke(app, ["import", "lighteval", str(tmp_path / "cut" / "details"), "--out",
                                 str(tmp_path / "r2")])  # fmt: skip
    assert result.exit_code == 2
    assert "task mymc_en|0: 4 samples in the log, lighteval's results file says 6" in " ".join(result.output.split())


def test_export_inspect_is_read_back_by_inspect_ai(data: Path, llama_server: str, tmp_path: Path) -> None:
    from inspect_ai.log import read_eval_log

    table = tmp_path / "items.csv"
    pd.DataFrame([{"id": r["id"], "lang": lang, "question": r["question"], "A": r["A"], "B": r["B"], "C": r["C"],
                   "D": r["D"], "answer": r["answer"]} for lang in ("en", "es") for r in rows(lang)]).to_csv(
        table, index=False)  # fmt: skip
    run = tmp_path / "run"
    result = runner.invoke(app, ["run", "--benchmark", f"mcq:{table}", "--languages", "en,es", "--model",
                                 "openai/smollm2", "--base-url", llama_server, "--max-tokens", "24", "--no-report",
                                 "--no-logprobs", "--out", str(run)])  # fmt: skip
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["export", "inspect", str(run), "--out", str(tmp_path / "logs")])
    assert result.exit_code == 0, result.output
    log = read_eval_log(str(tmp_path / "logs" / "multiple_choice.eval"))
    completions = [json.loads(line) for line in (run / "samples.jsonl").read_text("utf-8").splitlines()]
    assert len(log.samples) == len(completions) == 12  # one sample per completion
    scores = pd.read_parquet(run / "scores.parquet")
    for sample in log.samples:
        meta = sample.metadata
        mine = scores[(scores["item_id"] == meta["item_id"]) & (scores["lang"] == meta["language"])]
        (value,) = mine[mine["metric"] == "correct"]["value"]
        assert sample.scores["correct"].value == value
        assert sample.scores["correct"].answer == mine[mine["metric"] == "correct"]["answer"].iloc[0]
    correct = scores[scores["metric"] == "correct"]["value"]
    assert log.results.scores[0].metrics["mean"].value == pytest.approx(correct.mean())


@pytest.mark.parametrize("case", ["truncated", "other_format", "no_language"])
def test_bad_input_is_one_line_with_exit_2(case: str, lm_eval_out: Path, tmp_path: Path) -> None:
    (samples,) = lm_eval_out.rglob("samples_mymc_en_*.jsonl")
    folder = tmp_path / "src"
    folder.mkdir()
    fmt = "lm-eval"
    if case == "truncated":  # a run killed while writing: the last line is cut
        text = samples.read_text(encoding="utf-8")
        (folder / samples.name).write_text(text[: len(text) - 40], encoding="utf-8")
        expect = f"{folder / samples.name}:6: not a JSON record"
    elif case == "other_format":  # lm-eval's samples file given as an inspect log
        fmt, folder = "inspect", samples
        expect = f"{samples}: not an inspect_ai log"
    else:  # a task whose name and documents say no language
        lines = [json.loads(line) for line in samples.read_text(encoding="utf-8").splitlines()]
        for line in lines:
            line["doc"].pop("language")
        name = samples.name.replace("mymc_en", "mymc")
        (folder / name).write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
        expect = f"{folder / name}:1: task mymc: no language (no language code in the task name"
    result = runner.invoke(app, ["import", fmt, str(folder), "--out", str(tmp_path / "run")])
    assert result.exit_code == 2, result.output
    line = " ".join(result.output.split())
    assert expect in line, line
    assert len(result.output.strip().splitlines()) <= 3  # one line, as the terminal wraps it
    assert not (tmp_path / "run").exists()
