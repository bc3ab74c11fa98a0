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
        except (OSError, json.JSONDecodeError) as exc:
            raise DataError(f"cannot read: {exc}", file=str(file)) from None
    run = RunData(path=path, summary=data["summary"], manifest=data["manifest"])
    from xlingmed.tasks.registry import task_specs

    for name in task_specs():
        file = path / f"{name}.csv"
        if file.is_file():
            try:
                run.tables[name] = read_csv(file)
            except (OSError, pd.errors.ParserError) as exc:
                raise DataError(f"cannot read: {exc}", file=str(file)) from None
    return run


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
            except json.JSONDecodeError:
                continue  # a damaged line shows as a missing prompt, not a broken page
            key = (str(r.get("task")), str(r.get("item_id")), str(r.get("lang")))
            if key in out or not r.get("prompt"):
                continue
            users = [m["content"] for m in r["prompt"] if m.get("role") == "user"]
            out[key] = users[-1] if users else r["prompt"][-1].get("content", "")
    return out
