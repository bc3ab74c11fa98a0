"""The published hub benchmarks (``benchmarks/hub/``): each read offline through ``datasets`` from a tiny copy in
its real layout and column names (``tests/hub_fixtures.py``), the values asserted, and each multiple-choice set
run end to end with the embedded model."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import hub_fixtures as fx
import pandas as pd
import pytest
from fault_server import FaultServer
from replay_server import ReplayPolicy

from xlingmed.benchmarks import benchmarks, get_benchmark, load_benchmark
from xlingmed.config import make_config
from xlingmed.errors import ConfigError, DataError
from xlingmed.prompts import format_options
from xlingmed.runner import evaluate


def _ids(items: list[Any]) -> list[tuple[str, str, str | None]]:
    return [(it.item_id, it.lang, it.gold_label) for it in items]


def test_global_mmlu_medical_subjects_subsets_and_provenance(tmp_path: Path) -> None:
    root = fx.global_mmlu(tmp_path)
    items, prov = load_benchmark("global-mmlu/medical", root, ["en", "es", "sw"])
    # the STEM row is left out; the same sample_id in every language (parallel)
    assert [(i, lang) for i, lang, _ in _ids(items)][:3] == [
        ("anatomy/test/0", "en"), ("anatomy/test/0", "es"), ("anatomy/test/0", "sw"),
    ]  # fmt: skip
    assert len(items) == 9 and {it.gold_label for it in items} == {"A"}
    assert [c.text for c in items[1].choices] == ["Pancreas", "Liver", "Kidney", "Spleen"]
    assert items[1].question == "¿Qué órgano produce insulina?" and items[1].meta["category"] == "anatomy"
    assert prov["parallel"] is True and prov["shared_id"] == "sample_id"
    assert prov["translation"] == {"en": {"original": 3}, "es": {"post-edited": 3}, "sw": {"post-edited": 3}}
    sensitive, _ = load_benchmark("global-mmlu/medical", root, ["en", "es"], subset="sensitive")
    agnostic, _ = load_benchmark("global-mmlu/medical", root, ["en", "es"], subset="agnostic")
    assert {it.item_id for it in sensitive} == {"anatomy/test/0"} and {it.item_id for it in agnostic} == {
        "nutrition/test/1"
    }
    with pytest.raises(ConfigError, match="unknown --subset 'cultural'; its subsets: all, lite, sensitive, agnostic"):
        load_benchmark("global-mmlu/medical", root, ["en"], subset="cultural")
    # Lite lives in a dataset of its own
    fx.global_mmlu(tmp_path, "CohereLabs/Global-MMLU-Lite", ("en", "es"))
    lite, prov = load_benchmark("global-mmlu/medical", root, ["en", "es"], subset="lite", limit=1)
    assert _ids(lite) == [("anatomy/test/0", "en", "A"), ("anatomy/test/0", "es", "A")]
    assert prov["dataset"] == "CohereLabs/Global-MMLU-Lite"
    with pytest.raises(ConfigError, match=r"Global-MMLU-Lite .* has no 'am'; its languages: en, ar"):
        load_benchmark("global-mmlu/medical", root, ["en", "am"], subset="lite")  # refused before any read


def test_global_mmlu_medical_is_the_sets_own_category_by_default(tmp_path: Path) -> None:
    root = fx.global_mmlu(tmp_path, langs=("en", "es"))
    for lang in ("en", "es"):  # nutrition filed under another category: out of the reference's medical set
        path = root / "CohereLabs" / "Global-MMLU" / lang / "test-00000-of-00001.parquet"
        df = pd.read_parquet(path)
        df.loc[df["subject"] == "nutrition", "subject_category"] = "Other"
        df.to_parquet(path)
    reference, _ = load_benchmark("global-mmlu/medical", root, ["en", "es"])
    subjects, _ = load_benchmark("global-mmlu/medical", root, ["en", "es"], medical="subjects")
    assert sorted({it.item_id for it in reference}) == ["anatomy/test/0", "clinical_knowledge/test/2"]
    assert len({it.item_id for it in subjects}) == 3  # the seven-subject pick keeps nutrition


def test_provenance_filter_keeps_the_source_language(tmp_path: Path) -> None:
    root = fx.global_mmlu(tmp_path, langs=("en", "es", "am"))  # es post-edited, am machine translated
    items, prov = load_benchmark("global-mmlu/medical", root, ["en", "es", "am"], provenance="human")
    assert {it.lang for it in items} == {"en", "es"}
    assert prov["dropped_by_provenance"] == {"en": 0, "es": 0, "am": 3}
    items, _ = load_benchmark("global-mmlu/medical", root, ["en", "am"], provenance="machine")
    assert {it.lang for it in items} == {"en", "am"} and {it.meta["translation"] for it in items} == {
        "original",
        "machine",
    }
    with pytest.raises(ConfigError, match="--provenance: unknown 'people'"):
        load_benchmark("global-mmlu/medical", root, ["en"], provenance="people")


def test_mmlu_prox_health_with_up_to_ten_options(tmp_path: Path) -> None:
    items, prov = load_benchmark("mmlu-prox/health", fx.mmlu_prox(tmp_path), ["en", "zh"])
    assert [(i, lang) for i, lang, _ in _ids(items)] == [
        ("100", "en"),
        ("100", "zh"),
        ("101", "en"),
        ("101", "zh"),
        ("102", "en"),
        ("102", "zh"),
    ]  # fmt: skip  (the law question 999 is left out)
    assert [c.label for c in items[0].choices] == list("ABCDEFGHIJ")
    assert [c.label for c in items[2].choices] == list("ABCD")  # None options dropped
    assert len(items[2].choices) == 4 and items[1].question == "哪个器官产生胰岛素？"
    assert prov["parallel"] is True and items[0].meta["category"] == "ori_mmlu-clinical_knowledge"


@pytest.mark.parametrize("zipped", [True, False])
def test_mmedbench_is_not_parallel_and_counts_multi_answer_items(tmp_path: Path, zipped: bool) -> None:
    root = fx.mmedbench(tmp_path, zipped=zipped)
    items, prov = load_benchmark("mmedbench", root, ["en", "ja"], limit=1)
    # ids carry the language: different exams' questions are never paired; the limit applies per language
    assert _ids(items) == [("en-00001", "en", "A"), ("ja-00001", "ja", "A")]
    assert len(items[0].choices) == 5 and len(items[1].choices) == 4
    items, prov = load_benchmark("mmedbench", root, ["ja", "ru"])
    ja = [it for it in items if it.lang == "ja"]  # the multi-answer item is kept, its gold the set "A,C"
    assert [it.gold_label for it in ja] == ["A", "A", "A,C"] and prov["skipped"] == {}
    assert prov["reference_rules"] == {"ja": {"multi_answer_scored_as_a_set": 1}}
    assert [it.gold_label for it in items if it.lang == "ru"] == ["A", "A", "B"]  # ["B"]: a list, read
    assert prov["parallel"] is False and get_benchmark("mmedbench").parallel is False


def test_mmedbench_reads_every_form_of_answer_idx() -> None:
    """``answer_idx`` as a letter, a one-letter list, "A,C", IgakuQA's "A OR C" or "B、C": one answer, or the set of
    several (never a failure of the whole language)."""
    from xlingmed.benchmarks.hub.mmedbench import gold_letters

    assert [gold_letters(v) for v in ("A", ["B"], "A OR C", ["A", "D"], "B、C", "A,C", " D ")] == [
        ["A"], ["B"], ["A", "C"], ["A", "D"], ["B", "C"], ["A", "C"], ["D"]
    ]  # fmt: skip
    spec = get_benchmark("mmedbench")
    options = [{"A": "x", "B": "y", "C": "z", "D": "w"}] * 4
    df = pd.DataFrame({"question": ["q1", "q2", "q3", "q4"], "options": options,
                       "answer_idx": ["A", ["B"], "A OR C", "C、D"]})  # fmt: skip
    out = spec.prepare(df, "ja", None)  # type: ignore[attr-defined, arg-type]
    assert list(out["answer"]) == ["A", "B", "A,C", "C,D"]
    assert out.attrs["quirks"] == {"multi_answer_scored_as_a_set": 2}


@pytest.mark.parametrize(("reply", "right"), [("A, C", True), ("答え：C、A", True), ("A", False), ("A, B, C", False)])
def test_a_multi_answer_item_is_right_only_with_exactly_its_set(tmp_path: Path, reply: str, right: bool) -> None:
    """MMedBench's scorer compares sets of letters: "A,C" is right with both letters, in any order or script of
    joining, and wrong with one of them or with one more."""
    from fault_server import ok

    root = fx.mmedbench(tmp_path / "data")
    with FaultServer(lambda prompt, attempt: ok(reply if "二つ選べ" in prompt else "A")) as server:
        cfg = make_config(benchmark="mmedbench", data_dir=root, languages="ja", model="openai/m", base_url=server.url,
                          out=tmp_path / "run")  # fmt: skip
        result = evaluate(cfg)
    cell = result.summary["tasks"]["multiple_choice"]["languages"]["ja"]["0"]
    assert (cell["n"], cell["n_correct"]) == (3, 2 + right)
    rows = pd.read_csv(tmp_path / "run" / "multiple_choice.csv")
    multi = rows[rows["gold"] == "A,C"].iloc[0]
    assert bool(multi["correct"]) is right and multi["parse_method"] in ("label_list", "standalone")


def test_medexpqa_one_based_answers_and_the_empty_fifth_option(tmp_path: Path) -> None:
    root = fx.medexpqa(tmp_path)
    items, prov = load_benchmark("medexpqa", root, ["es", "en", "fr", "it"])
    assert _ids(items)[:4] == [("17", "es", "A"), ("17", "en", "A"), ("17", "fr", "A"), ("17", "it", "A")]
    assert len(items[0].choices) == 5 and len(items[4].choices) == 4  # "5": null on the second case
    # numbered as the authors print them: the prompt shows "1. …", Scores keep the letter
    assert [c.raw_label for c in items[0].choices] == ["1", "2", "3", "4", "5"] and items[0].choices[0].label == "A"
    assert format_options(items[0]).startswith(f"1. {items[0].choices[0].text}")
    assert items[2].question == "Quel organe produit l'insuline ?" and items[0].meta["category"] == "ENDOCRINOLOGY"
    assert prov["translation"]["es"] == {"original": 3} and prov["translation"]["fr"] == {"unstated": 3}
    # a correct_option that is not an option: the error names the file, the row and the column
    path = root / "HiTZ" / "MedExpQA" / "data" / "en" / "test.en.casimedicos.rag.jsonl"
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    lines[1]["correct_option"] = 5
    path.write_text("\n".join(json.dumps(x) for x in lines), encoding="utf-8")
    with pytest.raises(DataError, match=r"file HiTZ/MedExpQA \(en, split test\), row 3, column 'correct_option'"):
        load_benchmark("medexpqa", root, ["en"])


def test_kormedmcqa_configs_and_subset(tmp_path: Path) -> None:
    root = fx.kormedmcqa(tmp_path)
    items, prov = load_benchmark("kormedmcqa", root, ["ko"])
    assert len(items) == 9 and items[0].item_id == "ko-doctor-2023-1-1" and items[0].gold_label == "A"
    assert [c.text for c in items[0].choices] == ["Pancreas", "Liver", "Kidney", "Spleen", "Heart"]
    nurse, prov = load_benchmark("kormedmcqa", root, ["ko"], subset="nurse")
    assert [it.item_id for it in nurse] == ["ko-nurse-2023-1-1", "ko-nurse-2023-1-2"] and prov["subset"] == "nurse"
    # a question without option E (the dentist files): four options, never a fifth one reading "None"
    path = root / "sean0042" / "KorMedMCQA" / "dentist" / "test-00000-of-00001.parquet"
    df = pd.read_parquet(path)
    df["E"] = None
    df.to_parquet(path)
    dentist, _ = load_benchmark("kormedmcqa", root, ["ko"], subset="dentist")
    assert [c.text for c in dentist[0].choices] == ["Pancreas", "Liver", "Kidney", "Spleen"]


def test_afrimed_qa_split_column_multi_answers_and_the_gate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = fx.afrimed_qa(tmp_path / "data")
    items, prov = load_benchmark("afrimed-qa", root, ["en"])
    # the reference's expert set: every tier == "expert" MCQ (the train-split one too), never the crowd row
    ids = [it.item_id.removeprefix("en-") for it in items]  # not parallel: ids carry the language
    assert len(items) == 6 and "b" * 64 not in ids and "e" * 64 in ids
    assert [c.text for c in items[0].choices] == ["Pancreas", "Liver", "Kidney", "Spleen"]
    several = next(it for it in items if it.item_id == "en-" + "f" * 64)
    assert several.gold_label == "C"  # "option3,option1": scored against the first listed, as the reference does
    assert prov["skipped"] == {"en": {"answer_empty_option": 1}}  # the key naming an "n/a" slot (issue 61)
    assert prov["reference_rules"] == {"en": {"multi_answer_scored_by_first_listed": 1}}
    na = next(it for it in items if it.item_id == "en-" + "a" * 64)
    # an "N/A" slot is never shown to the model (issue 61); the others keep their published labels
    assert [(c.label, c.text) for c in na.choices] == [("A", "Insulin"), ("C", "Glucagon")] and na.gold_label == "C"
    saq, _ = load_benchmark("afrimed-qa/saq", root, ["en"])
    assert len(saq) == 1 and saq[0].reference.startswith("Bed nets") and saq[0].question == "How is malaria prevented?"
    train, _ = load_benchmark("afrimed-qa", root, ["en"], hf_split="train", selection="split")
    assert [it.item_id for it in train] == ["en-" + "e" * 64]
    test_split, _ = load_benchmark("afrimed-qa", root, ["en"], selection="split")  # the rule before 0.2
    split_ids = [it.item_id for it in test_split]  # the test split, every tier (the crowd row too)
    assert len(split_ids) == 6 and "en-" + "e" * 64 not in split_ids and "en-" + "b" * 64 in split_ids
    # gated: without a token the error names the gate before anything is fetched
    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    monkeypatch.setenv("HF_TOKEN_PATH", str(tmp_path / "hf-home" / "token"))
    with pytest.raises(ConfigError, match=r"intronhealth/afrimedqa_v2\) is gated .* set HF_TOKEN"):
        load_benchmark("afrimed-qa", None, ["en"])


def test_medarabench_reads_default_column_names(tmp_path: Path) -> None:
    items, _ = load_benchmark("medarabench", fx.medarabench(tmp_path), ["ar"])
    assert _ids(items) == [("ar-00001", "ar", "A"), ("ar-00002", "ar", "A"), ("ar-00003", "ar", "A")]
    assert items[0].meta["category"] == "Endocrinology"


def test_healthbench_files_hold_messages_and_rubrics(tmp_path: Path) -> None:
    root = fx.healthbench(tmp_path)
    items, prov = load_benchmark("healthbench", root, ["en"])
    assert [it.item_id for it in items] == ["hb-1", "hb-2"]
    assert [m["role"] for m in items[1].meta["messages"]] == ["user", "assistant", "user"]
    assert items[1].question == "She is two, ten minutes ago." and items[1].reference.startswith("Go to the")
    assert [c["points"] for c in items[0].meta["rubric"]] == [7.0, 5.0, -6.0]
    assert items[0].meta["example_tags"][0] == "theme:emergency_referrals" and prov["rubric_criteria"] == 6
    with pytest.raises(ConfigError, match="healthbench-prox and healthbenchx hold its translations"):
        load_benchmark("healthbench", root, ["en", "es"])
    first = load_benchmark("healthbench-prox", fx.healthbench_prox(tmp_path), ["en", "hi"], limit=1,
                           limit_order="first")[0]  # fmt: skip
    assert [(it.item_id, it.lang) for it in first] == [("pro-0", "en"), ("pro-0", "hi")]
    # --limit draws as simple-evals does by default: random.Random(0).sample of the conversations
    drawn = random.Random(0).sample(["pro-0", "pro-1"], 1)[0]
    items, prov = load_benchmark("healthbench-prox", tmp_path, ["en", "hi"], limit=1)
    assert [(it.item_id, it.lang) for it in items] == [(drawn, "en"), (drawn, "hi")] and drawn == "pro-1"
    assert first[1].meta["rubric"][0]["criterion"] == "डॉक्टर को दिखाने की सलाह देता है।"
    assert prov["translation"] == {"en": {"original": 1}, "hi": {"machine": 1}}


def test_every_hub_set_declares_what_the_table_shows() -> None:
    specs = benchmarks()
    names = ("global-mmlu/medical", "mmlu-prox/health", "mmedbench", "medexpqa", "kormedmcqa", "afrimed-qa",
             "afrimed-qa/saq", "medarabench", "healthbench", "healthbench/hard", "healthbench/consensus",
             "healthbench-prox", "healthbenchx")  # fmt: skip
    for name in names:
        spec = specs[name]
        assert spec.licence and spec.languages and getattr(spec, "dataset", None), name
    assert specs["afrimed-qa"].gated and "non-commercial" in specs["mmedbench"].notice  # type: ignore[attr-defined]
    res = subprocess.run([sys.executable, "-m", "xlingmed.cli", "list", "benchmarks"], capture_output=True,
                         text=True, env={**os.environ, "COLUMNS": "250"}, timeout=120)  # fmt: skip
    assert res.returncode == 0, res.stderr
    rows = {line.split("│")[1].strip(): line for line in res.stdout.splitlines() if line.count("│") > 5}
    assert set(names) <= set(rows)
    assert "yes (sample_id)" in rows["global-mmlu/medical"] and "CC BY-NC 4.0" in rows["mmedbench"]
    assert rows["afrimed-qa"].split("│")[7].strip() == "yes"  # gated
    assert rows["mmlu-prox/health"].split("│")[5].strip().startswith("subset,provenance,hf_split")  # its -B options


MC_RUNS = [
    ("global-mmlu/medical", fx.global_mmlu, "en,es"),
    ("mmlu-prox/health", fx.mmlu_prox, "en,zh"),
    ("mmedbench", fx.mmedbench, "en,zh"),
    ("medexpqa", fx.medexpqa, "es,en"),
    ("kormedmcqa", fx.kormedmcqa, "ko"),
    ("afrimed-qa", fx.afrimed_qa, "en"),
    ("medarabench", fx.medarabench, "ar"),
]


@pytest.mark.parametrize(("name", "writer", "languages"), MC_RUNS, ids=[r[0] for r in MC_RUNS])
def test_each_multiple_choice_set_runs_end_to_end(tmp_path: Path, name: str, writer: Any, languages: str) -> None:
    """Through the whole run against the replay server, which answers each item's gold option ("The correct answer
    is B."): 100 % correct in every language proves the gold-label mapping, where a toy model proved only a run."""
    data = writer(tmp_path / "data")
    items, _ = load_benchmark(name, data, languages.split(","), limit=2)
    policy = ReplayPolicy(items, "answer phrase (en)")
    with FaultServer(policy) as server:
        cfg = make_config(benchmark=name, data_dir=data, languages=languages, model="openai/m", base_url=server.url,
                          limit=2, out=tmp_path / "run")  # fmt: skip
        result = evaluate(cfg)
    assert policy.unmatched == 0
    cells = result.summary["tasks"]["multiple_choice"]["languages"]
    assert {lang: (cell["0"]["n"], cell["0"]["n_correct"]) for lang, cell in cells.items()} == dict.fromkeys(
        languages.split(","), (2, 2)
    )
    assert result.backend_calls == 2 * len(languages.split(","))
    samples = pd.read_json(tmp_path / "run" / "samples.jsonl", lines=True)
    assert len(samples) == result.backend_calls and set(samples["lang"]) == set(languages.split(","))
    assert result.summary["dataset"]["licence"] == get_benchmark(name).licence
