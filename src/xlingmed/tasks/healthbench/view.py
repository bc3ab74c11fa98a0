"""HealthBench: the clipped mean score with its bootstrap CI per language, per axis, theme and every other tag, the
share of answers meeting a negative criterion and an accuracy one, and the criteria the grader left unread
(simple-evals ``healthbench_eval.py``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from xlingmed.tasks.base import number
from xlingmed.tasks.healthbench.summary import ClippedMean, HealthBenchSummary
from xlingmed.views.base import CLI, REPORT, Annotation, View, ViewTable, answer_prompts, fmt, read_table


def _ci(block: ClippedMean | None) -> str:
    if block is None or block.mean is None:
        return "–"
    return f"{block.mean:.3f} [{block.ci_low:.3f}, {block.ci_high:.3f}] (n={block.n})"


MET = {"True": "met", "False": "not_met"}


class HealthBenchView(View[HealthBenchSummary]):
    """The healthbench task's view (``views/base.py``: the hooks a view may override), reading its
    ``HealthBenchSummary``."""

    summary_type = HealthBenchSummary

    def tables(self, summary: HealthBenchSummary, run: Mapping[str, Any]) -> list[ViewTable]:
        langs = summary.languages
        axes = sorted({a for per_t in langs.values() for c in per_t.values() for a in c.axes})
        themes = sorted({a for per_t in langs.values() for c in per_t.values() for a in c.themes})
        others = sorted({a for per_t in langs.values() for c in per_t.values() for a in c.tags
                         if not a.startswith(("axis:", "theme:"))})  # fmt: skip
        main, by_axis, by_theme, by_tag = [], [], [], []
        for lang, per_t in langs.items():
            for t, c in per_t.items():
                unread = sum(v for k, v in c.counts.items() if k in ("criteria_unparsed", "criteria_error"))
                main.append([lang, t, _ci(c.score), fmt(c.negative_rate()), fmt(c.accuracy_harm_rate), str(unread),
                             str(c.counts.get("examples_unscored", 0))])  # fmt: skip
                by_tag.append([lang, t, *[_ci(c.tags.get(a)) for a in others]])
                by_axis.append([lang, t, *[_ci(c.axes.get(a)) for a in axes]])
                by_theme.append([lang, t, *[_ci(c.themes.get(a)) for a in themes]])
        grader = run.get("judge") or run.get("model")
        title = f"{run['benchmark']}: HealthBench score, mean clipped to [0, 1] [95% bootstrap CI] ({grader} grades)"
        return [
            ViewTable(
                title,
                [
                    "lang",
                    "τ",
                    "score",
                    "negative criteria met",
                    "accuracy harm",
                    "criteria unread",
                    "examples unscored",
                ],
                main,
                where=(CLI, REPORT),
                left=2,
            ),
            ViewTable("HealthBench score per axis", ["lang", "τ", *axes], by_axis, where=(REPORT,), left=2),
            ViewTable("HealthBench score per theme", ["lang", "τ", *themes], by_theme, where=(REPORT,), left=2),
            ViewTable(
                "HealthBench score per other tag (level:, cluster:, physician_agreed_category:, the set's own)",
                ["lang", "τ", *others],
                by_tag,
                where=(REPORT,),
                left=2,
            ),
        ]

    def losses(self, summary: HealthBenchSummary, languages: Sequence[str]) -> list[dict[str, Any]]:
        r = summary.languages
        return [
            {
                "what": f"healthbench: {what}",
                "cells": [sum(c.counts.get(key, 0) for c in r[lg].values()) for lg in languages],
            }
            for key, what in (
                ("criteria_unparsed", "criteria whose grade was unreadable"),
                ("examples_unscored", "conversations left unscored"),
            )
        ]

    def annotation(self, run_dir: Path) -> Annotation | None:
        """Each criterion the grader read (``healthbench.csv``): did the answer meet it? The annotator sees the user's
        last message, the criterion with its points, the answer and the grader's reply; unread grades are left out
        (they are counted, never read as met or unmet). Physicians' agreement with the grader per criterion is how
        HealthBench validated its grader (Arora et al., 2025, §6)."""
        path = run_dir / "healthbench.csv"
        if not path.is_file():
            return None
        columns = ("item_id", "lang", "temperature", "criterion_index", "criterion", "points", "response",
                   "grader_reply", "criteria_met", "error")  # fmt: skip
        asked = answer_prompts(run_dir, "healthbench")
        rows = read_table(path, columns)
        positive: dict[tuple[str, str, str], float] = defaultdict(float)  # a conversation's positive points
        for r in rows:
            positive[(r["item_id"], r["lang"], r["temperature"])] += max(number(r["points"]) or 0.0, 0.0)
        judged = []
        for r in rows:
            if r["error"] or r["criteria_met"] not in MET:
                continue
            possible = positive[(r["item_id"], r["lang"], r["temperature"])]
            judged.append({
                "id": f"{r['item_id']}:{r['lang']}:{r['temperature']}:{r['criterion_index']}", "item_id": r["item_id"],
                "lang": r["lang"], "question": asked.get((r["item_id"], r["lang"]), ""),
                "reference": f"Criterion ({float(r['points']):+g} points): {r['criterion']}", "answer": r["response"],
                "judge_reasoning": r["grader_reply"], "label": MET[r["criteria_met"]],
                # its share of the conversation's score (points over positive points): human labels of criteria
                # correct the score (analysis.corrected_verdicts)
                "weight": (number(r["points"]) or 0.0) / possible if possible > 0 else None,
            })  # fmt: skip
        names = {"met": "criterion met", "not_met": "criterion not met"}
        return Annotation(path, judged, list(MET.values()), names, label_column="criteria_met")
