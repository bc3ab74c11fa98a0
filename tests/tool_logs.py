"""What the import tests share: six invented questions in English and Spanish, and the logs lm-evaluation-harness
and inspect_ai themselves write on them against the session's llama.cpp server (SmolLM2); session-scoped, so each
tool runs once for every test module that imports these fixtures, and once for all pytest-xdist workers (the first
worker that asks writes them in the folder the workers share, as ``conftest.full_run``; the others read them)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
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


def made_once(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]) -> Path:
    """``make(folder)`` run once per test session, under pytest-xdist once for all its workers: in a folder of the
    session's shared temporary root, guarded by a lock; a worker that finds it made reads it (it is never changed
    after it is made: the tests copy what they cut)."""
    from filelock import FileLock

    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    folder = root / f"tool-logs-{name}"
    with FileLock(str(root / f"tool-logs-{name}.lock")):
        if not (root / f"tool-logs-{name}.done").exists():
            shutil.rmtree(folder, ignore_errors=True)  # a worker's failed attempt
            folder.mkdir()
            make(folder)
            (root / f"tool-logs-{name}.done").touch()
    return folder


@pytest.fixture(scope="session")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    def make(folder: Path) -> None:
        for lang in ("en", "es"):
            (folder / f"mymc_{lang}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows(lang)), "utf-8")

    return made_once(tmp_path_factory, "items", make)


@pytest.fixture(scope="session")
def lm_eval_out(data: Path, llama_server: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """lm_eval itself, with a YAML task per language on the local files, ``--log_samples`` (made once for all
    workers: ``test_import_tools`` and ``test_import_as_found`` both read it)."""
    return made_once(tmp_path_factory, "lm_eval", lambda tmp: _run_lm_eval(data, llama_server, tmp)) / "out"


def _run_lm_eval(data: Path, llama_server: str, tmp: Path) -> None:
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


@pytest.fixture(scope="session")
def lm_eval_loglikelihood_out(
    data: Path, llama_server: str, smollm2_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """lm_eval's ``multiple_choice`` output type (one log-likelihood per option, ``local-completions``) on the
    first two questions; its tokenizer is SmolLM2's, read from the GGUF file (nothing is downloaded). Made once for
    all workers: ``test_import_tools`` and ``test_import_as_found`` both read it."""
    folder = made_once(
        tmp_path_factory, "lm_eval_ll", lambda tmp: _run_lm_eval_loglikelihood(data, llama_server, smollm2_path, tmp)
    )
    return folder / "out"


def _run_lm_eval_loglikelihood(data: Path, llama_server: str, smollm2_path: Path, tmp: Path) -> None:
    from transformers import AutoTokenizer

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


@pytest.fixture(scope="session")
def inspect_out(data: Path, llama_server: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``inspect eval`` itself on the same questions (generate, then a pattern scorer, as lm-eval's filter); made
    once for all workers, as the two above."""
    return made_once(tmp_path_factory, "inspect", lambda tmp: _run_inspect(llama_server, tmp)) / "logs"


def _run_inspect(llama_server: str, tmp: Path) -> None:
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


def imported(fmt: str, source: Path, out: Path, *extra: str) -> dict[str, Any]:
    result = runner.invoke(app, ["import", fmt, str(source), "--out", str(out), "--no-report", *extra])
    assert result.exit_code == 0, result.output
    summary: dict[str, Any] = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    return summary


def accuracy(summary: dict[str, Any]) -> dict[str, float]:
    langs = summary["tasks"]["multiple_choice"]["languages"]
    return {lang: langs[lang]["0"]["accuracy"] for lang in summary["languages"]}


