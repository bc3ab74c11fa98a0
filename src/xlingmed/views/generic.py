"""The view of a task that has none of its own (a plugin's): its summary's per-language numbers as they are."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from xlingmed.views.base import ViewTable, fmt


def tables(summary: Mapping[str, Any], run: Mapping[str, Any]) -> list[ViewTable]:
    per_lang = summary.get("languages") or {}
    keys = list(dict.fromkeys(k for cell in per_lang.values() if isinstance(cell, dict) for k in cell
                              if not isinstance(cell[k], dict | list)))  # fmt: skip
    rows = [[lang, *[fmt(cell.get(k)) for k in keys]] for lang, cell in per_lang.items() if isinstance(cell, dict)]
    return [ViewTable(f"{summary.get('task', 'task')} ({run.get('model')})", ["lang", *keys], rows)] if rows else []


def losses(summary: Mapping[str, Any], languages: Sequence[str]) -> list[dict[str, Any]]:
    return []
