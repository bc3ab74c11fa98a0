"""A run folder as inspect_ai logs, written with inspect_ai's own classes and ``write_eval_log``.

One log per task of the run (``<task>.eval``): one ``EvalSample`` per completion the model under test gave
(``samples.jsonl``; a judge's or translator's calls are not samples), its input the prompt's last user message,
its output the reply, its scores every Score of ``scores.parquet`` for that reply (by metric name: value, answer,
and the parse method in the score's metadata), its metadata the item id, language, temperature and condition.
The log's results hold each metric's mean. ``inspect view`` then browses an xlingmed run.
"""

from __future__ import annotations

import json
import math
import os
from collections import defaultdict
from datetime import datetime
from pathlib import Path
from typing import Any

from xlingmed.errors import ConfigError, DataError, DataNotFoundError
from xlingmed.filemodes import OWNER_FILE, follow_private
from xlingmed.safe_paths import child, safe_name


def _scores(run_dir: Path) -> dict[tuple[str, str, str, float], list[dict[str, Any]]]:
    """Score rows by (task, item_id, lang, temperature)."""
    from xlingmed.analysis.run import read_scores

    if not (run_dir / "scores.parquet").is_file():
        raise DataNotFoundError(f"{run_dir} has no scores.parquet (not a finished run folder)")
    out: dict[tuple[str, str, str, float], list[dict[str, Any]]] = defaultdict(list)
    for row in read_scores(run_dir).to_dict(orient="records"):
        key = (str(row["task"]), str(row["item_id"]), str(row["lang"]), float(row["temperature"] or 0.0))
        out[key].append({str(k): v for k, v in row.items()})
    return out


def _lines(path: Path) -> list[tuple[int, str]]:
    """The numbered lines of ``path``.

    Raises:
        DataError: not UTF-8 text (the byte named).
    """
    try:
        return list(enumerate(path.read_text(encoding="utf-8").splitlines(), start=1))
    except UnicodeDecodeError as exc:
        raise DataError(f"not UTF-8 text (byte {exc.start})", file=str(path)) from None


def _record(line: str, path: Path, n: int) -> dict[str, Any]:
    """One line of ``samples.jsonl`` as a mapping.

    Raises:
        DataError: not a JSON object (file and line named).
    """
    try:
        rec = json.loads(line)
    except (ValueError, RecursionError) as exc:
        raise DataError(f"line {n} is not JSON ({str(exc)[:80]})", file=str(path)) from None
    if not isinstance(rec, dict):
        raise DataError(f"line {n} is not a JSON object", file=str(path))
    return rec


def _clean(value: Any) -> Any:
    return None if isinstance(value, float) and math.isnan(value) else value


def _summary_and_manifest(run_dir: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """A finished run folder's summary and manifest (``{}`` where it has none)."""
    summary_path, samples_path = run_dir / "summary.json", run_dir / "samples.jsonl"
    if not summary_path.is_file() or not samples_path.is_file():
        raise DataNotFoundError(f"{run_dir} is not a finished run folder (no summary.json or samples.jsonl)")
    summary = json.loads(summary_path.read_text(encoding="utf-8"))
    manifest_path = run_dir / "manifest.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8")) if manifest_path.is_file() else {}
    return summary, manifest


def _sample_scores(rows: list[dict[str, Any]], values: dict[str, list[float]]) -> dict[str, Any]:
    """One sample's inspect_ai Scores by name (``metric`` or ``metric/unit``, the condition added where a name
    repeats); each value is added to ``values`` (name → values) for the task's means."""
    from inspect_ai.scorer import Score

    sample_scores: dict[str, Any] = {}
    for r in rows:
        name = str(r["metric"]) if r.get("unit") in (None, "") else f"{r['metric']}/{r['unit']}"
        if name in sample_scores:  # one completion per condition: keep the reply's own condition apart
            name = f"{name}/{r.get('condition') or 'original'}"
        value = _clean(r.get("value"))
        sample_scores[name] = Score(value=value if value is not None else math.nan,
                                    answer=_clean(r.get("answer")),
                                    metadata={"parse_method": _clean(r.get("parse_method")),
                                              "condition": _clean(r.get("condition"))})  # fmt: skip
        if value is not None:
            values[name].append(float(value))
    return sample_scores


