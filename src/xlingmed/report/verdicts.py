"""The report's verdict section: per run, the non-inferiority verdict of each language on each primary outcome
(``analysis.verdicts``) as a table, and one paragraph in plain language generated from those rows alone."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from xlingmed.analysis.verdicts import INCONCLUSIVE, INFERIOR, NONINFERIOR, noninferiority, paired
from xlingmed.views.base import cell

ORDER = (INFERIOR, INCONCLUSIVE, NONINFERIOR)
# what counts as made by people, for --provenance human and the report's human-only verdicts (benchmarks.hub)
BY_PEOPLE = ("original", "human", "post-edited")


def human_translated(scores: pd.DataFrame) -> pd.DataFrame | None:
    """The Scores of items whose text was written or translated by people, when the run mixes those with machine
    or unstated translations (``Score.translation``); ``None`` when it does not (nothing to show twice)."""
    if "translation" not in scores or scores["translation"].isna().all():
        return None
    made = scores["translation"].fillna("unstated")
    people = made.isin(BY_PEOPLE)
    if people.all() or not people.any() or set(made[people]) == {"original"}:
        return None
    return scores[people]


def _name(code: str) -> str:
    from xlingmed.languages.codes import name_of

    return name_of(code)


def amount(row: Mapping[str, Any], value: float) -> str:
    """A difference or margin in the outcome's units: percentage points for a proportion."""
    if value != value:  # NaN: an outcome with no default margin, none given
        return "not given"
    if row["unit"] == "proportion":
        return f"{100 * abs(value):.1f} percentage points"
    return f"{abs(value):.3g} {row['unit']}"


def paragraph(model: str, benchmark: str, rows: Sequence[Mapping[str, Any]], alpha: float) -> str:
    """What a reader must know, in sentences built from the verdict rows: which languages are inferior,
    inconclusive (with the items needed) or non-inferior on which outcome, with the margin."""
    if not rows:
        return (
            f"{model} on {benchmark}: no verdict (no task with a primary outcome was scored in English and another "
            "language)."
        )
    head = (
        f"{model} on {benchmark}, each language against English (one-sided {100 * (1 - alpha):.0f}% bounds resampled "
        "by item, Holm-corrected across languages)."
    )
    if any(r.get("design") == "unpaired" for r in rows):
        head = (
            f"{model} on {benchmark}, each language against English. Unpaired: this set asks different questions in "
            f"each language, so a difference mixes the language with the questions (one-sided "
            f"{100 * (1 - alpha):.0f}% bounds, each language's items resampled separately, Holm-corrected)."
        )
    parts = [head]
    for verdict in ORDER:
        mine = [r for r in rows if r["verdict"] == verdict]
        if not mine:
            continue
        said = []
        for r in mine:
            what = f"{_name(str(r['lang']))} on {r['outcome']} (δ = {amount(r, r['margin'])}"
            if verdict == INFERIOR:
                what += f"; worse by {amount(r, r['difference'])}"
            elif verdict == INCONCLUSIVE and r.get("verdict_as_read", verdict) != verdict:
                what += f"; {r['verdict_as_read']} as read, but the replies not read directly decide it"
            elif verdict == INCONCLUSIVE and not r["n_items"]:
                what += "; no item scored in both languages"
            elif verdict == INCONCLUSIVE:
                needed = r.get("n_items_needed")
                what += f"; {paired(r['n_items'], r.get('design', 'paired'))}"
                what += f", about {needed} needed" if needed else ", the observed gap sits on the margin"
            said.append(what + ")")
        label = {INFERIOR: "Inferior", INCONCLUSIVE: "Inconclusive", NONINFERIOR: "Non-inferior"}[verdict]
        parts.append(f"{label}: {'; '.join(said)}.")
    unverified = [r for r in rows if r.get("judge_verified") is False]
    if unverified:
        said = [f"{_name(str(r['lang']))} on {r['outcome']} ({_judge_words(r)})" for r in unverified]
        parts.append(
            "Judge-unverified, so read these verdicts as the judge's, not yet the clinicians': " + "; ".join(said) + "."
        )
    limited = [r for r in rows if r.get("parse_limited")]
    if limited:
        parts.append(
            "Parse-limited, so reading the replies alone could change these verdicts (more than 5% of the replies "
            "unread, ambiguous or read by a fallback rule): " + "; ".join(_parse_words(r) for r in limited) + "."
        )
    return " ".join(parts)


