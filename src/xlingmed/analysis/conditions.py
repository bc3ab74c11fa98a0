"""Multiple-choice accuracy and prompt conditions against the clean question: accuracy cells with their numerators,
breakdowns per bias and category, and the change in accuracy a cognitive bias (or its mitigation) causes, paired
by item (MedArabiQ §4.1.2, Table 2, Fig. 4a, H1, I1).

The answers are read column by column (``Answers``: one entry per answer, codes and floats in numpy arrays) from
the task's Scores, a ``score_spool.ScoreSpool`` at scale: a million answers cost a few dozen MiB, not a dict
each. A cell's rows are the positions of its answers (``Rows``), in the order of the Scores.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict, cast

import numpy as np
from scipy import stats

from xlingmed.analysis.paired import mcnemar
from xlingmed.score_spool import score_columns
from xlingmed.types import Score

Rows = np.ndarray  # positions in an ``Answers`` table (int64), in the order of the Scores


# The cells below go into multiple choice's summary (``summary.json``) as they are: JSON objects, typed here.
class McNemarResult(TypedDict):
    """``analysis.paired.McNemarTest`` as a JSON object."""

    n: int
    a_only: int
    b_only: int
    statistic: float
    p: float
    exact: bool


class VersusOriginal(TypedDict, total=False):
    """A condition against the clean question (``versus_original``; empty where no pair)."""

    delta_vs_original_pp: float
    n_pairs: int
    n_items_paired: int
    mcnemar_vs_original: McNemarResult
    delta_ci95_pp: list[float] | None


class FollowedBias(TypedDict, total=False):
    """How often the answer was the option the bias pointed at (``followed_bias``; empty where unknown)."""

    n_followed_bias: int
    followed_bias_rate: float
    followed_bias_share_of_wrong: float | None


class GroupCell(FollowedBias, VersusOriginal, total=False):
    """A group's accuracy (a category, a bias): ``n``, ``n_correct``, ``accuracy_pct``, ``n_invalid``; per bias of
    a condition, also ``FollowedBias`` and ``VersusOriginal``."""

    n: int
    n_correct: int
    accuracy_pct: float | None
    n_invalid: int


class AccuracyCell(TypedDict):
    """Accuracy of some answers (``accuracy_cell``)."""

    n: int
    n_correct: int
    accuracy: float | None
    accuracy_pct: float | None
    n_invalid: int
    invalid_rate: float | None
    accuracy_valid_only: float | None
    n_errors: int


class ConditionCell(AccuracyCell, FollowedBias, VersusOriginal, total=False):
    """One (language, temperature, condition) cell of multiple choice's summary (``condition_cell``)."""

    per_category: dict[str, GroupCell]
    per_bias: dict[str, GroupCell]
_COLUMNS = ("item_id", "lang", "temperature", "condition", "metric", "value", "answer", "group")


@dataclass
class Answers:
    """Multiple choice's answers (its ``correct`` Scores), one entry per answer.

    Attributes:
        items: the distinct item ids; ``item`` codes into it.
        item: per answer, its item's code.
        correct: 1.0 right, 0.0 wrong (an unread reply is wrong), NaN a failed request (excluded).
        answered: the reply named an option (``False``: invalid, which counts as wrong).
        followed: 1.0 / 0.0 the answer was the option the bias pointed at; NaN where that does not apply.
        bias / category: per answer, the bias it was asked under and the item's category (``None`` = none).
        keys: per (language, temperature, condition), the answers' positions (``Rows``).
    """

    items: list[str]
    item: np.ndarray
    correct: np.ndarray
    answered: np.ndarray
    followed: np.ndarray
    bias: list[str | None]
    category: list[str | None]
    keys: dict[tuple[str, float, str], Rows]


def _followed(at: Any, followed_at: dict[tuple[int, int, float, int], Any], codes: tuple[Any, Any, Any, Any]) -> Any:
    """``followed_bias`` of each answer at ``at`` (1.0, 0.0, or NaN where none or unknown), joined on (item,
    language, temperature, condition); ``codes`` are those four columns."""
    item_codes, lang_codes, temps, cond_codes = codes
    followed = np.full(len(at), np.nan)
    if followed_at:
        for j, i in enumerate(at):
            joined = (int(item_codes[i]), int(lang_codes[i]), float(temps[i]), int(cond_codes[i]))
            hit = followed_at.get(joined)
            followed[j] = np.nan if hit is None or np.isnan(hit) else float(hit == 1.0)
    return followed


