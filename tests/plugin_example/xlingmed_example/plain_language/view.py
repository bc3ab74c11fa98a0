"""What the command line, the report and ``xlingmed annotate`` show of the task (``xlingmed.views.base.View``):
its hooks read the typed summary, not dict keys."""

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from xlingmed.views.base import Annotation, Figure, FigureSection, View, ViewTable, read_table

from .summary import Mean, PlainLanguageSummary


class PlainLanguageView(View[PlainLanguageSummary]):
    summary_type = PlainLanguageSummary

    def tables(self, summary: PlainLanguageSummary, run: Mapping[str, Any]) -> list[ViewTable]:
        metrics = sorted({m for c in summary.languages.values() for m in c.metrics})
        rows = [[lang, _share(c.plain), *(_share(c.metrics[m]) for m in metrics)]
                for lang, c in summary.languages.items()]  # fmt: skip
        title = f"{run['benchmark']}: plain-language answers (judge {run['judge']})"
        return [ViewTable(title, ["lang", "plain", *metrics], rows)]

    def losses(self, summary: PlainLanguageSummary, languages: Sequence[str]) -> list[dict[str, Any]]:
        return [{"what": "plain_language: unread judge replies",
                 "cells": [summary.languages[lang].unread for lang in languages]}]  # fmt: skip

    def figures(self, summary: PlainLanguageSummary, run: Mapping[str, Any], table: Any) -> FigureSection:
        from xlingmed.views.figures import headline_bars

        rows = [{"lang": lang, "temperature": 0.0, "value": round(100 * (c.plain.mean or 0.0), 1),
                 "note": f"n={c.plain.n}"} for lang, c in summary.languages.items()]  # fmt: skip
        png = headline_bars(rows, "plain answers %", f"{run.get('model')}: plain language", ymax=100)
        return FigureSection("Plain language (example plugin)", [Figure("plain_language", png, "plain answers")])

    def annotation(self, run_dir: Path) -> Annotation | None:
        """Every judged answer: did the judge rightly call it plain language?"""
        path = run_dir / "plain_language.csv"
        if not path.is_file():
            return None
        columns = ("item_id", "lang", "question", "reference", "answer", "judge_reply", "plain", "error")
        judged = [{"id": f"{r['item_id']}:{r['lang']}", "item_id": r["item_id"], "lang": r["lang"],
                   "question": r["question"], "reference": r["reference"], "answer": r["answer"],
                   "judge_reasoning": r["judge_reply"], "label": "yes" if float(r["plain"]) else "no"}
                  for r in read_table(path, columns) if not r["error"] and r["plain"]]  # fmt: skip
        return Annotation(path, judged, ["yes", "no"], {"yes": "plain language", "no": "not plain language"})


def _share(c: Mean) -> str:
    return "–" if c.mean is None else f"{100 * c.mean:.0f}% (n={c.n})"
