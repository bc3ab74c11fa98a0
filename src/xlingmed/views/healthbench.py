"""HealthBench: the clipped mean score with its bootstrap CI per language, per axis and per theme, the harm rate,
and the criteria the grader's replies left unread (simple-evals ``healthbench_eval.py``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from xlingmed.views.base import CLI, REPORT, ViewTable, fmt


def _ci(block: Mapping[str, Any]) -> str:
    if block.get("mean") is None:
        return "–"
    return f"{block['mean']:.3f} [{block['ci_low']:.3f}, {block['ci_high']:.3f}] (n={block['n']})"


def tables(summary: Mapping[str, Any], run: Mapping[str, Any]) -> list[ViewTable]:
    langs = summary["languages"]
    axes = sorted({a for per_t in langs.values() for c in per_t.values() for a in c["axes"]})
    themes = sorted({a for per_t in langs.values() for c in per_t.values() for a in c["themes"]})
    main, by_axis, by_theme = [], [], []
    for lang, per_t in langs.items():
        for t, c in per_t.items():
            counts = c["counts"]
            unread = sum(v for k, v in counts.items() if k in ("criteria_unparsed", "criteria_error"))
            main.append([lang, t, _ci(c["score"]), fmt(c["harm_rate"]), str(unread),
                         str(counts.get("examples_unscored", 0))])  # fmt: skip
            by_axis.append([lang, t, *[_ci(c["axes"].get(a, {})) for a in axes]])
            by_theme.append([lang, t, *[_ci(c["themes"].get(a, {})) for a in themes]])
    grader = run.get("judge") or run.get("model")
    title = f"{run['benchmark']}: HealthBench score, mean clipped to [0, 1] [95% bootstrap CI] ({grader} grades)"
    return [
        ViewTable(
            title,
            ["lang", "τ", "score", "harm rate", "criteria unread", "examples unscored"],
            main,
            where=(CLI, REPORT),
            left=2,
        ),
        ViewTable("HealthBench score per axis", ["lang", "τ", *axes], by_axis, where=(REPORT,), left=2),
        ViewTable("HealthBench score per theme", ["lang", "τ", *themes], by_theme, where=(REPORT,), left=2),
    ]


def losses(summary: Mapping[str, Any], languages: Sequence[str]) -> list[dict[str, Any]]:
    r = summary["languages"]
    return [
        {
            "what": f"healthbench: {what}",
            "cells": [sum(c["counts"].get(key, 0) for c in r[lg].values()) for lg in languages],
        }
        for key, what in (
            ("criteria_unparsed", "criteria whose grade was unreadable"),
            ("examples_unscored", "conversations left unscored"),
        )
    ]
