"""Multiple choice's Score records: what every statistic of a run reads (see ``scores``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from xlingmed.tasks.base import cell, number, temperature_of
from xlingmed.types import Score


def scores(rows: Sequence[Mapping[str, Any]]) -> list[Score]:
    """Per item, temperature and prompt variant (``condition``: ``biased|recency``…; ``None`` = the original
    question): ``correct`` (invalid answers are wrong; failed requests ``None``), with the chosen option's letter as
    ``answer``, the correct one as ``target`` and the item's category as ``group``; and, where the bias pointed at
    a wrong option, ``followed_bias`` (the answer was that option; lower is better)."""
    out = []
    for r in rows:
        condition, bias = cell(r.get("condition")) or "original", cell(r.get("bias"))
        variant = condition if not bias else f"{condition}|{bias}"
        common: dict[str, Any] = {
            "item_id": str(r["item_id"]), "lang": str(r["lang"]), "task": "multiple_choice",
            "temperature": temperature_of(r), "condition": None if variant == "original" else variant,
            "kind": "binary", "parse_method": cell(r.get("parse_method")),
            "group": None if cell(r.get("category")) is None else str(r["category"]),
        }  # fmt: skip
        out.append(
            Score(metric="correct", value=number(r.get("correct")), answer=cell(r.get("prediction")),
                  target=cell(r.get("gold")), **common)
        )  # fmt: skip
        target = cell(r.get("bias_target"))
        if target is not None and target != cell(r.get("gold")):
            out.append(
                Score(metric="followed_bias", value=number(r.get("followed_bias")), higher_is_better=False,
                      answer=cell(r.get("prediction")), target=target, **common)
            )  # fmt: skip
    return out
