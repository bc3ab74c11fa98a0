"""Every MedArabiQ task end to end with the embedded SmolLM2 on the synthetic fixtures (BERTScore: MiniLM)."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import medarabiq_fixtures as fx
import numpy as np
import pytest

from xlingmed import evaluate, make_config
from xlingmed.benchmarks.medarabiq import load_items
from xlingmed.parsing.choice import extract_choice

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fx.write_all(tmp_path_factory.mktemp("medarabiq"))


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _run(data: Path, out: Path, task: str, **kw: Any):  # type: ignore[no-untyped-def]
    return evaluate(make_config(benchmark=f"medarabiq/{task}", data_dir=data, model="llamacpp/smollm2", out=out, **kw))


@pytest.mark.parametrize(("task", "languages"), [("mcq", "ar"), ("fitb_choices", "ar,en")])
def test_multiple_choice_end_to_end(data: Path, tmp_path: Path, task: str, languages: str) -> None:
    first = _run(data, tmp_path / "run", task, languages=languages, limit=4)
    n_langs = len(languages.split(","))
    assert first.backend_calls == 4 * n_langs and first.failed_requests == 0
    summary = json.loads((tmp_path / "run" / "summary.json").read_text(encoding="utf-8"))
    assert summary["dataset"]["version"] == "unknown version" and summary["dataset"]["rows_used"] == 4
    mc = summary["tasks"]["multiple_choice"]
    assert mc["settings"]["temperatures"] == [0.0]  # SmolLM2 is an open model: the paper's 0.0
    rows = _rows(tmp_path / "run" / "multiple_choice.csv")
    assert len(rows) == 4 * n_langs
    items = {(it.item_id, it.lang): it for it in load_items(task, data, tuple(languages.split(",")), limit=4)[0]}
    for lang in languages.split(","):
        sel = [r for r in rows if r["lang"] == lang]
        for r in sel:  # the stored prediction is the extraction rule applied to the stored reply
            choices = items[(r["item_id"], lang)].choices
            n_options = 5 if (task == "mcq" and int(r["item_id"][-3:]) in fx.MCQ_FIVE_OPTIONS) else 4
            assert len(choices) == n_options
            parsed = extract_choice(
                r["response"], [c.label for c in choices], options={c.label: c.text for c in choices}
            )
            assert (parsed.value or "", parsed.method) == (r["prediction"], r["parse_method"])
            assert r["correct"] == str(parsed.value == r["gold"])
        cell = mc["languages"][lang]["0"]
        assert cell["n"] == 4 and cell["n_correct"] == sum(r["correct"] == "True" for r in sel)
        assert cell["n_invalid"] == sum(r["valid"] == "False" for r in sel)
        t1 = next(r for r in mc["table1"] if r["lang"] == lang)
        assert (t1["numerator"], t1["denominator"]) == (cell["n_correct"], 4)
    again = _run(data, tmp_path / "again", task, languages=languages, limit=4)
    assert again.backend_calls == 0 and again.summary["tasks"] == first.summary["tasks"]


def test_bias_conditions_end_to_end(data: Path, tmp_path: Path) -> None:
    result = _run(data, tmp_path / "run", "mcq_bias", limit=3, paper_compat=True)
    assert result.backend_calls == 15  # 3 items × 5 conditions, each its own prompt
    lines = [json.loads(x) for x in (tmp_path / "run" / "samples.jsonl").read_text(encoding="utf-8").splitlines()]
    prompts = {x["sample"].split("-")[0]: x["prompt"][0]["content"] for x in lines if x["item_id"] == "mcq_bias-000"}
    assert set(prompts) == {"original", "biased", "education", "one_shot", "few_shot"}
    assert prompts["biased"].endswith(fx.bias_rows(1)[0][4]) and fx.BIAS_SENTENCE[1] in prompts["biased"]
    assert all(p.startswith("This is a multiple-choice question") for p in prompts.values())
    mc = result.summary["tasks"]["multiple_choice"]
    conds = mc["languages"]["ar"]["0"]["conditions"]
    assert set(conds) == {"original", "biased", "education", "one_shot", "few_shot"}
    assert all(c["n"] == 3 for c in conds.values())
    assert "mcnemar_vs_original" in conds["biased"] and conds["original"]["per_bias"].keys() == {
        "confirmation",
        "recency",
        "frequency",
    }
    table2 = _rows(tmp_path / "run" / "multiple_choice_table2.csv")
    assert table2[0]["original"].endswith("/3)")
    assert result.summary["dataset"]["flagged_items"] == {}
    from xlingmed.report import build_report

    html = build_report([tmp_path / "run"], n_resamples=100).read_text(encoding="utf-8")
    assert "Accuracy per bias condition (MedArabiQ Table 2 layout)" in html and "exact McNemar" in html


def test_open_qa_bertscore_equals_the_library(data: Path, tmp_path: Path, minilm_path: str) -> None:
    from bert_score import BERTScorer

    result = _run(
        data, tmp_path / "run", "fitb_open", languages="ar,en", limit=3, bertscore_model=minilm_path,
        bertscore_layers=6,
    )  # fmt: skip
    assert result.backend_calls == 6
    rows = _rows(tmp_path / "run" / "open_qa.csv")
    scored = [r for r in rows if r["response"]]
    scorer = BERTScorer(model_type=minilm_path, num_layers=6)
    p, r, f = scorer.score([x["response"] for x in scored], [x["reference"] for x in scored])
    got = np.array([[float(x["bertscore_p"]), float(x["bertscore_r"]), float(x["bertscore_f1"])] for x in scored])
    assert np.allclose(got, 100 * np.stack([p.numpy(), r.numpy(), f.numpy()], axis=1), atol=1e-4)
    q = result.summary["tasks"]["open_qa"]
    assert q["settings"]["bertscore"]["model"] == minilm_path and "L6" in q["settings"]["bertscore"]["hash"]
    ar = q["languages"]["ar"]["0"]["bertscore_f1"]
    assert ar["n"] == 3
    assert ar["mean"] == pytest.approx(np.mean([float(x["bertscore_f1"]) for x in rows if x["lang"] == "ar"]))
    assert [r["lang"] for r in q["table1"]] == ["ar", "en"]
    prompt = json.loads((tmp_path / "run" / "samples.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert "Provide the correct answer in Arabic" in prompt["prompt"][0]["content"]


@pytest.mark.parametrize("task", ["qa", "qa_gec", "qa_llm"])
def test_patient_doctor_qa_with_rubric_end_to_end(data: Path, tmp_path: Path, minilm_path: str, task: str) -> None:
    result = _run(
        data, tmp_path / "run", task, tasks="open_qa,rubric", limit=2, max_tokens=24, judge_max_tokens=48,
        bertscore_model=minilm_path, bertscore_layers=6,
    )  # fmt: skip
    # the rubric's answers are the open_qa answers, read from the cache: 2 answers + 2 judgements
    assert result.backend_calls == 4 and result.cache_hits == 2
    q = result.summary["tasks"]["open_qa"]["languages"]["ar"]["0.4"]  # open model, Q&A: the paper's 0.4
    assert q["n_items"] == 2 and q["bertscore_f1"]["n"] == 2
    rub = result.summary["tasks"]["rubric"]["languages"]["ar"]["0.4"]
    assert rub["n_judged"] == 2 and rub["n_errors"] == 0
    rows = _rows(tmp_path / "run" / "rubric.csv")
    assert sum(r["parse"] == "unparsed" for r in rows) == rub["n_unparsed"]
    lines = [json.loads(x) for x in (tmp_path / "run" / "samples.jsonl").read_text(encoding="utf-8").splitlines()]
    judge_prompt = next(x for x in lines if x["stage"] == "judge")["prompt"][0]["content"]
    assert judge_prompt.startswith("You are an expert medical assistant") and "\nGround truth: " in judge_prompt
    answer_prompt = next(x for x in lines if x["stage"] == "answer")["prompt"][0]["content"]
    assert answer_prompt.startswith("السؤال: ") and answer_prompt.endswith("\nالإجابة:")
