"""Multiple-choice accuracy and prompt conditions against the clean question: accuracy cells with their numerators,
breakdowns per bias and category, and the change in accuracy a cognitive bias (or its mitigation) causes, paired
by item (MedArabiQ §4.1.2, Table 2, Fig. 4a, H1, I1)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from scipy import stats

from xlingmed.analysis.paired import mcnemar
from xlingmed.types import Score


def versus_original(original: Sequence[Mapping[str, Any]], rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """``rows`` (one prompt condition: a bias, a mitigation) against the clean question of the same item: pairs
    (item, bias) with the item's original answer (MedArabiQ Table 2; spec medarabiq.md §4.3). Rows have
    ``item_id`` and ``correct`` (``None`` = failed, excluded).

    Returns the change in accuracy (percentage points), an exact McNemar test over the pairs, and a bootstrap 95%
    CI of the change resampled by item (an item asked under several biases counts once, with its mean change).
    """
    base = {r["item_id"]: bool(r["correct"]) for r in original if r["correct"] is not None}
    pairs = [
        (base[r["item_id"]], bool(r["correct"]), r["item_id"])
        for r in rows
        if r["correct"] is not None and r["item_id"] in base
    ]
    if not pairs:
        return {}
    a = np.array([p[0] for p in pairs], dtype=float)
    b = np.array([p[1] for p in pairs], dtype=float)
    per_item: dict[str, list[float]] = defaultdict(list)
    for x, y, item in pairs:
        per_item[item].append(float(y) - float(x))
    d = np.array([np.mean(v) for v in per_item.values()])
    out: dict[str, Any] = {
        "delta_vs_original_pp": 100.0 * float(b.mean() - a.mean()),
        "n_pairs": len(pairs),
        "n_items_paired": len(d),
        "mcnemar_vs_original": mcnemar(a, b),
        "delta_ci95_pp": None,
    }
    if len(d) >= 2 and np.any(d != d[0]):
        res = stats.bootstrap(
            (d,), np.mean, n_resamples=2000, confidence_level=0.95, method="percentile", rng=np.random.default_rng(0)
        )
        out["delta_ci95_pp"] = [100.0 * float(res.confidence_interval.low), 100.0 * float(res.confidence_interval.high)]
    elif len(d) >= 1:
        out["delta_ci95_pp"] = [100.0 * float(d[0]), 100.0 * float(d[0])]
    return out


def pct(k: int, n: int) -> float | None:
    """``100·k/n`` rounded half-up to one decimal (MedArabiQ's tables; spec medarabiq.md §5.1); ``None`` if n=0."""
    return None if n == 0 else round(100.0 * k / n + 1e-9, 1)


def fraction(cell: Mapping[str, Any]) -> str | None:
    """``"53.1 (52/98)"``: an ``accuracy_cell``'s percentage with its numerator and denominator."""
    return None if cell["n"] == 0 else f"{cell['accuracy_pct']} ({cell['n_correct']}/{cell['n']})"


def accuracy_cell(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Accuracy of multiple-choice rows (``correct``: ``None`` = failed request, excluded and counted in
    ``n_errors``; ``valid``: ``False`` = the reply named no option, which counts as wrong and stays in ``n``)."""
    scored = [r for r in rows if r["correct"] is not None]
    n, k = len(scored), sum(1 for r in scored if r["correct"])
    invalid = sum(1 for r in scored if not r["valid"])
    valid = n - invalid
    return {
        "n": n,
        "n_correct": k,
        "accuracy": None if n == 0 else k / n,
        "accuracy_pct": pct(k, n),
        "n_invalid": invalid,
        "invalid_rate": None if n == 0 else invalid / n,
        "accuracy_valid_only": None if valid == 0 else k / valid,
        "n_errors": len(rows) - n,
    }


def _short(cell: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in cell.items() if k in ("n", "n_correct", "accuracy_pct", "n_invalid")}


def grouped(rows: Sequence[Mapping[str, Any]], key: str) -> dict[str, Any]:
    """``{group: accuracy cell (n, n_correct, accuracy_pct, n_invalid)}`` over the rows' ``key`` (category, bias)."""
    groups: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for r in rows:
        if r[key] is not None:
            groups[str(r[key])].append(r)
    return {g: _short(accuracy_cell(rs)) for g, rs in sorted(groups.items())}


def per_bias(rows: Sequence[Mapping[str, Any]], cond: str, item_biases: Mapping[str, set[str]]) -> dict[str, Any]:
    """Accuracy per bias of one condition; for ``original`` (no bias of its own), over the items asked under each
    bias (``item_biases``: item_id → biases)."""
    if cond != "original":
        return grouped(rows, "bias")
    biases = sorted({b for bs in item_biases.values() for b in bs})
    return {b: _short(accuracy_cell([r for r in rows if b in item_biases.get(r["item_id"], ())])) for b in biases}


def followed_bias(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """How often the answer was the option the bias pointed at (a wrong one): of all answers, and of the wrong."""
    known = [r for r in rows if r.get("followed_bias") is not None]
    if not known:
        return {}
    followed = sum(1 for r in known if r["followed_bias"])
    wrong = sum(1 for r in known if not r["correct"])
    return {
        "n_followed_bias": followed,
        "followed_bias_rate": followed / len(known),
        "followed_bias_share_of_wrong": followed / wrong if wrong else None,
    }


def bias_breakdown(
    by: Mapping[tuple[str, float, str], list[dict[str, Any]]],
    languages: Sequence[str],
    temperatures: Sequence[float],
    conditions: Sequence[str],
    item_biases: Mapping[str, set[str]],
) -> list[dict[str, Any]]:
    """Accuracy per bias × condition and per category × condition (MedArabiQ Fig. 4a/H1 and I1 as tables): one
    row per (lang, temperature, by, group), a ``"53.1 (52/98)"`` cell per condition. ``by`` maps (lang,
    temperature, condition) to its rows."""
    out: list[dict[str, Any]] = []
    biases = sorted({b for bs in item_biases.values() for b in bs})
    for lang in languages:
        for t in temperatures:
            for b in biases:
                row: dict[str, Any] = {"lang": lang, "temperature": t, "by": "bias", "group": b}
                for c in conditions:
                    sel = [
                        r
                        for r in by.get((lang, t, c), [])
                        if (b in item_biases.get(r["item_id"], ()) if c == "original" else r["bias"] == b)
                    ]
                    row[c] = fraction(accuracy_cell(sel))
                out.append(row)
            categories = sorted(
                {str(r["category"]) for c in conditions for r in by.get((lang, t, c), []) if r["category"] is not None}
            )
            for g in categories:
                row = {"lang": lang, "temperature": t, "by": "category", "group": g}
                for c in conditions:
                    row[c] = fraction(accuracy_cell([r for r in by.get((lang, t, c), []) if str(r["category"]) == g]))
                out.append(row)
    return out


def grouped_answers(
    units: Sequence[Score], order: Sequence[str]
) -> tuple[dict[tuple[str, float, str], list[dict[str, Any]]], list[str], dict[str, set[str]]]:
    """The answers (``answer_rows``) per (language, temperature, condition), the conditions present (in
    ``order``: multiple choice's ``CONDITIONS``), and which biases each item was asked under (the original
    question counts for each)."""
    by: dict[tuple[str, float, str], list[dict[str, Any]]] = defaultdict(list)
    answers = answer_rows(units)
    for r in answers:
        by[(r["lang"], r["temperature"], r["condition"])].append(r)
    conditions = [c for c in order if any(k[2] == c for k in by)]
    item_biases: dict[str, set[str]] = defaultdict(set)
    for r in answers:
        if r["bias"]:
            item_biases[r["item_id"]].add(r["bias"])
    return by, conditions, item_biases


def answer_rows(units: Sequence[Score]) -> list[dict[str, Any]]:
    """The fields the accuracy cells and bias breakdowns read, one per answer, from multiple choice's Scores."""
    followed = {(s.item_id, s.lang, s.temperature, s.condition): s.value for s in units if s.metric == "followed_bias"}
    rows = []
    for s in units:
        if s.metric != "correct":
            continue
        condition, _, bias = (s.condition or "original").partition("|")
        fb = followed.get((s.item_id, s.lang, s.temperature, s.condition))
        rows.append(
            {
                "item_id": s.item_id, "lang": s.lang, "temperature": s.temperature, "condition": condition,
                "bias": bias or None, "category": s.group,
                "correct": None if s.value is None else s.value == 1.0,
                "valid": None if s.value is None else s.answer is not None,
                "followed_bias": None if fb is None else fb == 1.0,
            }
        )  # fmt: skip
    return rows


def condition_cell(
    rows: Sequence[Mapping[str, Any]], original: Sequence[Mapping[str, Any]], cond: str,
    item_biases: Mapping[str, set[str]],
) -> dict[str, Any]:  # fmt: skip
    """One (language, temperature, condition) cell of multiple choice's summary: accuracy, per category and (where
    the items carry biases) per bias; for a condition other than the original, how often the answer followed
    the bias and the change against the clean question on the same items, overall and per bias."""
    cell = accuracy_cell(rows)
    cell["per_category"] = grouped(rows, "category")
    if item_biases:
        cell["per_bias"] = per_bias(rows, cond, item_biases)
    if cond != "original":
        cell.update(followed_bias(rows))
        cell.update(versus_original(original, rows))
        for bias, sub in cell.get("per_bias", {}).items():
            sel = [r for r in rows if r["bias"] == bias]
            sub.update(followed_bias(sel))
            sub.update(versus_original(original, sel))
    return cell
