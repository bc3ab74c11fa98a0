"""Every command of the tutorials runs as written (issue 64): each fenced ``bash`` block of ``docs/tutorials/*.md``
that is not marked ``<!-- needs: network -->``, ``<!-- needs: gpu -->`` or ``<!-- needs: people -->`` runs, in
order, in one scratch folder per page, against the local scripted server of ``fault_server.py``.

The one substitution is the server: the tutorials name a real API model (``openai/gpt-4o-mini``), and the OpenAI
SDK's own ``OPENAI_BASE_URL`` points it here, as it would point it at any OpenAI-compatible server; the XLingHealth
files come from ``XLINGMED_DATA_DIR`` (the documented offline alternative to the download), and what a skipped
block would have fetched (MedArabiQ's CSVs, another tool's logs) is written by the page's fixture below. A renamed
option makes its block exit non-zero, and the test fail.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from fault_server import FaultServer, Reply, ok

REPO = Path(__file__).resolve().parents[1]
TUTORIALS = REPO / "docs" / "tutorials"
MARKERS = ("network", "gpu", "people")  # the only reasons a tutorial's block is not run here
BLOCK = re.compile(r"(?:<!-- needs: (?P<needs>[\w-]+) -->\n)?```bash\n(?P<code>.*?)\n```", re.S)
LABEL = re.compile(r"^\s*(?:([A-Za-z]|\d{1,2}|[\u0621-\u064A])[.)]|([\u2460-\u2473])[.)]?)\s", re.M)


def blocks(page: Path) -> list[tuple[str | None, str]]:
    """(marker or None, code) of every fenced bash block of ``page``, in order."""
    return [(m["needs"], m["code"]) for m in BLOCK.finditer(page.read_text(encoding="utf-8"))]


def answer(prompt: str, attempt: int) -> Reply:
    """A multiple-choice prompt gets its second option, in the labels the prompt printed; anything else a yes."""
    labels = [a or b for a, b in LABEL.findall(prompt)]
    if len(labels) >= 2:
        return ok(f"Answer: {labels[1]}")
    return ok("Yes. The answer is consistent with the reference.")


@pytest.fixture(scope="module")
def server() -> Iterator[FaultServer]:
    with FaultServer(answer) as s:
        yield s


def shell_env(tmp: Path, server: FaultServer, data_dir: Path) -> dict[str, str]:
    """The reader's shell: ``xlingmed`` on PATH (this checkout's, through this interpreter), a key, the server."""
    bin_dir = tmp / "bin"
    bin_dir.mkdir(exist_ok=True)
    shim = bin_dir / "xlingmed"
    shim.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m xlingmed.cli \"$@\"\n", encoding="utf-8")
    shim.chmod(0o755)
    env = dict(os.environ)
    env.update(PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", OPENAI_BASE_URL=server.url,
               OPENAI_API_KEY="sk-docs-test", XLINGMED_CACHE=str(tmp / "cache.sqlite"),
               XLINGMED_DATA_DIR=str(data_dir), PYTHONPATH=os.pathsep.join(sys.path), NO_COLOR="1",
               COLUMNS="200")  # fmt: skip
    return env


def run_page(name: str, work: Path, env: dict[str, str]) -> list[str]:
    """Runs every unmarked block of the page; returns each block's output. Fails on the first non-zero exit."""
    page = TUTORIALS / name
    outputs = []
    for needs, code in blocks(page):
        if needs is not None:
            assert needs in MARKERS, f"{name}: unknown marker needs: {needs}"
            continue
        done = subprocess.run(["bash", "-euo", "pipefail", "-c", code], cwd=work, env=env, capture_output=True,
                              text=True, timeout=240)  # fmt: skip
        assert done.returncode == 0, f"{name}: block exited {done.returncode}\n{code}\n{done.stdout}\n{done.stderr}"
        outputs.append(done.stdout + done.stderr)
    return outputs


