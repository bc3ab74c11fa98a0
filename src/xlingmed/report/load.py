"""Read a finished run folder back: summary, manifest and task tables (the report never calls a model)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from xlingmed.cells import read_csv
from xlingmed.errors import DataError, DataNotFoundError


@dataclass
class RunData:
    """One run folder as the report sees it."""

    path: Path
    summary: dict[str, Any]
    manifest: dict[str, Any]
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """The model name, with the folder name when it alone would be ambiguous."""
        return f"{self.summary.get('model', '?')} ({self.path.name})"

    @property
    def languages(self) -> list[str]:
        return list(self.summary.get("languages", []))


def load_run(path: Path) -> RunData:
    """Read ``summary.json``, ``manifest.json`` and the task CSVs of run folder ``path``.

    Raises:
        DataNotFoundError: ``path`` has no ``summary.json`` (not a finished run folder).
        DataError: a file that cannot be parsed (the message names it).
    """
    path = Path(path)
    summary_path = path / "summary.json"
    if not summary_path.is_file():
        raise DataNotFoundError(f"{path} is not a finished run folder (no summary.json)")
    data: dict[str, Any] = {}
    for name in ("summary", "manifest"):
        file = path / f"{name}.json"
        if not file.is_file():
            data[name] = {}
            continue
        try:
            data[name] = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError) as exc:  # JSON, UTF-8, a 5,000-digit number, deep nesting
            raise DataError(f"cannot read: {str(exc)[:160]}", file=str(file)) from None
        if not isinstance(data[name], dict):
            raise DataError("must hold a JSON object", file=str(file))
    _check_summary(data["summary"], path / "summary.json")
    run = RunData(path=path, summary=data["summary"], manifest=data["manifest"])
    from xlingmed.tasks.registry import task_specs

    for name in task_specs():
        file = path / f"{name}.csv"
        if file.is_file():
            try:
                run.tables[name] = read_csv(file)
            except (OSError, pd.errors.ParserError, ValueError) as exc:
                raise DataError(f"cannot read: {str(exc)[:160]}", file=str(file)) from None
    return run


def _check_summary(summary: dict[str, Any], file: Path) -> None:
    """The shapes the report relies on (a run folder may come from someone else).

    Raises:
        DataError: ``languages`` not a list of language codes, ``tasks`` not a mapping of mappings, ``model`` not
            text.
    """
    languages = summary.get("languages", [])
    if not isinstance(languages, list) or not all(isinstance(x, str) for x in languages):
        raise DataError("languages must be a list of language codes", file=str(file))
    tasks = summary.get("tasks", {})
    if not isinstance(tasks, dict) or not all(isinstance(k, str) and isinstance(v, dict) for k, v in tasks.items()):
        raise DataError("tasks must map each task's name to its block", file=str(file))
    for name, block in tasks.items():
        per_language = block.get("languages", {})
        if not isinstance(per_language, dict) or not all(isinstance(v, dict) for v in per_language.values()):
            raise DataError(f"tasks.{name}.languages must map each language to its block", file=str(file))
    if not isinstance(summary.get("model", ""), str):
        raise DataError("model must be text", file=str(file))


def first_prompts(run: RunData) -> dict[tuple[str, str, str], str]:
    """(task, item_id, lang) → the last user message of the first prompt the model got for it."""
    out: dict[tuple[str, str, str], str] = {}
    path = run.path / "samples.jsonl"
    if not path.is_file():
        return out
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            try:
                r = json.loads(line)
                key = (str(r.get("task")), str(r.get("item_id")), str(r.get("lang")))
                if key in out or not r.get("prompt"):
                    continue
                users = [m["content"] for m in r["prompt"] if m.get("role") == "user"]
                out[key] = str(users[-1] if users else r["prompt"][-1].get("content", ""))
            except (ValueError, RecursionError, AttributeError, TypeError, KeyError, IndexError):
                continue  # a damaged line shows as a missing prompt, not a broken page
    return out
