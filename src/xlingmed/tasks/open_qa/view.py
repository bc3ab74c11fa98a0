"""Open answers: BERTScore F1 × 100 per language and temperature (MedArabiQ Table 1 layout in the report)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from xlingmed.tasks.open_qa.summary import OpenQASummary
from xlingmed.views.base import CLI, Figure, FigureSection, View, ViewTable, encoder_note, fmt, from_records


class OpenQAView(View[OpenQASummary]):
    """The open_qa task's view (``views/base.py``: the hooks a view may override), reading its ``OpenQASummary``."""

    summary_type = OpenQASummary

    def tables(self, summary: OpenQASummary, run: Mapping[str, Any]) -> list[ViewTable]:
        version = (run.get("dataset") or {}).get("version", "?")
        bs = summary.settings.bertscore
        rows = []
        for lang, per_t in summary.languages.items():
            for t, cell in per_t.items():
                f1 = cell.bertscore_f1
                rows.append([lang, t, fmt(f1.mean, 1), fmt(f1.sd, 1), str(f1.n),
                             str(cell.n_empty_responses), str(cell.n_errors)])  # fmt: skip
        title = f"{run['benchmark']}: BERTScore F1 × 100 ({bs['model']} L{bs['layer']}); {version}"
        columns = ["lang", "τ", "mean", "sd", "n", "empty replies", "errors"]
        note = encoder_note(bs, "BERTScore")
        return [
            ViewTable(title, columns, rows, where=(CLI,)),
            from_records("BERTScore F1 × 100 (MedArabiQ Table 1 layout)", summary.table1, note),
        ]

    def losses(self, summary: OpenQASummary, languages: Sequence[str]) -> list[dict[str, Any]]:
        q = summary.languages
        return [
            {"what": "open answers: empty replies (scored 0)",
             "cells": [sum(t.n_empty_responses for t in q[lg].values()) for lg in languages]},
            {"what": "open answers: failed requests",
             "cells": [sum(t.n_errors for t in q[lg].values()) for lg in languages]},
        ]  # fmt: skip

    def notes(self, summary: OpenQASummary) -> list[str]:
        note = encoder_note(summary.settings.bertscore, "BERTScore")
        return [note] if note else []

    def figures(self, summary: OpenQASummary, run: Mapping[str, Any], table: Any) -> FigureSection:
        from xlingmed.views.figures import headline_bars

        rows = [{**r, "note": f"n={r['n']}"} for r in summary.table1]
        png = headline_bars(
            rows, "BERTScore F1 × 100", f"{run.get('model', '?')}: {run.get('benchmark', '?')}", ymax=100
        )
        note = ". ".join(self.notes(summary))
        return FigureSection("Open answers (MedArabiQ Table 1)", [Figure("open_qa", png, "BERTScore of open answers")],
                             note + "." if note else "")  # fmt: skip
