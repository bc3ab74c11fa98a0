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
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from conftest import chromium_page
from typer.testing import CliRunner

from xlingmed.cli import app

ITEMS = {  # invented questions: id → (English, Spanish, options en, options es, answer)
    "q1": ("Which organ pumps blood through the body?", "¿Qué órgano bombea la sangre por el cuerpo?",
           ["Liver", "Heart", "Lung", "Kidney"], ["Hígado", "Corazón", "Pulmón", "Riñón"], "B"),
    "q2": ("Which vitamin deficiency causes scurvy?", "¿La deficiencia de qué vitamina causa el escorbuto?",
           ["Vitamin C", "Vitamin D", "Vitamin K", "Vitamin B12"], ["Vitamina C", "Vitamina D", "Vitamina K",
                                                                    "Vitamina B12"], "A"),
    "q3": ("Which hormone lowers blood glucose?", "¿Qué hormona reduce la glucosa en sangre?",
           ["Glucagon", "Cortisol", "Insulin", "Adrenaline"], ["Glucagón", "Cortisol", "Insulina", "Adrenalina"], "C"),
    "q4": ("What is the normal adult resting heart rate (beats per minute)?",
           "¿Cuál es la frecuencia cardiaca normal de un adulto en reposo (latidos por minuto)?",
           ["20-40", "150-200", "100-140", "60-100"], ["20-40", "150-200", "100-140", "60-100"], "D"),
    "q5": ("Which blood cells carry oxygen?", "¿Qué células sanguíneas transportan oxígeno?",
           ["Platelets", "Red blood cells", "White blood cells", "Plasma cells"],
           ["Plaquetas", "Glóbulos rojos", "Glóbulos blancos", "Células plasmáticas"], "B"),
    "q6": ("Which bone is in the upper arm?", "¿Qué hueso está en la parte superior del brazo?",
           ["Humerus", "Femur", "Tibia", "Ulna"], ["Húmero", "Fémur", "Tibia", "Cúbito"], "A"),
}  # fmt: skip
INSTRUCTION = "Answer the multiple-choice question with a single letter (A, B, C or D)."
runner = CliRunner()


def rows(lang: str) -> list[dict[str, Any]]:
    k = 0 if lang == "en" else 1
    return [{"id": i, "language": lang, "question": v[k], **dict(zip("ABCD", v[2 + k], strict=True)), "answer": v[4]}
            for i, v in ITEMS.items()]  # fmt: skip


def prompt(r: dict[str, Any]) -> str:
    return f"{INSTRUCTION}\n\nQuestion: {r['question']}\nA. {r['A']}\nB. {r['B']}\nC. {r['C']}\nD. {r['D']}\nAnswer:"