def _eval_log(
    task: str, samples: list[Any], values: dict[str, list[float]], created: str, model: str,
    summary: dict[str, Any], run_dir: Path,
) -> Any:  # fmt: skip
    """A task's inspect_ai log: its samples and each score's mean."""
    from inspect_ai.log import EvalConfig, EvalDataset, EvalLog, EvalMetric, EvalResults, EvalScore, EvalSpec

    metrics = {name: EvalScore(name=name, scorer=name, metrics={"mean": EvalMetric(name="mean",
               value=sum(v) / len(v))}) for name, v in values.items() if v}  # fmt: skip
    return EvalLog(
        status="success",
        eval=EvalSpec(created=created, task=f"xlingmed/{task}", model=model, config=EvalConfig(),
                      dataset=EvalDataset(name=str(summary.get("benchmark")), samples=len(samples),
                                          sample_ids=[s.id for s in samples]),
                      metadata={"xlingmed_run": str(run_dir), "languages": summary.get("languages")}),
        results=EvalResults(total_samples=len(samples), completed_samples=len(samples),
                            scores=list(metrics.values())),
        samples=samples,
    )  # fmt: skip


def export(run_dir: Path, out: Path | None = None) -> list[Path]:
    """Write ``<task>.eval`` per task of ``run_dir`` into ``out`` (a folder; default ``run_dir/export``).

    Raises:
        ConfigError: inspect_ai is not installed (``pip install 'xlingmed[inspect]'``).
        DataNotFoundError: no ``summary.json``, ``samples.jsonl`` or ``scores.parquet``.
    """
    try:
        from inspect_ai.log import EvalSample, write_eval_log
        from inspect_ai.model import ModelOutput
    except ImportError as exc:
        raise ConfigError(
            f"writing inspect_ai logs needs inspect_ai ({exc}): pip install 'xlingmed[inspect]'"
        ) from None
    samples_path = run_dir / "samples.jsonl"
    summary, manifest = _summary_and_manifest(run_dir)
    model = str(summary.get("model") or "unknown")
    scores = _scores(run_dir)
    by_task: dict[str, list[Any]] = defaultdict(list)
    metric_values: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for n, line in _lines(samples_path):
        rec = _record(line, samples_path, n)
        if rec.get("model") not in (None, model) or rec.get("stage") not in ("answer", None):
            continue  # a judge's, an extractor's or a translator's call
        try:
            task, item, lang = str(rec.get("task")), str(rec.get("item_id")), str(rec.get("lang"))
            temperature = float(rec.get("temperature") or 0.0)
            users = [m.get("content", "") for m in rec.get("prompt") or [] if m.get("role") == "user"]
            rows = scores.get((task, item, lang, temperature), [])
            sample_scores = _sample_scores(rows, metric_values[task])
            target = next((str(r["target"]) for r in rows if _clean(r.get("target")) is not None), "")
            by_task[task].append(EvalSample(
                # the id names a member of the .eval zip: one harmless component, the item id kept in metadata
                id=safe_name(f"{item}.{lang}.t{temperature:g}.{n}"), epoch=1, input=users[-1] if users else "",
                target=target,
                output=ModelOutput.from_content(model=model, content=rec.get("response") or ""),
                scores=sample_scores,
                metadata={"item_id": item, "language": lang, "temperature": temperature,
                          "sample": rec.get("sample"), "parse_method": rec.get("parse_method")},
            ))  # fmt: skip
        except (TypeError, ValueError, AttributeError, KeyError, OverflowError, RecursionError) as exc:
            raise DataError(f"line {n}: a field of the wrong kind ({type(exc).__name__}: {str(exc)[:80]})",
                            file=str(samples_path)) from None
    if not by_task:
        raise DataNotFoundError(f"{run_dir}/samples.jsonl holds no completion of model {model}")
    folder = Path(out) if out is not None else run_dir / "export"
    private = follow_private([run_dir], folder)  # an export of a --private run is owner-only too
    folder.mkdir(parents=True, exist_ok=True)
    created = manifest.get("started_at") or datetime.now().astimezone().isoformat(timespec="seconds")
    written = []
    for task, samples in by_task.items():
        log = _eval_log(task, samples, metric_values[task], created, model, summary, run_dir)
        path = child(folder, f"{safe_name(task)}.eval")  # a task "../../x" of a shared run stays in ``folder``
        write_eval_log(log, str(path), format="eval")
        if private:
            os.chmod(path, OWNER_FILE)  # inspect_ai writes with the umask's mode
        written.append(path)
    return written
