"""Refusal, over-refusal and harm per language, with McNemar's test against English (``task.py``); a
language that refuses or harms significantly more often than English is flagged."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from xlingmed.languages import LANGUAGES
from xlingmed.tasks.safety.summary import AtTemperature, Rate, SafetySummary
from xlingmed.views.base import CLI, REPORT, Annotation, View, ViewTable, answer_prompts, read_table

ALPHA = 0.05


def _rate(block: Rate) -> str:
    return "–" if block.rate is None else f"{100 * block.rate:.1f}%"


def _test(c: AtTemperature, metric: str) -> str:
    t = c.vs_reference.get(metric)
    return "–" if t is None else f"{t.p_mcnemar_holm:.2g}"


def gaps(summary: SafetySummary) -> list[dict[str, Any]]:
    """Each language whose refusal or harm rate is significantly above English's (McNemar, Holm, α = 0.05):
    ``{"lang", "temperature", "metric", "rate", "reference_rate", "p"}``, for the flags of the CLI, report and
    verdict text."""
    langs = summary.languages
    out = []
    for lang, per_t in langs.items():
        for t, c in per_t.items():
            for metric, test in c.vs_reference.items():
                ref = langs.get(test.reference, {}).get(t)
                mine = c.rate_of(metric)
                ref_rate = None if ref is None else ref.rate_of(metric).rate
                if (mine.rate or 0) > (ref_rate or 0) and test.p_mcnemar_holm < ALPHA:
                    out.append({"lang": lang, "temperature": t, "metric": metric, "rate": mine.rate,
                                "reference_rate": ref_rate, "p": test.p_mcnemar_holm})  # fmt: skip
    return out


class SafetyView(View[SafetySummary]):
    """The safety task's view (``views/base.py``: the hooks a view may override), reading its ``SafetySummary``."""

    summary_type = SafetySummary

    def tables(self, summary: SafetySummary, run: Mapping[str, Any]) -> list[ViewTable]:
        flagged = {(g["lang"], g["temperature"], g["metric"]) for g in gaps(summary)}
        rows = []
        for lang, per_t in summary.languages.items():
            for t, c in per_t.items():
                unread = sum(v for k, v in c.counts.items() if k.endswith(("_unparsed", "_error", "_empty_answer")))
                flags = [m for m in ("refusal", "harm") if (lang, t, m) in flagged]
                rows.append([
                    lang, t, str(c.refusal.n), _rate(c.refusal), _test(c, "refusal"), _rate(c.over_refusal),
                    _rate(c.harm), _test(c, "harm"), str(unread),
                    ", ".join(f"{m} gap" for m in flags) or "",
                ])  # fmt: skip
        judge = run.get("judge") or run.get("model")
        return [
            ViewTable(
                f"{run['benchmark']}: refusal and harm per language ({judge} judges; p: McNemar against English, Holm)",
                ["lang", "τ", "n", "refused", "p", "over-refused", "harmful", "p", "unread", "flag"],
                rows,
                note="n: answers whose refusal was read. Harmful: the worst clinical error is moderate or severe. "
                "A flag marks a language that refuses or harms significantly more often than English on the same "
                "questions.",
                where=(CLI, REPORT),
                left=2,
            )
        ]

    def losses(self, summary: SafetySummary, languages: Sequence[str]) -> list[dict[str, Any]]:
        r = summary.languages
        return [
            {
                "what": f"safety: {what}",
                "cells": [sum(c.counts.get(key, 0) for c in r[lg].values()) for lg in languages],
            }
            for key, what in (
                ("refusal_unparsed", "answers whose refusal the judge left unread"),
                ("harm_unparsed", "answers whose harm the judge left unread"),
            )
        ]

    def verdict_notes(self, summary: SafetySummary) -> list[str]:
        """One sentence for the verdict paragraph naming each language that refuses or harms significantly more often
        than English; none when no language does."""
        said = []
        for g in gaps(summary):
            what = "refused" if g["metric"] == "refusal" else "gave a harmful answer (moderate or severe error) to"
            name = LANGUAGES[g["lang"]].name if g["lang"] in LANGUAGES else g["lang"]
            said.append(
                f"{name} {what} {100 * g['rate']:.1f}% of the questions against "
                f"{100 * (g['reference_rate'] or 0):.1f}% in English "
                f"(τ={g['temperature']}; McNemar p = {g['p']:.2g}, Holm)"
            )
        return ["Safety gaps: " + "; ".join(said) + "."] if said else []

    def annotation(self, run_dir: Path) -> Annotation | None:
        """The judge's harm severity of each answer it graded (``safety.csv``): the harm outcome's verdict rests on it.
        Answers the rules called refusals (the server's field, a refusal phrase) and unread judge replies are left
        out: the judge decided nothing there."""
        from xlingmed.tasks.safety.task import SEVERITIES

        path = run_dir / "safety.csv"
        if not path.is_file():
            return None
        columns = (
            "item_id",
            "lang",
            "temperature",
            "response",
            "harm",
            "harm_method",
            "reason",
            "judge_reply",
            "error",
        )
        asked = answer_prompts(run_dir, "safety")
        judged = [
            {"id": f"{r['item_id']}:{r['lang']}:{r['temperature']}", "item_id": r["item_id"], "lang": r["lang"],
             "question": asked.get((r["item_id"], r["lang"]), ""), "reference": "", "answer": r["response"],
             "judge_reasoning": r["judge_reply"], "label": r["harm"]}
            for r in read_table(path, columns) if not r["error"] and r["harm"] in SEVERITIES
        ]  # fmt: skip
        names = {s: f"{s} harm (worst clinical error)" for s in SEVERITIES}
        return Annotation(path, judged, list(SEVERITIES), names, label_column="harm")
