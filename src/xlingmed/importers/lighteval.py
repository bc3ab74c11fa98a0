"""lighteval's details files: ``details/<model>/<date>/details_<task>_<date>.parquet``, one row per sample.

lighteval 0.13 writes three struct columns: ``doc`` (``query``, ``choices``, ``gold_index``, ``specific``: the
task's own fields, ``task_name``…), ``metric`` (metric name → the sample's value) and ``model_response``
(``input``, ``text``, ``text_post_processed``, ``logprobs``…). Rows are not in dataset order and ``doc.id`` is a
row index, so a sample is placed by ``doc.specific`` (``item_id``, ``language``) or by ``--pair-by`` /
``--language-from`` field paths; the outcome is the first metric unless ``--metric`` names another. A
generative sample's reading is its post-processed text (what lighteval's metric compared); a log-likelihood
sample's is the option ranked first.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from xlingmed.caps import check_input_file
from xlingmed.errors import ConfigError, DataError
from xlingmed.hashing import sha256_file
from xlingmed.importers.base import (
    UNREAD_ANSWERS,
    ImportedAnswer,
    ImportedLog,
    check_answers,
    check_counts,
    model_name,
)
from xlingmed.importers.families import LanguageOption, options_of, place

_DETAILS = re.compile(r"^details_(?P<task>.+)_(?P<date>\d{4}-\d{2}-\d{2}T[\d\-:.]+)\.parquet$")


def _files(paths: Sequence[Path]) -> list[Path]:
    found: list[Path] = []
    for path in paths:
        if not path.exists():
            raise DataError("no such file or folder", file=str(path))
        found += sorted(p for p in path.rglob("details_*.parquet")) if path.is_dir() else [path]
    if not found:
        raise ConfigError(f"{', '.join(map(str, paths))}: no lighteval details files (details_<task>_<date>.parquet)")
    return found


def _rows(path: Path) -> list[dict[str, Any]]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    check_input_file(path)  # a plain file, rows and uncompressed bytes under their caps (caps.py)
    try:
        table = pq.read_table(path)
    except (pa.ArrowInvalid, OSError) as exc:
        raise DataError(f"not a parquet file ({str(exc)[:160]})", file=str(path)) from None
    missing = [c for c in ("doc", "metric", "model_response") if c not in table.column_names]
    if missing:
        raise DataError(f"no column {', '.join(missing)}: not a lighteval details file (0.13 or later)", file=str(path))
    rows: list[dict[str, Any]] = table.to_pylist()
    return rows


def _first_text(values: Any) -> str | None:
    if isinstance(values, list):
        values = values[0] if values else None
    return None if values is None else str(values)


def _answer(task: str, row: dict[str, Any], where: str, metric: str | None, placing: dict[str, Any],
            position: int) -> ImportedAnswer:  # fmt: skip
    doc, scores, response = row["doc"] or {}, row["metric"] or {}, row["model_response"] or {}
    if isinstance(doc.get("specific"), str):  # some versions keep it as JSON text
        with contextlib.suppress(json.JSONDecodeError):
            doc["specific"] = json.loads(doc["specific"])
    present = {k: v for k, v in scores.items() if v is not None}
    name = metric or next(iter(present), None)
    if name is None or name not in present:
        raise DataError(f"task {task}: no per-sample metric {name!r} (this file has {', '.join(present)}; "
                        "--metric picks one)", file=where)  # fmt: skip
    value = present[name]
    if not isinstance(value, bool | int | float):
        raise DataError(f"task {task}: metric {name!r} is {str(value)[:60]!r} per sample, not one number "
                        "(--metric picks another)", file=where)  # fmt: skip
    # doc.id is lighteval's row index, not an id: never a pairing field
    placed = {"doc": {k: v for k, v in doc.items() if k != "id"}}
    item_id, lang, _ = place(task, placed, where, position=position, **placing)
    choices = doc.get("choices") or []
    gold_index = doc.get("gold_index")
    gold_index = gold_index[0] if isinstance(gold_index, list) and gold_index else gold_index
    gold = str(choices[gold_index]) if isinstance(gold_index, int) and 0 <= gold_index < len(choices) else None
    logprobs = response.get("logprobs") or []
    texts = response.get("text") or []
    options = options_of(task, {"doc": doc})
    if not texts and logprobs:  # a log-likelihood task: the option ranked first
        picked = max(range(len(logprobs)), key=lambda i: float(logprobs[i]))
        return ImportedAnswer(task, item_id, lang, float(value), chr(65 + gold_index) if isinstance(gold_index, int)
                              else None, chr(65 + picked), "source_loglikelihood", prompt=doc.get("query"),
                              options={chr(65 + i): str(c) for i, c in enumerate(choices)}, where=where)  # fmt: skip
    reply = _first_text(texts)
    said = _first_text(response.get("text_post_processed")) or reply
    said_text = None if said is None or said.strip().lower() in UNREAD_ANSWERS else said.strip()
    return ImportedAnswer(task, item_id, lang, float(value), gold, said_text,
                          "source_filter" if said_text is not None else "source_unread", reply=reply,
                          prompt=doc.get("query"), options=options, where=where)  # fmt: skip


def read(paths: Sequence[Path], *, metric: str | None = None, language_from: str | None = None,
         pair_by: str | None = None, language: LanguageOption | None = None,
         allow_partial: bool = False) -> ImportedLog:  # fmt: skip
    """Every sample of the lighteval details files under ``paths`` (files or folders).

    Raises:
        ConfigError: no details files; details of several models; fewer rows than the results file's
            ``effective_num_docs`` (unless ``allow_partial``).
        DataError: a file that is not a details parquet, or a row that cannot be placed (file and row named).
    """
    files = _files(paths)
    answers: list[ImportedAnswer] = []
    tasks: list[str] = []
    models: set[str] = set()
    names: dict[str, str] = {}
    language = language or LanguageOption()
    for path in files:
        named = _DETAILS.match(path.name)
        rows = _rows(path)
        for n, row in enumerate(rows, start=1):
            task = str((row.get("doc") or {}).get("task_name") or (named.group("task") if named else path.stem))
            if task not in tasks:
                tasks.append(task)
            placing = {"language": language.of(task, path), "language_from": language_from, "pair_by": pair_by}
            if task not in names:  # the metric taken, by its name: the first the row logged a value for
                present = [k for k, v in (row.get("metric") or {}).items() if v is not None]
                names[task] = metric or (present[0] if present else "metric")
            answers.append(_answer(task, row, f"{path}:row {n}", metric, placing, n))
        if _model_dir(path) is not None:
            models.add(str(_model_dir(path)))
    language.check_used(tasks, files)
    check_answers(answers, "lighteval")
    answers.sort(key=lambda a: (a.task, a.item_id))  # lighteval writes rows in no fixed order
    if len(models) > 1:
        raise ConfigError(f"details of several models ({', '.join(sorted(models))}): import each into its own run")
    general, configs = _results(files)
    logged = Counter(a.task for a in answers)
    counts: dict[str, dict[str, int | None]] = {
        t: {"logged": logged[t], "expected": _expected(configs.get(t) or configs.get(t.rsplit("|", 1)[0]))}
        for t in tasks
    }  # fmt: skip
    partial = check_counts(counts, "lighteval", "config_tasks effective_num_docs", allow_partial)
    raw = str(general.get("model_name") or (models.pop() if models else "unknown"))
    model, model_path = model_name(raw, "lighteval")
    generation = (general.get("model_config") or {}).get("generation_parameters") or {}
    sha = general.get("lighteval_sha")
    return ImportedLog(
        tool="lighteval", version=None if sha in (None, "", "?") else f"git {sha}",
        model=model, metric=", ".join(dict.fromkeys(names.values())), answers=answers, tasks=tasks,
        files=[{"path": str(p), "sha256": sha256_file(p)} for p in files],
        settings={"generation_parameters": {k: v for k, v in generation.items() if v is not None},
                  "temperature": generation.get("temperature")},
        metrics=names, counts=counts, partial=partial, model_path=model_path,
    )  # fmt: skip


def _model_dir(path: Path) -> str | None:
    """The model's name from lighteval's layout, ``details/<model>/<date>/`` or ``details/<org>/<model>/<date>/``
    (``model_name`` with its ``/`` becomes folders); ``None`` outside it."""
    parts = path.parent.parts
    if "details" not in parts[:-1]:
        return None
    start = len(parts) - 1 - parts[::-1].index("details")
    return "/".join(parts[start + 1 : -1]) or None


def _expected(config: Any) -> int | None:
    value = config.get("effective_num_docs") if isinstance(config, dict) else None
    return int(value) if isinstance(value, int | float) else None


def _results(details: list[Path]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``config_general`` and ``config_tasks`` of the results file lighteval wrote beside the details
    (``<out>/results/<model>/results_<date>.json``), if there is one: the model's name, generation parameters
    and each task's sample count (the files carry no lighteval version, only a git sha)."""
    for path in details:
        model = _model_dir(path)
        if model is None:
            continue
        parts = path.parent.parts
        root = Path(*parts[: len(parts) - 1 - parts[::-1].index("details")])
        for results in sorted((root / "results" / model).glob("results_*.json"), reverse=True):
            try:
                data = json.loads(results.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError):
                continue
            if isinstance(data, dict) and isinstance(data.get("config_general"), dict):
                tasks: dict[str, Any] = data["config_tasks"] if isinstance(data.get("config_tasks"), dict) else {}
                return data["config_general"], tasks
    return {}, {}
