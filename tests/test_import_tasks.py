"""An import is scored by the task that takes its answers (issue 47): multiple choice takes 0/1 outcomes; a
per-sample metric that is no accuracy (an F1, a 0–100 score) is kept under its own name by ``source_metric``,
summarised per language as a mean. Built from ``ImportedLog`` records as the readers make them (the readers
themselves are tested on real tools' logs in ``test_import_tools.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from xlingmed.importers.base import ImportedAnswer, ImportedLog
from xlingmed.importers.run_folder import write_run
from xlingmed.report import build_report


def _log(values: dict[str, list[float | None]], metric: str) -> ImportedLog:
    answers = [
        ImportedAnswer(f"squad_{lang}", f"q{k}", lang, v, "Paris", "Paris" if v else "Lyon", "source_filter",
                       reply=f"It is {'Paris' if v else 'Lyon'}.", where=f"samples_{lang}.jsonl:{k + 1}")
        for lang, vs in values.items() for k, v in enumerate(vs)
    ]  # fmt: skip
    return ImportedLog("lm-evaluation-harness", "0.4.9", "hf/m", metric, answers, sorted({a.task for a in answers}),
                       [])  # fmt: skip


def test_a_metric_that_is_no_accuracy_is_imported_under_its_own_name(tmp_path: Path) -> None:
    values = {"en": [0.5, 1.0, 0.25, None], "es": [0.2, 0.4, 0.0, 0.6]}
    summary = write_run(_log(values, "f1"), tmp_path / "run")
    assert list(summary["tasks"]) == ["source_metric"]
    block = summary["tasks"]["source_metric"]
    assert (block["tool"], block["metric"]) == ("lm-evaluation-harness", "f1")
    assert block["languages"]["en"] == {"mean": pytest.approx(1.75 / 3), "n": 3, "minimum": 0.25, "maximum": 1.0,
                                        "n_missing": 1}  # fmt: skip
    assert block["languages"]["es"]["mean"] == pytest.approx(0.3)
    table = pd.read_csv(tmp_path / "run" / "source_metric.csv")
    assert list(table["value"].fillna(-1)) == [0.5, 1.0, 0.25, -1, 0.2, 0.4, 0.0, 0.6]
    assert set(table["metric"]) == {"f1"}
    scores = pd.read_parquet(tmp_path / "run" / "scores.parquet")
    assert set(scores["task"]) == {"source_metric"} and set(scores["kind"]) == {"continuous"}
    index = build_report([tmp_path / "run"], n_resamples=100)  # its table in the report, its gap to English
    page = index.read_text(encoding="utf-8")
    assert "lm-evaluation-harness&#39;s own f1" in page or "lm-evaluation-harness's own f1" in page
    gaps = pd.read_csv(tmp_path / "run" / "report" / "stats" / "gaps.csv")
    assert set(gaps["criterion"]) == {"source_metric"}


def test_a_0_1_outcome_is_still_multiple_choice(tmp_path: Path) -> None:
    summary = write_run(_log({"en": [1.0, 0.0, 1.0], "es": [0.0, 0.0, 1.0]}, "exact_match"), tmp_path / "run")
    assert list(summary["tasks"]) == ["multiple_choice"]
    cells = summary["tasks"]["multiple_choice"]["languages"]
    assert (cells["en"]["0"]["n_correct"], cells["es"]["0"]["n_correct"]) == (2, 1)
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["imported"]["metric"] == "exact_match"


def test_one_value_throughout_is_an_accuracy_only_under_an_accuracys_name(tmp_path: Path) -> None:
    # every sample 0: a 0-100 score (EQ-Bench's) cannot be told from a 0/1 outcome, so its name decides
    zeros = {"en": [0.0, 0.0], "ca": [0.0, 0.0]}
    assert list(write_run(_log(zeros, "eqbench"), tmp_path / "a")["tasks"]) == ["source_metric"]
    assert list(write_run(_log(zeros, "acc"), tmp_path / "b")["tasks"]) == ["multiple_choice"]


def test_a_loglikelihood_sample_keeps_its_text_target_and_reads_greedy_flags_written_as_text() -> None:
    from xlingmed.importers.lm_eval import NOT_GREEDY, _answer

    # lm-eval's asdiv as logged by an older version: every value a string, the target a number's text
    record = {"doc_id": 3, "doc": {"body": "…", "question": "How many?"}, "target": "9", "arguments": {},
              "resps": [[["-0.25", "True"]]], "filtered_resps": [["-0.25", "True"]], "acc": 1.0}  # fmt: skip
    placing = {"language": "en", "language_from": None, "pair_by": None}
    read = _answer("asdiv", record, "s.jsonl:4", "acc", "loglikelihood", None, placing)
    assert read is not None and (read.gold, read.source_answer, read.item_id) == ("9", "9", "asdiv#3")
    record.update(filtered_resps=[["-7.5", "False"]], acc=0.0)
    read = _answer("asdiv", record, "s.jsonl:5", "acc", "loglikelihood", None, placing)
    assert read is not None and (read.gold, read.source_answer, read.correct) == ("9", NOT_GREEDY, 0.0)


def test_without_a_results_file_the_output_type_is_read_from_the_line() -> None:
    from xlingmed.importers.lm_eval import _output_type

    assert _output_type({}, {"resps": [["Paris is the capital."]]}) == "generate_until"
    assert _output_type({}, {"resps": [[["-0.25", "True"]]]}) == "loglikelihood"  # one continuation: text target
    assert _output_type({}, {"resps": [[[-1.5, False]], [[-0.5, True]], [[-2.0, False]]]}) == "multiple_choice"
    assert _output_type({"output_type": "loglikelihood"}, {"resps": []}) == "loglikelihood"
