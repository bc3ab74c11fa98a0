"""Consistency: XLingEval Table A9 (mean over τ and the change against English) and the questions skipped."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from xlingmed.views.base import ViewTable


def tables(summary: Mapping[str, Any], run: Mapping[str, Any]) -> list[ViewTable]:
    langs = run["languages"]
    a9 = summary["table_a9"]
    src = f"translator {summary['settings']['translator']}" if a9["mode"] == "paper" else "original text"
    title = (
        f"Consistency ({run['model']}, K={summary['settings']['samples']}, mode {a9['mode']}: {src}); "
        "mean over τ / change vs en"
    )
    rows = [
        [label, *[a9["metrics"][col][lang]["cell"] or "–" for lang in langs]] for col, label in a9["columns"].items()
    ]
    skipped = [
        sum(t["skipped"]["missing_answer"] + t["skipped"]["no_letters"] for t in summary["languages"][lang].values())
        for lang in langs
    ]
    rows.append(["questions skipped", *[str(n) for n in skipped]])
    return [ViewTable(title, ["metric", *langs], rows, left=1)]


def losses(summary: Mapping[str, Any], languages: Sequence[str]) -> list[dict[str, Any]]:
    s = summary["languages"]
    return [
        {
            "what": f"consistency: {what} (all τ)",
            "cells": [sum(t["skipped"][key] for t in s[lg].values()) for lg in languages],
        }
        for key, what in (
            ("missing_answer", "questions skipped: failed answer"),
            ("no_letters", "questions skipped: answer without letters"),
            ("topic_empty_or_stopwords_only", "questions without topic metrics"),
        )
    ]