def tool_env(tmp: Path, base_url: str) -> dict[str, str]:
    # offline, and every tool's cache in the test's folder (lighteval and datasets cache under HF_HOME)
    return {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1", "HF_HOME": str(tmp / "hf"),
            "LOCAL_BASE_URL": base_url, "LOCAL_API_KEY": "none", "INSPECT_LOG_LEVEL": "warning",
            "LITELLM_LOCAL_MODEL_COST_MAP": "True"}  # fmt: skip


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("items")
    for lang in ("en", "es"):
        (folder / f"mymc_{lang}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows(lang)), "utf-8")
    return folder


@pytest.fixture(scope="module")
def lm_eval_out(data: Path, llama_server: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """lm_eval itself, with a YAML task per language on the local files, ``--log_samples``."""
    tmp = tmp_path_factory.mktemp("lm_eval")
    tasks = tmp / "tasks"
    tasks.mkdir()
    common = {
        "output_type": "generate_until", "test_split": "train", "doc_to_target": "{{answer}}",
        "doc_to_text": INSTRUCTION + "\n\nQuestion: {{question}}\nA. {{A}}\nB. {{B}}\nC. {{C}}\nD. {{D}}\nAnswer:",
        "generation_kwargs": {"until": ["\n\n"], "max_gen_toks": 24, "do_sample": False, "temperature": 0.0},
        "filter_list": [{"name": "letter", "filter": [{"function": "regex", "regex_pattern": r"\b([ABCD])\b"},
                                                      {"function": "take_first"}]}],
        "metric_list": [{"metric": "exact_match", "aggregation": "mean", "higher_is_better": True}],
        "metadata": {"version": 1.0},
    }  # fmt: skip
    for lang in ("en", "es"):
        config = {**common, "task": f"mymc_{lang}", "dataset_path": "json",
                  "dataset_kwargs": {"data_files": {"train": str(data / f"mymc_{lang}.jsonl")}}}  # fmt: skip
        (tasks / f"mymc_{lang}.yaml").write_text(json.dumps(config), "utf-8")  # JSON is YAML
    out = tmp / "out"
    args = (f"model=smollm2,base_url={llama_server}/chat/completions,num_concurrent=1,max_retries=1,"
            "tokenized_requests=False")
    cmd = [sys.executable, "-m", "lm_eval", "--model", "local-chat-completions", "--model_args", args,
           "--tasks", "mymc_en,mymc_es", "--include_path", str(tasks), "--apply_chat_template", "--log_samples",
           "--output_path", str(out)]  # fmt: skip
    done = subprocess.run(cmd, env=tool_env(tmp, llama_server), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return out


@pytest.fixture(scope="module")
def lm_eval_loglikelihood_out(
    data: Path, llama_server: str, smollm2_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """lm_eval's ``multiple_choice`` output type (one log-likelihood per option, ``local-completions``) on the
    first two questions; its tokenizer is SmolLM2's, read from the GGUF file (nothing is downloaded)."""
    from transformers import AutoTokenizer

    tmp = tmp_path_factory.mktemp("lm_eval_ll")
    AutoTokenizer.from_pretrained(smollm2_path.parent, gguf_file=smollm2_path.name).save_pretrained(tmp / "tok")
    for lang in ("en", "es"):
        config = {"task": f"mcll_{lang}", "dataset_path": "json", "test_split": "train",
                  "dataset_kwargs": {"data_files": {"train": str(data / f"mymc_{lang}.jsonl")}},
                  "output_type": "multiple_choice", "doc_to_choice": ["A", "B", "C", "D"],
                  "doc_to_text": "Question: {{question}}\nA. {{A}}\nB. {{B}}\nC. {{C}}\nD. {{D}}\nAnswer:",
                  "doc_to_target": "{{['A', 'B', 'C', 'D'].index(answer)}}", "metric_list": [{"metric": "acc"}],
                  "metadata": {"version": 1.0}}  # fmt: skip
        (tmp / f"mcll_{lang}.yaml").write_text(json.dumps(config), "utf-8")
    args = (f"model=smollm2,base_url={llama_server}/completions,num_concurrent=1,max_retries=1,"
            f"tokenizer={tmp / 'tok'},tokenizer_backend=huggingface,tokenized_requests=False")  # fmt: skip
    cmd = [sys.executable, "-m", "lm_eval", "--model", "local-completions", "--model_args", args, "--tasks",
           "mcll_en,mcll_es", "--include_path", str(tmp), "--limit", "2", "--log_samples", "--output_path",
           str(tmp / "out")]  # fmt: skip
    done = subprocess.run(cmd, env=tool_env(tmp, llama_server), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return tmp / "out"


@pytest.fixture(scope="module")
def inspect_out(data: Path, llama_server: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``inspect eval`` itself on the same questions (generate, then a pattern scorer, as lm-eval's filter)."""
    tmp = tmp_path_factory.mktemp("inspect")
    samples = [{"id": f"{lang}-{r['id']}", "input": prompt(r), "target": r["answer"],
                "choices": [r[k] for k in "ABCD"], "metadata": {"language": lang, "item_id": r["id"]}}
               for lang in ("en", "es") for r in rows(lang)]  # fmt: skip
    (tmp / "task.py").write_text(
        "from inspect_ai import Task, task\nfrom inspect_ai.dataset import MemoryDataset, Sample\n"
        "from inspect_ai.scorer import pattern\nfrom inspect_ai.solver import generate\n\n"
        f"SAMPLES = {samples!r}\n\n@task\ndef mymc():\n"
        "    return Task(dataset=MemoryDataset([Sample(**s) for s in SAMPLES], name='mymc'), solver=generate(),\n"
        "                scorer=pattern(r'\\b([ABCD])\\b'))\n",
        "utf-8",
    )
    out = tmp / "logs"
    # a relative task path: inspect_ai's task discovery refuses an absolute one on Python 3.11
    cmd = [sys.executable, "-m", "inspect_ai", "eval", "task.py@mymc", "--model", "openai-api/local/smollm2",
           "--log-dir", str(out), "--max-tokens", "24", "--temperature", "0", "--max-connections", "1",
           "--display", "none"]  # fmt: skip
    done = subprocess.run(cmd, cwd=tmp, env=tool_env(tmp, llama_server), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return out


def imported(fmt: str, source: Path, out: Path, *extra: str) -> dict[str, Any]:
    result = runner.invoke(app, ["import", fmt, str(source), "--out", str(out), "--no-report", *extra])
    assert result.exit_code == 0, result.output
    summary: dict[str, Any] = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    return summary


def accuracy(summary: dict[str, Any]) -> dict[str, float]:
    langs = summary["tasks"]["multiple_choice"]["languages"]
    return {lang: langs[lang]["0"]["accuracy"] for lang in summary["languages"]}


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
    # nothing to read again: a log-likelihood task has no reply text
    result = runner.invoke(app, ["import", "lm-eval", str(lm_eval_loglikelihood_out), "--out", str(tmp_path / "r"),
                                 "--rescore"])  # fmt: skip
    assert result.exit_code == 2 and "has no reply text to read" in " ".join(result.output.split())


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
        expect = f"{folder / name}:1: task mymc: no language mapping"
    result = runner.invoke(app, ["import", fmt, str(folder), "--out", str(tmp_path / "run")])
    assert result.exit_code == 2, result.output
    line = " ".join(result.output.split())
    assert expect in line, line
    assert len(result.output.strip().splitlines()) <= 3  # one line, as the terminal wraps it
    assert not (tmp_path / "run").exists()
