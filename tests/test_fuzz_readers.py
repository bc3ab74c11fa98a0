"""Issue 60: every reader of files from others ends in success or one ``XlingmedError`` (one line, exit 2), never
another exception, whatever the file holds. Hypothesis writes the files: a valid record of each format with its
fields replaced by any JSON value, raw bytes, deep nesting, huge numbers.

CI runs a few derandomized examples per reader; ``XLINGMED_FUZZ_EXAMPLES=10000 pytest tests/test_fuzz_readers.py``
runs many, with fresh randomness.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xlingmed.annotate.sample import load_annotation_set
from xlingmed.benchmarks.custom import load_items
from xlingmed.cache_admin import import_file
from xlingmed.config import make_config
from xlingmed.errors import XlingmedError
from xlingmed.importers import read_logs

EXAMPLES = int(os.environ.get("XLINGMED_FUZZ_EXAMPLES", "25"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=EXAMPLES <= 100, database=None,
                suppress_health_check=list(HealthCheck))  # fmt: skip

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=40),
    st.sampled_from(["²", "1e999", "Infinity", "-1", "99", "A", "a", "../../x", "/tmp/x", "\u2028", "=1+1", ""]),
)  # fmt: skip
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                        max_size=4), max_leaves=12)
RAW_LINES = st.sampled_from([
    "[" * 5000 + "]" * 5000, "9" * 5000, '{"a": ' + "1" * 4500 + "}", "\x00\x01", "{", "[]", "null", '"x"',
    '{"doc": NaN}', '{"doc": Infinity}',
])  # fmt: skip


def _mutated(template: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """``template`` with some fields replaced by any JSON value, some dropped, some added."""
    keys = sorted(template)
    return st.fixed_dictionaries({k: st.just(v) | JSON for k, v in template.items()}).flatmap(
        lambda d: st.tuples(st.just(d), st.sets(st.sampled_from(keys), max_size=2),
                            st.dictionaries(st.text(max_size=6), JSON, max_size=2))
    ).map(lambda t: {**{k: v for k, v in t[0].items() if k not in t[1]}, **t[2]})


def _lines(records: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[list[str]]:
    return st.lists(st.one_of(records.map(json.dumps), RAW_LINES), min_size=1, max_size=4)


def _either(read: Callable[[], Any]) -> None:
    try:
        read()
    except XlingmedError as exc:
        assert str(exc).strip()  # one message for the user (the CLI prints it on one line, exit 2)


LM_EVAL_SAMPLE = {
    "doc_id": 0, "doc": {"question": "Q?", "choices": ["a", "b"], "answer": 1}, "target": "B",
    "arguments": {"gen_args_0": {"arg_0": "Q? Answer:", "arg_1": {"until": ["\n"]}}}, "resps": [["B"]],
    "filtered_resps": ["B"], "filter": "none", "metrics": ["exact_match"], "exact_match": 1.0,
}  # fmt: skip
LM_EVAL_RESULTS = {"results": {"mymc_en": {"exact_match,none": 1.0}}, "configs": {"mymc_en": {"output_type":
                   "generate_until"}}, "n-samples": {"mymc_en": {"effective": 1}}, "model_name": "m"}  # fmt: skip


@FUZZ
@given(lines=_lines(_mutated(LM_EVAL_SAMPLE)), results=_mutated(LM_EVAL_RESULTS))
def test_lm_eval_logs(lines: list[str], results: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "samples_mymc_en_2025-01-01T00-00-00.jsonl").write_text("\n".join(lines), "utf-8")
        (folder / "results_2025-01-01T00-00-00.json").write_text(json.dumps(results), "utf-8")
        _either(lambda: read_logs("lm-eval", [folder], language_from="en"))


INSPECT_LOG = {
    "version": 2, "status": "success",
    "eval": {"task": "mymc", "model": "hf/m", "created": "2025-01-01T00:00:00", "dataset": {"name": "d"},
             "config": {}},
    "samples": [{"id": 1, "epoch": 1, "input": "Q?", "target": "B", "choices": ["a", "b"],
                 "output": {"model": "m", "choices": []}, "scores": {"choice": {"value": "C", "answer": "B"}},
                 "metadata": {"language": "en"}}],
    "results": {"total_samples": 1, "completed_samples": 1, "scores": []},
}  # fmt: skip


@FUZZ
@given(log=_mutated(INSPECT_LOG))
def test_inspect_logs(log: dict[str, Any]) -> None:
    pytest.importorskip("inspect_ai")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "log.json"
        path.write_text(json.dumps(log), "utf-8")
        _either(lambda: read_logs("inspect", [path]))


@FUZZ
@given(rows=st.lists(st.fixed_dictionaries({"doc": JSON.map(json.dumps), "metric": JSON.map(json.dumps),
                                            "model_response": JSON.map(json.dumps)}), min_size=1, max_size=3))
def test_lighteval_details(rows: list[dict[str, str]]) -> None:
    import pandas as pd

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "details_mymc|0_2025-01-01T00-00-00.000000.parquet"
        pd.DataFrame(rows).to_parquet(path)
        _either(lambda: read_logs("lighteval", [path], language_from="en"))


MCQ_ROW = {"id": "q1", "language": "en", "question": "Which?", "A": "a", "B": "b", "C": "c", "D": "d", "answer": "B"}


@FUZZ
@given(rows=st.lists(_mutated(MCQ_ROW), min_size=1, max_size=4), kind=st.sampled_from(["mcq", "qa"]),
       suffix=st.sampled_from([".csv", ".jsonl"]))  # fmt: skip
def test_benchmark_files(rows: list[dict[str, Any]], kind: str, suffix: str) -> None:
    import pandas as pd

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"mine{suffix}"
        if suffix == ".csv":
            pd.DataFrame([{k: json.dumps(v) if isinstance(v, dict | list) else v for k, v in r.items()}
                          for r in rows]).to_csv(path, index=False)  # fmt: skip
        else:
            path.write_text("\n".join(json.dumps(r) for r in rows), "utf-8")
        _either(lambda: load_items(f"{kind}:{path}", ["en"]))


@FUZZ
@given(settings_=_mutated({"kind": "judge", "labels": ["correct", "incorrect"], "task": "correctness"}),
       annotators=JSON, items=st.lists(JSON.map(json.dumps) | RAW_LINES, max_size=3))  # fmt: skip
def test_annotation_sets(settings_: dict[str, Any], annotators: Any, items: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "set.json").write_text(json.dumps(settings_), "utf-8")
        (folder / "annotators.json").write_text(json.dumps(annotators), "utf-8")
        (folder / "items.jsonl").write_text("\n".join(items), "utf-8")
        _either(lambda: load_annotation_set(folder))


CACHE_ROW = {"key": "0" * 64, "model": "openai/m", "request": {"messages": [{"role": "user", "content": "Q"}]},
             "completion": {"text": "A"}, "created": 0.0}  # fmt: skip


@FUZZ
@given(lines=_lines(_mutated(CACHE_ROW)))
def test_cache_exports(lines: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        export = Path(tmp) / "export.jsonl"
        export.write_text("\n".join(lines), "utf-8")
        _either(lambda: import_file(Path(tmp) / "cache.sqlite", export))


@FUZZ
@given(config=_mutated({"model": "openai/m", "languages": "en", "model_args": {"batch": False}, "temperatures": [0.0],
                        "prices": {"openai/m": [1.0, 2.0]}}) | JSON)  # fmt: skip
def test_yaml_configs(config: Any) -> None:
    import yaml

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "run.yaml"
        path.write_text(yaml.safe_dump(config, allow_unicode=True), "utf-8")
        _either(lambda: make_config(path, benchmark="qa:x.csv"))
