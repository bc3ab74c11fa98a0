"""The two seeds meet, on the embedded model (issue 19's acceptance): LiveQA translated into Arabic and a
MedArabiQ-format multiple-choice fixture translated into English by SmolLM2 in process (a toy translation through
the real pipeline: cache, back-translation, chrF and BERTScore with the packaged MiniLM), then correctness and
verifiability on the Arabic LiveQA and multiple choice on the English MedArabiQ items, each paired with its source
items, in one report; the audit and a paraphrase variant run on the same model.

Slow-ish (about a minute): every step generates with a real 135M model on CPU; token limits are kept small.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from xlingmed.cli import app


def _ok(*args: object) -> str:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return str(result.output)


@pytest.mark.slow  # runs a model in process
def test_liveqa_in_arabic_and_medarabiq_in_english_in_one_report(
    tmp_path: Path, data_dir: Path, minilm_path: str
) -> None:
    from medarabiq_fixtures import write_all

    cache = tmp_path / "cache.sqlite"
    common = ["--translator", "llamacpp/smollm2", "--cache", cache, "--quiet"]
    liveqa_ar = tmp_path / "liveqa_ar.jsonl"
    out = _ok("translate", "xlinghealth/liveqa", "--data-dir", data_dir, "--to", "ar", "--out", liveqa_ar,
              "--limit", 2, "--fields", "question,reference", "--max-tokens", 32, "--bertscore-model", minilm_path,
              "--bertscore-layers", 6, *common)  # fmt: skip
    assert "qa:" in out
    record = json.loads((tmp_path / "liveqa_ar.translation.json").read_text(encoding="utf-8"))
    (ar,) = record["summary"]
    assert ar["items"] == 2 and ar["translated"] + ar["failed"] == 2
    assert record["checks"]["bertscore"]["layer"] == 6
    rows = pd.read_json(liveqa_ar, lines=True)
    en_ids = list(rows.loc[rows["lang"] == "en", "item_id"])
    ar_rows = rows[rows["lang"] == "ar"]
    assert en_ids == ["liveqa-0000", "liveqa-0001"] and set(ar_rows["item_id"]) <= set(en_ids)
    assert ar_rows["qe_chrf"].between(0, 100).all() and ar_rows["qe_bertscore"].between(-1, 1).all()

    mq_data = write_all(tmp_path / "medarabiq")
    mcq_en = tmp_path / "medarabiq_mcq_en.jsonl"
    _ok("translate", "medarabiq/mcq", "--data-dir", mq_data, "--to", "en", "--out", mcq_en, "--limit", 2,
        "--max-tokens", 16, "--checks", "chrf,lang", *common)  # fmt: skip
    mq = pd.read_json(mcq_en, lines=True)
    src, tgt = mq[mq["lang"] == "ar"].set_index("item_id"), mq[mq["lang"] == "en"].set_index("item_id")
    for item_id in tgt.index:  # the answer key and option letters are the source's
        assert tgt.loc[item_id, "answer"] == src.loc[item_id, "answer"]
        assert list(tgt.loc[item_id, "options"]) == list(src.loc[item_id, "options"])

    run_ar, run_mq = tmp_path / "run_liveqa_ar", tmp_path / "run_medarabiq_en"
    _ok("run", "--benchmark", f"qa:{liveqa_ar}", "--languages", "en,ar", "--tasks", "correctness,verifiability",
        "-T", "verify_prompt_language=en", "-T", "judge_max_tokens=32", "-T", "verify_negatives=1",
        "--model", "llamacpp/smollm2", "--temperatures", 0, "--max-tokens", 24,
        "--cache", cache, "--out", run_ar, "--quiet", "--no-report")  # fmt: skip
    _ok("run", "--benchmark", f"mcq:{mcq_en}", "--languages", "ar,en", "--model", "llamacpp/smollm2", "--cache", cache,
        "--out", run_mq, "--quiet", "--no-report")  # fmt: skip
    scores = pd.read_parquet(run_ar / "scores.parquet")
    verif = scores[scores["task"] == "verifiability"]
    assert set(verif["lang"]) == {"en", "ar"}
    paired = set(verif.loc[verif["lang"] == "ar", "item_id"]) & set(verif.loc[verif["lang"] == "en", "item_id"])
    assert paired == set(ar_rows["item_id"])  # the Arabic items are compared with their own English sources
    manifest = json.loads((run_ar / "manifest.json").read_text(encoding="utf-8"))
    assert "verify_prompt_language" in json.dumps(manifest)
    mc = pd.read_parquet(run_mq / "scores.parquet")
    assert set(mc["lang"]) == {"ar", "en"}

    report = tmp_path / "report"
    _ok("report", run_ar, run_mq, "--out", report, "--resamples", 200)
    html = (report / "index.html").read_text(encoding="utf-8")
    assert "liveqa_ar.jsonl" in html and "medarabiq_mcq_en.jsonl" in html
    assert "Arabic" in html

    audit = tmp_path / "audit"
    _ok("audit", f"qa:{liveqa_ar}", "--languages", "ar", "--rater", "llamacpp/smollm2", "--metrics",
        "accuracy,coherence", "--max-tokens", 24, "--out", audit, "--cache", cache, "--quiet")  # fmt: skip
    ratings = pd.read_csv(audit / "ratings.csv", keep_default_na=False)
    assert len(ratings) == 2 * len(ar_rows)
    assert set(ratings["parse_method"]) <= {"labelled", "labelled_yes_no", "fraction", "leading", "yes_no",
                                             "only_number", "out_of_scale", "ambiguous", "unparsed"}  # fmt: skip

    para = tmp_path / "para.jsonl"
    _ok("variant", f"mcq:{mcq_en}", "--languages", "en", "--transform", "paraphrase", "--model", "llamacpp/smollm2",
        "--max-tokens", 24, "--out", para, "--cache", cache, "--quiet")  # fmt: skip
    variant = pd.read_json(para, lines=True)
    assert list(variant["item_id"]) == list(tgt.index)
    assert (variant["answer"].tolist()) == tgt["answer"].tolist()  # questions paraphrased, the key kept