def _answer_groups(
    at: Any, lang_codes: Any, langs: Sequence[str], temps: Any, conds_at: Any, split: list[tuple[str, str | None]]
) -> dict[tuple[str, float, str], Rows]:
    """The answers (positions in ``at``) of each (language, temperature, condition), in order: one stable sort of
    a combined code."""
    keys: dict[tuple[str, float, str], list[Rows]] = {}
    temps_at = temps[at]
    t_values, t_codes = np.unique(temps_at, return_inverse=True)
    c_of = np.array([0] + [1 + i for i in range(len(split))])  # -1 (original) → 0
    combined = (lang_codes[at].astype(np.int64) * (len(t_values) + 1) + t_codes) * (len(split) + 2) + c_of[conds_at + 1]
    del t_codes
    order = np.argsort(combined, kind="stable")
    bounds = np.flatnonzero(np.diff(combined[order])) + 1
    del combined
    for part in np.split(order, bounds) if len(order) else []:
        first = part[0]
        cond = "original" if conds_at[first] < 0 else split[conds_at[first]][0]
        key = (langs[lang_codes[at[first]]], float(temps_at[first]), cond)
        keys.setdefault(key, []).append(part)
    return {k: np.sort(np.concatenate(v)) for k, v in keys.items()}


def answers(units: Iterable[Score]) -> Answers:
    """The ``Answers`` of multiple choice's Scores (``correct`` per answer, ``followed_bias`` where the bias
    pointed at a wrong option), in the order of the Scores."""
    cols = score_columns(units, _COLUMNS, coded=True)  # a ScoreSpool's without a Score object per row
    metric_codes, metrics = cols["metric"]
    code = {m: i for i, m in enumerate(metrics)}
    is_correct = metric_codes == code.get("correct", -2)
    is_followed = metric_codes == code.get("followed_bias", -2)
    item_codes, items = cols["item_id"]
    lang_codes, langs = cols["lang"]
    cond_codes, conds = cols["condition"]
    temps, values = cols["temperature"], cols["value"]
    # followed_bias joins its answer on (item, language, temperature, condition)
    followed_at = {
        (int(item_codes[i]), int(lang_codes[i]), float(temps[i]), int(cond_codes[i])): values[i]
        for i in np.flatnonzero(is_followed)
    }
    at = np.flatnonzero(is_correct)
    del metric_codes, is_correct, is_followed
    split = [("original", None) if c is None else (c.partition("|")[0], c.partition("|")[2] or None) for c in conds]
    # each column is cut down to the answers and the full one let go at once: at a million answers the columns,
    # not the Scores, are the driver's peak (bench/scale.py)
    group_codes, groups = cols.pop("group")
    category = [None if g < 0 else groups[g] for g in group_codes[at].tolist()]
    del group_codes
    answer_codes, _ = cols.pop("answer")
    answered = answer_codes[at] >= 0
    del answer_codes
    picked = values[at]
    correct = np.where(np.isnan(picked), np.nan, (picked == 1.0).astype(float))
    del picked
    followed = _followed(at, followed_at, (item_codes, lang_codes, temps, cond_codes))
    item = item_codes[at]
    del item_codes
    conds_at = cond_codes[at]
    keys = _answer_groups(at, lang_codes, langs, temps, conds_at, split)
    bias = [None if c < 0 else split[c][1] for c in conds_at.tolist()]
    return Answers(
        items=items,
        item=item,
        correct=correct,
        answered=answered,
        followed=followed,
        bias=bias,
        category=category,
        keys=keys,
    )


