"""An options cell of a table (a list, a mapping, their JSON, or ``A. …`` lines) read as Choices; shared by the
table rows (``benchmarks.rows``) for options and negatives."""

from __future__ import annotations

import json
from typing import Any

from xlingmed.languages import CANONICAL_LETTERS, normalise_label
from xlingmed.parsing.options import parse_options
from xlingmed.types import Choice


def cell_choices(raw: Any) -> list[str] | dict[str, str] | None:
    """An options cell as a list or a mapping (a list, an array, a dict, or their JSON); ``None`` otherwise."""
    if isinstance(raw, (list, tuple)) or hasattr(raw, "tolist"):
        return [str(x) for x in (raw.tolist() if hasattr(raw, "tolist") else raw)]
    if isinstance(raw, dict):
        return {str(k): str(v) for k, v in raw.items()}
    text = str(raw).strip()
    if text.startswith(("[", "{")):
        try:
            parsed = json.loads(text)
        except json.JSONDecodeError:
            return None
        return cell_choices(parsed)
    return None


def options_cell(raw: Any) -> tuple[Choice, ...] | None:
    """The options of one cell (a list lettered A, B…, a mapping label → text, or ``A. …`` lines), by label;
    ``None`` where it is none of these."""
    parsed = cell_choices(raw)
    if isinstance(parsed, list):
        return tuple(Choice(CANONICAL_LETTERS[i], CANONICAL_LETTERS[i], t.strip()) for i, t in enumerate(parsed))
    if isinstance(parsed, dict):
        out = []
        for key, text in parsed.items():
            label = normalise_label(key)
            if label is None:
                return None
            out.append(Choice(label, key, text.strip()))
        return tuple(sorted(out, key=lambda c: c.label))
    choices = parse_options("\n" + str(raw)).choices  # "A. …" lines, no stem
    return choices or None