# --- what the marked blocks would have fetched --------------------------------------------------------------------

QUESTIONS = [  # invented: (pairing id, English, Spanish, options, gold index)
    ("q1", "Which organ pumps blood?", "¿Qué órgano bombea la sangre?", ["Liver", "Heart", "Lung", "Kidney"], 1),
    ("q2", "Which vitamin prevents scurvy?", "¿Qué vitamina previene el escorbuto?",
     ["Vitamin C", "Vitamin D", "Vitamin K", "Vitamin A"], 0),
    ("q3", "Which hormone lowers blood glucose?", "¿Qué hormona reduce la glucosa?",
     ["Glucagon", "Cortisol", "Insulin", "Adrenaline"], 2),
]  # fmt: skip
DATE = "2025-01-01T00-00-00.000000"


def write_lm_eval(root: Path) -> None:
    """lm-eval's ``--log_samples`` output for Global-MMLU anatomy in English and Spanish (its file names and fields)."""
    folder = root / "gpt-4o-mini"
    folder.mkdir(parents=True)
    for lang in ("en", "es"):
        task = f"global_mmlu_full_{lang}_anatomy"
        with open(folder / f"samples_{task}_{DATE}.jsonl", "w", encoding="utf-8") as f:
            for k, (sid, en, es, opts, gold) in enumerate(QUESTIONS):
                picked = gold if (k + (lang == "es")) % 2 == 0 else (gold + 1) % 4
                lls = [[-1.0 if i == picked else -5.0, False] for i in range(4)]
                doc = {"sample_id": sid, "question": en if lang == "en" else es, "answer": "ABCD"[gold],
                       **{f"option_{c}": o for c, o in zip("abcd", opts, strict=True)}}  # fmt: skip
                f.write(json.dumps({"doc_id": k, "doc": doc, "target": gold, "resps": [[x] for x in lls],
                                    "arguments": [[doc["question"], f" {c}"] for c in "ABCD"],
                                    "filtered_resps": lls, "filter": "none", "metrics": ["acc"],
                                    "acc": float(picked == gold)}) + "\n")  # fmt: skip
    tasks = [f"global_mmlu_full_{lang}_anatomy" for lang in ("en", "es")]
    (folder / f"results_{DATE}.json").write_text(json.dumps({
        "configs": {t: {"output_type": "multiple_choice"} for t in tasks}, "lm_eval_version": "0.4.13",
        "n-samples": {t: {"original": len(QUESTIONS), "effective": len(QUESTIONS)} for t in tasks}}))  # fmt: skip


def write_lighteval(root: Path) -> None:
    """lighteval's ``--save-details`` parquet (``doc``, ``metric``, ``model_response`` structs) in its layout."""
    folder = root / "details" / "openai" / "gpt-4o-mini" / DATE
    folder.mkdir(parents=True)
    rows = []
    for lang in ("en", "es"):
        for k, (sid, en, es, opts, gold) in enumerate(QUESTIONS):
            picked = gold if k % 2 == 0 else (gold + 1) % 4
            rows.append({"doc": {"query": en if lang == "en" else es, "choices": opts, "gold_index": gold,
                                 "task_name": "community|anatomy|0", "specific": {"item_id": sid, "language": lang}},
                         "metric": {"acc": float(picked == gold)},
                         "model_response": {"text": ["ABCD"[picked]], "text_post_processed": ["ABCD"[picked]]}})
    pq.write_table(pa.Table.from_pylist(rows), folder / f"details_community|anatomy|0_{DATE}.parquet")


def write_inspect(work: Path, env: dict[str, str]) -> None:
    """An inspect_ai ``.eval`` log, written through inspect_ai's own classes by ``xlingmed export inspect``."""
    rows = [{"id": sid, "language": "en", "question": en, "options": dict(zip("ABCD", opts, strict=True)),
             "answer": "ABCD"[gold]} for sid, en, _, opts, gold in QUESTIONS]  # fmt: skip
    (work / "mc.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    code = ("xlingmed run --benchmark mcq:mc.jsonl --languages en --model openai/gpt-4o-mini --no-report "
            "--out runs/for-inspect && xlingmed export inspect runs/for-inspect --out logs")
    subprocess.run(["bash", "-euo", "pipefail", "-c", code], cwd=work, env=env, check=True, capture_output=True)