def _parse_words(r: Mapping[str, Any]) -> str:
    """``Hindi on accuracy (12.5% of Hindi replies not read directly; inferior if every one is wrong,
    inconclusive if every one is right)``."""
    shares = [f"{100 * r['not_read_share']:.1f}% of {_name(str(r['lang']))} replies"] if r.get("not_read_share") else []
    if (r.get("not_read_share_reference") or 0) > 0.05:
        shares.append(f"{100 * r['not_read_share_reference']:.1f}% of {_name(str(r['reference']))} replies")
    return (
        f"{_name(str(r['lang']))} on {r['outcome']} ({' and '.join(shares) or 'replies'} not read directly; "
        f"{r.get('verdict_unread_wrong')} if every one is wrong, {r.get('verdict_unread_right')} if every one is right)"
    )


def _judge_words(r: Mapping[str, Any]) -> str:
    kappa = r.get("judge_kappa")
    return "no judge–human agreement measured" if kappa is None else f"judge–human κ {kappa:.2f}"


def reliability(annotations: Sequence[Path]) -> dict[tuple[str, str], dict[str, Any]]:
    """The judge's agreement with humans per (task, language), from the annotation sets given to the report."""
    if not annotations:
        return {}
    from xlingmed.annotate import AnswerStore
    from xlingmed.annotate.agreement import judge_reliability
    from xlingmed.annotate.sample import load_judge_set

    sets = []
    for path in annotations:
        aset = load_judge_set(Path(path))
        sets.append((aset, AnswerStore(aset.path / "answers.sqlite").all()))
    return judge_reliability(sets)


def _items_cell(r: Mapping[str, Any]) -> str:
    """``120`` paired; ``95 vs 120 (en)`` unpaired: each language's own questions."""
    if r.get("n_reference") is None:
        return str(r["n_items"])
    return f"{r['n_items']} vs {r['n_reference']} ({r['reference']})"


def _judge_cell(r: Mapping[str, Any]) -> str:
    if r.get("judge_verified") is None:
        return "no judge"
    kappa = "unmeasured" if r.get("judge_kappa") is None else f"{r['judge_kappa']:.2f} (n={r['judge_items']})"
    return kappa if r["judge_verified"] else f"{kappa}: judge-unverified"


def _parse_cell(r: Mapping[str, Any]) -> str:
    """``12.5%: parse-limited``, ``1.2%``, or ``–`` where the outcome parses no reply."""
    share = r.get("not_read_share")
    if share is None:
        return "–"
    return f"{100 * share:.1f}%: parse-limited" if r.get("parse_limited") else f"{100 * share:.1f}%"


def section(
    scores: pd.DataFrame,
    summary: Mapping[str, Any],
    languages: Sequence[str],
    margins: Mapping[str, float],
    *,
    alpha: float,
    equivalence: bool,
    judges: Mapping[tuple[str, str], Mapping[str, Any]],
    min_judge_kappa: float,
    n_resamples: int,
    seed: int,
    parallel: bool = True,
) -> dict[str, Any]:
    """The verdict rows of one run (``raw``, for ``stats/verdicts.csv``), their formatted table and paragraph."""
    from xlingmed.tasks.registry import task_outcomes

    raw = noninferiority(
        scores, languages, margins=margins, tasks=task_outcomes(), alpha=alpha, equivalence=equivalence,
        judges=judges, min_judge_kappa=min_judge_kappa, n_resamples=n_resamples, seed=seed, parallel=parallel,
    )  # fmt: skip
    columns = [
        "outcome",
        "lang",
        "design",
        "verdict",
        "items",
        "margin δ",
        "English",
        "language",
        "difference",
        "bounds",
    ]
    columns += ["judge–human κ", "not read"]
    if equivalence:
        columns.append("equivalent (TOST)")
    table = []
    for r in raw:
        row = [
            str(r["outcome"]), str(r["lang"]), str(r["design"]), str(r["verdict"]), _items_cell(r), cell(r["margin"]),
            cell(r.get("value_reference")), cell(r.get("value_lang")), cell(r.get("difference")),
            "–" if r.get("lower") is None else f"[{cell(r['lower'])}, {cell(r['upper'])}]",
            _judge_cell(r), _parse_cell(r),
        ]  # fmt: skip
        if equivalence:
            row.append(cell(r.get("equivalent")))
        table.append({"cells": row, "verdict": r["verdict"], "reason": r.get("reason", "")})
    return {
        "raw": raw,
        "columns": columns,
        "rows": table,
        "paragraph": paragraph(str(summary.get("model", "?")), str(summary.get("benchmark", "?")), raw, alpha),
    }
