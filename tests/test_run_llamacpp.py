"""End to end with the embedded SmolLM2 in process, on the suite's real run (``conftest.full_run``: 2 MedicationQA
items × 3 languages), then a cached re-run."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from conftest import FullRun

from xlingmed import evaluate

pytestmark = pytest.mark.slow

LANGS = ("en", "zh", "hi")


def test_end_to_end_and_cached_rerun(full_run: FullRun, tmp_path: Path) -> None:
    out = full_run.out
    s = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    # correctness: 2 answers + up to 2 judgements per language; verifiability: 2 × 2 claims per language and τ
    assert s["cache_hits"] == 0
    assert s["n_items_per_language"] == dict.fromkeys(LANGS, 2)
    corr = s["tasks"]["correctness"]["languages"]
    ver = s["tasks"]["verifiability"]["languages"]
    assert s["tasks"]["verifiability"]["negatives_per_item"] == 1  # -T verify_negatives=1, recorded
    for lang in LANGS:
        c = corr[lang]
        assert c["n_items"] == 2
        assert sum(c["counts"].values()) == c["n"] == 2 - c["n_errors"]
        for t in ("0", "1"):
            v = ver[lang]["temperatures"][t]
            assert v["n_claims"] == 4 and v["n_positive"] == 2
            assert v["n_scored"] + v["n_unparsed"] + v["n_refused"] + v["n_errors"] == 4
    # Every request is either served or recorded: answers + judged answers + claims (+ consistency's own)
    lines = [json.loads(x) for x in (out / "samples.jsonl").read_text().splitlines()]
    answers = [x for x in lines if x["task"] == "correctness" and x["stage"] == "answer"]
    judges = [x for x in lines if x["stage"] == "judge"]
    verifs = [x for x in lines if x["stage"] == "verify"]
    assert len(answers) == 6 and len(verifs) == 24
    assert len(judges) == sum(1 for a in answers if a["error"] is None and a["response"].strip())
    consistency = [x for x in lines if x["task"] == "consistency"]
    distinct = len({json.dumps([x["prompt"], x["temperature"], x["seed"]]) for x in consistency})
    assert s["backend_calls"] == len(answers) + len(judges) + len(verifs) + distinct
    assert {x["lang"] for x in answers} == set(LANGS)
    assert all(x["parse_method"] for x in judges)
    # SmolLM2 answers in English-ish text; the judge prompt holds the reference answer in the item's language
    hi_judge = next(x for x in judges if x["lang"] == "hi")
    assert "written in Hindi" in hi_judge["prompt"][1]["content"]
    # logprobs came back from llama.cpp: the P(yes) AUC is there beside the paper's, which `auc` is (issue 37)
    cells = [ver[lang]["temperatures"]["0"] for lang in LANGS]
    assert {c["auc_source"] for c in cells} == {"hard_labels"}
    assert all(c["auc"] == c["auc_hard_labels"] for c in cells)
    p_yes = pd.read_csv(out / "verifiability.csv")["p_yes"]
    assert p_yes.notna().any() and set(p_yes.dropna().between(0, 1)) == {True}  # the score auc_p_yes is built on
    manifest = json.loads((out / "manifest.json").read_text())
    assert len(manifest["dataset"]["sha256"]) == 64
    assert manifest["config"]["model"] == "llamacpp/smollm2"
    assert {p.name for p in out.iterdir()} == {
        "samples.jsonl",
        "summary.json",
        "manifest.json",
        "correctness.csv",
        "verifiability.csv",
        "verifiability_table_a11.csv",
        "consistency.csv",
        "consistency_samples.csv",
        "consistency_summary.csv",
        "consistency_table_a9.csv",
        "scores.parquet",
        "scores.csv",
        "report",
    }
    tasks = ("correctness", "verifiability", "consistency")
    assert manifest["resolved"]["temperatures"] == {task: [0.0, 1.0] for task in tasks}
    assert manifest["resolved"]["temperatures_source"] == "user"

    again = tmp_path / "again"
    second = evaluate(full_run.config(tasks="correctness,verifiability", out=again))
    assert second.backend_calls == 0
    assert second.cache_hits == len(answers) + len(judges) + len(verifs)
    stored = json.loads((again / "summary.json").read_text(encoding="utf-8"))
    assert stored["tasks"] == {k: s["tasks"][k] for k in ("correctness", "verifiability")}
    assert stored["backend_calls"] == 0


def test_seeded_sampling_is_reproducible_and_samples_do_not_collapse(data_dir: Path, tmp_path: Path) -> None:
    import asyncio

    from xlingmed.models import get_model
    from xlingmed.types import GenerateRequest, Message

    model = get_model("llamacpp/smollm2")

    async def go() -> list[str]:
        msgs = (Message("user", "Name three fruits."),)
        outs = []
        for seed in (1, 1, 2):
            comp = await model.generate(GenerateRequest(messages=msgs, temperature=1.0, max_tokens=16, seed=seed))
            assert comp.ok
            outs.append(comp.text)
        await model.aclose()
        return outs

    a, b, c = asyncio.run(go())
    assert a == b  # same seed, same answer
    assert a != c  # another seed samples another answer


def test_scores_mirror_every_task_table_of_the_run(full_run: FullRun) -> None:
    """``scores.parquet`` against the run's own task CSVs and summary: the same units, values and readings."""
    import pandas as pd

    from xlingmed.analysis.run import read_scores
    from xlingmed.output import SCORE_COLUMNS

    out = full_run.out
    scores = read_scores(out)
    assert list(scores.columns) == list(SCORE_COLUMNS)
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))["tasks"]

    corr = pd.read_csv(out / "correctness.csv", dtype={"item_id": str})
    cs = scores[scores["task"] == "correctness"]
    assert len(cs) == 3 * len(corr)  # more, contradictory, less comprehensive per answer
    for r in corr.itertuples():
        mine = cs[(cs["item_id"] == r.item_id) & (cs["lang"] == r.lang)].set_index("metric")
        assert set(mine["answer"]) == {r.label}
        assert mine.loc["more_comprehensive", "value"] == float(r.label == "more")
        assert mine.loc["contradictory", "value"] == float(r.label == "contradictory")

    ver = pd.read_csv(out / "verifiability.csv", dtype={"item_id": str})
    vs = scores[scores["task"] == "verifiability"]
    assert len(vs) == len(ver) == 24
    for (lang, t), cell in vs.groupby(["lang", "temperature"]):
        s = summary["verifiability"]["languages"][lang]["temperatures"][f"{t:g}"]
        assert (cell["target"] == "yes").sum() == s["n_positive"]
        assert cell["value"].notna().sum() == s["n_scored"]
        assert (cell["answer"] == "yes").sum() == s["predicted_yes"]
        if s["n_scored"]:
            assert cell["value"].mean() == pytest.approx(s["accuracy"])
    assert ((vs["answer"] == vs["target"]) == (vs["value"] == 1.0)).all()
    keys = ["item_id", "lang", "temperature", "unit"]
    merged = vs.merge(ver.assign(unit=ver["candidate_index"].map("c{}".format)), on=keys)
    assert len(merged) == 24 and merged["probability"].equals(merged["p_yes"])

    con = scores[scores["task"] == "consistency"]
    for (lang, t), cell in con[con["metric"] == "sim_1gram"].groupby(["lang", "temperature"]):
        expected = summary["consistency"]["languages"][lang][f"{t:g}"]["metrics"]["sim_1gram"]
        assert cell["value"].count() == expected["n"]
        assert cell["value"].mean() == pytest.approx(expected["mean"])


def test_every_summary_comes_back_from_scores_parquet(full_run: FullRun) -> None:
    """Each task's summary is a function of its Scores alone: ``summarize`` of the Score records read back from
    ``scores.parquet`` gives ``summary.json``'s entry, every number and count, for each task of the run."""
    from xlingmed.analysis.run import read_scores
    from xlingmed.engine.plan import build_tasks
    from xlingmed.output import dumps
    from xlingmed.tasks.base import summary_json
    from xlingmed.types import Score

    out = full_run.out
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    table = read_scores(out)
    tasks = build_tasks(full_run.config())
    assert [t.name for t in tasks] == list(summary["tasks"]) == ["correctness", "verifiability", "consistency"]
    for task in tasks:
        units = [Score.from_row(r) for r in table[table["task"] == task.name].to_dict(orient="records")]
        assert units
        expected = {k: v for k, v in summary["tasks"][task.name].items() if k != "parsing"}
        assert json.loads(dumps(summary_json(task.summarize(units, list(LANGS))))) == expected, task.name