# --- the tutorials ------------------------------------------------------------------------------------------------


def test_every_tutorial_is_run_here_and_marks_only_known_needs() -> None:
    pages = sorted(p.name for p in TUTORIALS.glob("*.md"))
    assert pages == sorted(RUN_CHECKS), "a tutorial without a test here (add it to RUN_CHECKS)"
    for page in pages:
        found = blocks(TUTORIALS / page)
        assert any(needs is None for needs, _ in found), page  # every journey has commands a test runs
        assert {needs for needs, _ in found} - {None, *MARKERS} == set(), page


def _summary(work: Path, run: str) -> dict:
    return json.loads((work / run / "summary.json").read_text(encoding="utf-8"))


def check_api_model(work: Path, out: list[str]) -> None:
    assert "total" in out[1]  # the dry run's plan
    s = _summary(work, "runs/gpt-4o-mini")
    assert sorted(s["tasks"]) == ["correctness", "verifiability"]
    assert sorted(s["tasks"]["verifiability"]["languages"]) == ["en", "es", "hi", "zh"]
    verdict = (work / "runs/gpt-4o-mini/report/verdict.txt").read_text(encoding="utf-8")
    assert "Hindi: inconclusive" in out[3] and "verifiability_f1 δ = 0.03" in out[3]  # `cat verdict.txt`
    assert out[4].splitlines()[0].startswith("task,outcome,metric")  # `cut` of verdicts.csv
    assert "δ = 10.0 percentage points" in out[5]
    assert "verifiability_f1 δ = 0.05" in verdict  # the margins of step 5 reached the rewritten report


def check_medarabiq(work: Path, out: list[str]) -> None:
    for run in ("runs/mcq", "runs/fitb", "runs/mcq-bias", "runs/fitb-bias"):
        assert (work / run / "report" / "index.html").is_file(), run
    assert sorted(_summary(work, "runs/fitb")["tasks"]["multiple_choice"]["languages"]) == ["ar", "en"]
    assert (work / "runs/mcq-bias/multiple_choice_bias.csv").is_file()
    header = out[4].splitlines()[0].split(",")  # `cat multiple_choice_table2.csv`
    assert header[2:4] == ["original", "biased"]


def check_own_exam(work: Path, out: list[str]) -> None:
    kinds = _summary(work, "runs/exam")["tasks"]["multiple_choice"]["parsing"]["kinds"]
    # numbered (es, en), circled (ko, en) and a–e (ja, en) options: every reply in the exam's labels is read
    assert {lang: k["read"] for lang, k in kinds.items()} == {"en": 3, "es": 1, "ko": 1, "ja": 1}
    assert "'read': 3" in out[2]
    assert (work / "runs/exam-bias/report/index.html").is_file()


def check_import_logs(work: Path, out: list[str]) -> None:
    lm = _summary(work, "runs/imported-lmeval")
    manifest = json.loads((work / "runs/imported-lmeval/manifest.json").read_text())
    assert manifest["imported"]["tool"] == "lm-evaluation-harness"
    accuracy = {lang: v["0"]["accuracy"] for lang, v in lm["tasks"]["multiple_choice"]["languages"].items()}
    assert accuracy == pytest.approx({"en": 2 / 3, "es": 1 / 3})  # the tool's own acc, per language
    assert "Spanish" in out[1]
    for run in ("runs/imported-inspect", "runs/imported-lighteval"):
        assert (work / run / "report" / "index.html").is_file(), run
    assert (work / "reports/compare/index.html").is_file()