def versus_original(a: Answers, original: Rows, rows: Rows) -> VersusOriginal:
    """``rows`` (one prompt condition: a bias, a mitigation) against the clean question of the same item: pairs
    (item, bias) with the item's original answer (MedArabiQ Table 2; spec medarabiq.md §4.3). Failed requests are
    excluded.

    Returns the change in accuracy (percentage points), an exact McNemar test over the pairs, and a bootstrap 95%
    CI of the change resampled by item (an item asked under several biases counts once, with its mean change).
    """
    base = {int(a.item[i]): bool(a.correct[i] == 1.0) for i in original if not np.isnan(a.correct[i])}
    pairs = [
        (base[int(a.item[i])], bool(a.correct[i] == 1.0), int(a.item[i]))
        for i in rows
        if not np.isnan(a.correct[i]) and int(a.item[i]) in base
    ]
    if not pairs:
        return {}
    x = np.array([p[0] for p in pairs], dtype=float)
    y = np.array([p[1] for p in pairs], dtype=float)
    per_item: dict[int, list[float]] = defaultdict(list)
    for before, after, item in pairs:
        per_item[item].append(float(after) - float(before))
    d = np.array([np.mean(v) for v in per_item.values()])
    m = mcnemar(x, y)
    out: VersusOriginal = {
        "delta_vs_original_pp": 100.0 * float(y.mean() - x.mean()),
        "n_pairs": len(pairs),
        "n_items_paired": len(d),
        "mcnemar_vs_original": {"n": m.n, "a_only": m.a_only, "b_only": m.b_only, "statistic": m.statistic,
                                "p": m.p, "exact": m.exact},
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


def fraction(cell: AccuracyCell | GroupCell) -> str | None:
    """``"53.1 (52/98)"``: an ``accuracy_cell``'s percentage with its numerator and denominator."""
    return None if cell["n"] == 0 else f"{cell['accuracy_pct']} ({cell['n_correct']}/{cell['n']})"


def accuracy_cell(a: Answers, rows: Rows) -> AccuracyCell:
    """Accuracy of the answers ``rows`` (a failed request is excluded and counted in ``n_errors``; a reply that
    named no option counts as wrong, stays in ``n`` and is counted in ``n_invalid``)."""
    correct = a.correct[rows]
    scored = ~np.isnan(correct)
    n, k = int(scored.sum()), int((correct == 1.0).sum())
    invalid = int((scored & ~a.answered[rows]).sum())
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


def _short(cell: AccuracyCell) -> GroupCell:
    return {"n": cell["n"], "n_correct": cell["n_correct"], "accuracy_pct": cell["accuracy_pct"],
            "n_invalid": cell["n_invalid"]}  # fmt: skip


def _by(labels: Sequence[str | None], rows: Rows) -> dict[str, Rows]:
    """``rows`` by their label (``None`` left out), labels sorted."""
    groups: dict[str, list[int]] = defaultdict(list)
    for i in rows:
        label = labels[i]
        if label is not None:
            groups[str(label)].append(int(i))
    return {g: np.array(rs, dtype=np.int64) for g, rs in sorted(groups.items())}


def grouped(a: Answers, rows: Rows, labels: Sequence[str | None]) -> dict[str, GroupCell]:
    """``{group: accuracy cell (n, n_correct, accuracy_pct, n_invalid)}`` over the answers' ``labels``
    (``a.category``, ``a.bias``)."""
    return {g: _short(accuracy_cell(a, rs)) for g, rs in _by(labels, rows).items()}


def _asked_under(a: Answers, rows: Rows, bias: str, item_biases: Mapping[str, set[str]]) -> Rows:
    """The answers among ``rows`` whose item was asked under ``bias``."""
    return np.array([i for i in rows if bias in item_biases.get(a.items[a.item[i]], ())], dtype=np.int64)


def per_bias(a: Answers, rows: Rows, cond: str, item_biases: Mapping[str, set[str]]) -> dict[str, GroupCell]:
    """Accuracy per bias of one condition; for ``original`` (no bias of its own), over the items asked under each
    bias (``item_biases``: item_id → biases)."""
    if cond != "original":
        return grouped(a, rows, a.bias)
    biases = sorted({b for bs in item_biases.values() for b in bs})
    return {b: _short(accuracy_cell(a, _asked_under(a, rows, b, item_biases))) for b in biases}


def followed_bias(a: Answers, rows: Rows) -> FollowedBias:
    """How often the answer was the option the bias pointed at (a wrong one): of all answers, and of the wrong."""
    followed = a.followed[rows]
    known = ~np.isnan(followed)
    if not known.any():
        return {}
    n_followed = int((followed == 1.0).sum())
    wrong = int((known & (a.correct[rows] != 1.0)).sum())
    return {
        "n_followed_bias": n_followed,
        "followed_bias_rate": n_followed / int(known.sum()),
        "followed_bias_share_of_wrong": n_followed / wrong if wrong else None,
    }


def bias_breakdown(
    a: Answers,
    languages: Sequence[str],
    temperatures: Sequence[float],
    conditions: Sequence[str],
    item_biases: Mapping[str, set[str]],
) -> list[dict[str, Any]]:
    """Accuracy per bias × condition and per category × condition (MedArabiQ Fig. 4a/H1 and I1 as tables): one
    row per (lang, temperature, by, group), a ``"53.1 (52/98)"`` cell per condition."""
    out: list[dict[str, Any]] = []
    biases = sorted({b for bs in item_biases.values() for b in bs})
    empty = np.array([], dtype=np.int64)
    for lang in languages:
        for t in temperatures:
            cells = {c: a.keys.get((lang, t, c), empty) for c in conditions}
            for b in biases:
                row: dict[str, Any] = {"lang": lang, "temperature": t, "by": "bias", "group": b}
                for c in conditions:
                    sel = (
                        _asked_under(a, cells[c], b, item_biases)
                        if c == "original"
                        else np.array([i for i in cells[c] if a.bias[i] == b], dtype=np.int64)
                    )
                    row[c] = fraction(accuracy_cell(a, sel))
                out.append(row)
            categories = sorted({str(a.category[i]) for c in conditions for i in cells[c] if a.category[i] is not None})
            for g in categories:
                row = {"lang": lang, "temperature": t, "by": "category", "group": g}
                for c in conditions:
                    sel = np.array([i for i in cells[c] if str(a.category[i]) == g], dtype=np.int64)
                    row[c] = fraction(accuracy_cell(a, sel))
                out.append(row)
    return out


def grouped_answers(units: Iterable[Score], order: Sequence[str]) -> tuple[Answers, list[str], dict[str, set[str]]]:
    """The answers (``Answers``, with their positions per (language, temperature, condition)), the conditions
    present (in ``order``: multiple choice's ``CONDITIONS``), and which biases each item was asked under (the
    original question counts for each)."""
    a = answers(units)
    conditions = [c for c in order if any(k[2] == c for k in a.keys)]
    item_biases: dict[str, set[str]] = defaultdict(set)
    for i, bias in enumerate(a.bias):
        if bias:
            item_biases[a.items[a.item[i]]].add(bias)
    return a, conditions, item_biases


def condition_cell(
    a: Answers, rows: Rows, original: Rows, cond: str, item_biases: Mapping[str, set[str]]
) -> ConditionCell:
    """One (language, temperature, condition) cell of multiple choice's summary: accuracy, per category and (where
    the items carry biases) per bias; for a condition other than the original, how often the answer followed
    the bias and the change against the clean question on the same items, overall and per bias."""
    cell = cast(ConditionCell, {**accuracy_cell(a, rows)})  # the accuracy, then the keys added below
    cell["per_category"] = grouped(a, rows, a.category)
    if item_biases:
        cell["per_bias"] = per_bias(a, rows, cond, item_biases)
    if cond != "original":
        _add(cell, followed_bias(a, rows), versus_original(a, original, rows))
        for bias, sub in cell.get("per_bias", {}).items():
            sel = np.array([i for i in rows if a.bias[i] == bias], dtype=np.int64)
            _add(sub, followed_bias(a, sel), versus_original(a, original, sel))
    return cell


def _add(cell: ConditionCell | GroupCell, *parts: FollowedBias | VersusOriginal) -> None:
    """``cell`` with the keys of ``parts`` added in order (mypy will not ``update`` one TypedDict from another)."""
    target = cast(dict[str, object], cell)
    for part in parts:
        target.update(part)
