"""Consistency end to end with the embedded SmolLM2, on the suite's real run (``conftest.full_run``): K=2,
τ ∈ {0, 1}, 2 MedicationQA items × 3 languages; then a cached re-run, native mode and the report of both."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Any

import golden_runs
import pytest
from conftest import FullRun

from xlingmed import evaluate
from xlingmed.tasks.consistency import sample_seed

pytestmark = pytest.mark.slow

LANGS = ("en", "zh", "hi")
METRICS = (
    "sim_1gram",
    "sim_2gram",
    "length_mean",
    "bertscore_f1",
    "sim_sent",
    "sim_lda20",
    "sim_lda100",
    "sim_hdp",
    "lang_consistency",
)


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _float_differences(got: Any, want: Any) -> list[str]:
    """Where two summaries differ: keys, counts and labels exactly; floats within the noise of the float32 encoders
    (BERTScore, sim_sent), compared as the golden runs compare them. ``full_run`` may have been made by another
    pytest-xdist worker, with its own share of the CPUs: torch and MKL sum in another order with another number of
    threads (seen: 1.5e-7 in BERTScore between one and two threads under AVX-512), as they do on another CPU."""
    a: dict[str, Any] = {}
    b: dict[str, Any] = {}
    golden_runs.flatten(want, "", str, a)
    golden_runs.flatten(got, "", str, b)
    return [f"{k}: {a.get(k)!r} -> {b.get(k)!r}" for k in sorted(a.keys() | b.keys())
            if k not in a or k not in b or not golden_runs.same(a[k], b[k], abs_tol=1e-6)]  # fmt: skip


def test_consistency_end_to_end(full_run: FullRun, tmp_path: Path, minilm_path: str) -> None:
    out = full_run.out
    first = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    lines = [json.loads(x) for x in (out / "samples.jsonl").read_text().splitlines()]
    answers = [x for x in lines if x["task"] == "consistency" and x["stage"] == "answer"]
    translations = [x for x in lines if x["stage"] == "translate"]
    # 2 items × 3 languages × 2 temperatures × K=2, each its own request with its own recorded seed
    assert len(answers) == 24
    assert {(x["sample"], x["seed"]) for x in answers} == {
        (f"t{t}-k{k}", sample_seed(42, k)) for t in ("0", "1") for k in range(2)
    }
    # paper mode: only non-English answers are back-translated; identical answers are translated once
    assert {x["lang"] for x in translations} == {"zh", "hi"}
    assert all(x["temperature"] == 0.0 and "to English" in x["prompt"][1]["content"] for x in translations)
    distinct_translations = len({json.dumps(x["prompt"]) for x in translations})
    others = sum(1 for x in lines if x["task"] != "consistency")
    assert first["backend_calls"] == 24 + distinct_translations + others
    assert first["failed_requests"] == 0

    c = first["tasks"]["consistency"]
    assert c["settings"]["mode"] == "paper" and c["settings"]["translator"] == "llamacpp/smollm2"
    assert c["settings"]["bertscore"] == {
        "model": minilm_path,
        "layer": 6,
        "idf": False,
        "rescale_with_baseline": False,
        "baseline_lang": None,
        "source": {"model": "user", "layer": "user", "idf": "paper default", "rescale": "paper default"},
    }
    assert c["settings"]["sim_sent"]["source"] == {"model": "user"} and c["settings"]["langid_scope"] == "paper"
    for lang in LANGS:
        for t in ("0", "1"):
            cond = c["languages"][lang][t]
            assert cond["n_questions"] == 2
            for m in METRICS:
                assert cond["metrics"][m]["mean"] is not None, (lang, t, m)
        for m in ("sim_sent", "bertscore_f1", "sim_1gram", "sim_2gram", "length_mean", "sim_hdp", "sim_lda20"):
            assert c["table_a9"]["metrics"][m][lang]["value"] is not None
    assert c["table_a9"]["metrics"]["sim_1gram"]["en"]["change_vs_en_pct"] == 0.0

    rows = _rows(out / "consistency.csv")
    assert len(rows) == 12
    en0 = [r for r in rows if r["lang"] == "en" and r["temperature"] == "0.0"]
    en1 = [r for r in rows if r["lang"] == "en" and r["temperature"] == "1.0"]
    # τ = 0 is greedy: the K answers are identical, so every similarity is 1 and the length sd is 0
    for r in en0:
        assert float(r["sim_1gram"]) == 1.0 and float(r["sim_2gram"]) == 1.0
        assert float(r["bertscore_f1"]) == pytest.approx(1.0, abs=1e-5)
        assert float(r["sim_sent"]) == pytest.approx(1.0, abs=1e-5)
        assert float(r["length_sd"]) == 0.0
    # τ = 1 samples with different seeds: the answers differ
    assert any(float(r["sim_1gram"]) < 1.0 for r in en1)
    a9 = _rows(out / "consistency_table_a9.csv")
    assert [r["lang"] for r in a9] == list(LANGS) and a9[0]["sim_sent"].endswith("/0.0%")
    assert len(_rows(out / "consistency_samples.csv")) == 24

    # a re-run is served from the cache and reproduces the numbers (topic models are seeded)
    again = evaluate(full_run.config(tasks="consistency", out=tmp_path / "again"))
    consistency_calls = 24 + distinct_translations
    assert again.backend_calls == 0 and again.cache_hits == consistency_calls
    stored = json.loads((tmp_path / "again" / "summary.json").read_text(encoding="utf-8"))
    assert _float_differences(stored["tasks"]["consistency"]["languages"], c["languages"]) == []

    # native mode re-scores the same cached answers on the original text: no new request at all
    native = evaluate(full_run.config(tasks="consistency", consistency_mode="native", out=tmp_path / "native"))
    assert native.backend_calls == 0
    n = native.summary["tasks"]["consistency"]
    assert n["settings"]["mode"] == "native" and n["settings"]["translator"] is None
    assert n["languages"]["en"]["0"]["metrics"]["sim_1gram"]["mean"] == 1.0
    assert all(n["languages"][lang]["1"]["metrics"]["sim_1gram"]["mean"] is not None for lang in LANGS)

    # the report is rebuilt from the stored results alone
    from xlingmed.report import build_report

    index = build_report([tmp_path / "again", tmp_path / "native"], tmp_path / "report", n_resamples=200)
    html = index.read_text(encoding="utf-8")
    assert html.count("data:image/png;base64,") == 6  # forest, lines, boxes for each of the two runs
    assert re.search(r'(src|href)="(?!data:|#)', html) is None  # self-contained: no external resource
    assert "Models side by side" in html and "toy model" in html
    assert {p.name for p in (tmp_path / "report" / "figures").iterdir()} == {
        f"run{k}_{name}.png" for k in (1, 2) for name in ("forest", "consistency_lines", "consistency_boxes")
    }
    gaps = _rows(tmp_path / "report" / "stats" / "run1_gaps.csv")
    assert {r["lang"] for r in gaps} == {"zh", "hi"}
    assert all(int(r["n_items"]) == 2 for r in gaps if r["metric"] == "sim_1gram")