def check_human_labels(work: Path, out: list[str]) -> None:
    assert (work / "ann/batch1/set.json").is_file() and (work / "ann/batch1/agreement.csv").is_file()
    assert (work / "runs/judged/report/stats/verdicts.csv").is_file()


def check_build_benchmark(work: Path, out: list[str]) -> None:
    rows = [json.loads(line) for line in (work / "data/liveqa_ar_sw.jsonl").read_text().splitlines()]
    assert {r["lang"] for r in rows} >= {"en", "ar", "sw"}
    assert all(r["translator"] == "openai/gpt-4o" for r in rows if r["lang"] != "en")
    assert sorted(_summary(work, "runs/liveqa_ar_sw")["tasks"]["correctness"]["languages"]) == ["ar", "en", "sw"]
    assert [line.split()[:3] for line in out[1].splitlines()] == [["ar", "2", "2"], ["sw", "2", "2"]]  # flagged
    assert (work / "data/liveqa_en_paraphrased.jsonl").is_file()
    assert (work / "audits/liveqa_ar/items.csv").is_file() and (work / "audits/liveqa_ar/summary.csv").is_file()


def check_scale_out(work: Path, out: list[str]) -> None:
    assert _summary(work, "runs/ray")["executor"]["kind"] == "ray"
    merged = _summary(work, "runs/sharded/all")
    assert sorted(merged["tasks"]["correctness"]["languages"]) == ["en", "hi"]
    assert (work / "runs/sharded/all/report/verdict.txt").read_text().strip() in out[-1]


RUN_CHECKS = {
    "api-model.md": check_api_model,
    "medarabiq.md": check_medarabiq,
    "own-exam.md": check_own_exam,
    "import-logs.md": check_import_logs,
    "human-labels.md": check_human_labels,
    "build-benchmark.md": check_build_benchmark,
    "scale-out.md": check_scale_out,
}


# The pages run in two files (this one and test_docs_tutorials_more.py), so that pytest-xdist's --dist loadfile
# runs the slow ones (the other tools' logs, Ray) beside these instead of after them.
SECOND_HALF = ("build-benchmark.md", "import-logs.md", "scale-out.md")


@pytest.mark.parametrize("page", sorted(set(RUN_CHECKS) - set(SECOND_HALF)))
def test_the_tutorial_runs_as_written(page: str, server: FaultServer, data_dir: Path, tmp_path: Path) -> None:
    run_tutorial(page, server, data_dir, tmp_path)


def run_tutorial(page: str, server: FaultServer, data_dir: Path, tmp_path: Path) -> None:
    """Run ``page``'s blocks in a scratch folder against ``server`` and check what they wrote."""
    work = tmp_path / "work"
    work.mkdir()
    env = shell_env(tmp_path, server, data_dir)
    if page == "medarabiq.md":
        from medarabiq_fixtures import write_all

        write_all(work / "MedArabiQ" / "datasets", n_bias=10)
    if page == "import-logs.md":
        write_lm_eval(work / "results")
        write_lighteval(work / "out")
        write_inspect(work, env)
    calls = server.calls
    out = run_page(page, work, env)
    assert (server.calls > calls) == (page != "import-logs.md")  # the model was asked, except to import
    RUN_CHECKS[page](work, out)


def test_a_renamed_option_fails_the_tutorial(server: FaultServer, data_dir: Path, tmp_path: Path) -> None:
    """What protects a reader: the same block with one option renamed exits 2 and names the option."""
    (_, code), *_ = [b for b in blocks(TUTORIALS / "own-exam.md") if b[0] is None and "xlingmed run" in b[1]]
    renamed = code.replace("--languages", "--langs")
    assert renamed != code
    work = tmp_path / "work"
    work.mkdir()
    env = shell_env(tmp_path, server, data_dir)
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", renamed], cwd=work, env=env, capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.returncode == 2
    assert "--langs" in done.stdout + done.stderr
