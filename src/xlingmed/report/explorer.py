"""The item explorer: a section of the report's one self-contained page with every scored reply of the runs,
the same item side by side in every language and model, filters ("good in English, bad in Hindi") and pages.

Built from each task's rows (its CSV: the model's reply, the judge's reply) and their Scores (the reading, the
gold, the parse method, the outcome); the prompt is the model's first prompt for the item in ``samples.jsonl``.
The data travels as JSON inside the page and is drawn with ``textContent`` only: a model's text is never parsed
as HTML, so a planted ``<script>`` stays text.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from xlingmed.report.load import RunData, first_prompts
from xlingmed.tasks.base import cell

# The columns of a task's rows that hold the model's reply and the judge's reply, in the order looked for.
ANSWER_COLUMNS = ("response", "answer")
JUDGE_COLUMNS = ("judge_reasoning", "judge_reply")


def _text(row: Mapping[str, Any], columns: Sequence[str]) -> str | None:
    for c in columns:
        v = cell(row.get(c))
        if v is not None:
            return str(v)
    return None


def _ok(value: float | None, higher_is_better: bool, binary: bool) -> bool | None:
    """Whether the primary outcome went the good way (binary outcomes only)."""
    if value is None or not binary:
        return None
    return bool(value == 1.0) if higher_is_better else bool(value == 0.0)


def records(runs: Sequence[RunData], names: Sequence[str]) -> dict[str, Any]:
    """The explorer's data: ``prompts`` (deduplicated texts), and ``items``: one entry per (task, item,
    temperature, condition, unit) with, per model and language, the reply, the judge's reply, the reading, the
    gold, the parse method, the primary outcome (``ok``) and its value."""
    from xlingmed.tasks.registry import task_specs

    prompts: list[str] = []
    prompt_index: dict[str, int] = {}
    items: dict[tuple[Any, ...], dict[str, Any]] = {}
    for run, model in zip(runs, names, strict=True):
        asked = first_prompts(run)
        for task, spec in task_specs().items():
            table = run.tables.get(task)
            if table is None or spec.scores is None or spec.primary is None:
                continue
            for record in table.to_dict(orient="records"):
                row: dict[str, Any] = {str(k): v for k, v in record.items()}
                units = [s for s in spec.scores([row]) if s.metric == spec.primary.metric]
                if not units:
                    continue
                sc = units[0]
                key = (task, sc.item_id, sc.temperature, sc.condition or "", sc.unit)
                entry = items.setdefault(
                    key,
                    {"task": task, "item": sc.item_id, "temperature": sc.temperature, "condition": sc.condition or "",
                     "unit": sc.unit, "category": sc.group or "", "outcome": spec.primary.name, "cells": {}},
                )  # fmt: skip
                if sc.group and not entry["category"]:
                    entry["category"] = sc.group
                prompt = asked.get((task, sc.item_id, sc.lang))
                if prompt is not None and prompt not in prompt_index:
                    prompt_index[prompt] = len(prompts)
                    prompts.append(prompt)
                entry["cells"].setdefault(model, {})[sc.lang] = {
                    "prompt": None if prompt is None else prompt_index[prompt],
                    "answer": _text(row, ANSWER_COLUMNS),
                    "judge": _text(row, JUDGE_COLUMNS),
                    "reading": sc.answer,
                    "target": sc.target,
                    "parse": sc.parse_method or "",
                    "value": sc.value,
                    "ok": _ok(sc.value, sc.higher_is_better, sc.kind == "binary"),
                    "error": _text(row, ("error",)),
                }
                if "source_parse_method" in row:  # an imported run: the source tool's reading beside xlingmed's
                    entry["cells"][model][sc.lang]["source"] = {"reading": _text(row, ("source_prediction",)),
                                                                "parse": _text(row, ("source_parse_method",))}
    return {"prompts": prompts, "items": list(items.values())}


def json_block(obj: Any) -> str:
    """``obj`` as the text of a ``<script type="application/json">`` element: JSON with every ``<`` escaped
    (``\\u003c``), so that no text in it (a model's ``</script>`` or ``<!--``) can end or alter the element early;
    ``JSON.parse`` of the element's text gives ``obj`` back. U+2028 and U+2029 stay raw: JSON (and ECMAScript
    since 2019) allows them in strings."""
    return json.dumps(obj, ensure_ascii=False).replace("<", "\\u003c")


def section(runs: Sequence[RunData], names: Sequence[str]) -> dict[str, Any] | None:
    """What the report's explorer section renders (``templates/explorer.j2``): the data as JSON, safe inside a
    ``<script>`` element, and the number of units; ``None`` when no task of the runs has a primary outcome."""
    from xlingmed.languages import LANGUAGES
    from xlingmed.languages.codes import name_of

    data = records(runs, names)
    if not data["items"]:
        return None
    languages = list(dict.fromkeys(lg for r in runs for lg in r.languages))
    meta = {
        "models": list(names),
        "languages": languages,
        "rtl": [lg for lg in languages if lg in LANGUAGES and LANGUAGES[lg].rtl],
        "names": {lg: name_of(lg) for lg in languages},  # CLDR's name for a language imported with no file here
    }
    return {"payload": json_block({**data, **meta}), "n_items": len(data["items"])}
