"""Parse-limited verdicts: where reading the replies, not the model, could decide a verdict (issue 35).

An unread reply counts as wrong (MedArabiQ's rule) or drops out (a judge's unparsed label), so a parser that
reads Hindi replies worse than English ones makes Hindi look worse by itself. Where more than ``WARN_SHARE``
(5 %) of a language's replies on an outcome were not read by a direct rule — unread (``invalid``,
``ambiguous``, ``unparsed``…) or read by a fallback (a fuzzy match, the extractor model) — the verdict is
*parse-limited*: it is computed again under the two extremes those replies allow,

* ``unread_wrong``: every such reply of the language scored as wrong as it can be and every such reply of the
  reference as right as it can be (the language's worst case);
* ``unread_right``: the opposite (the language's best case);

and a verdict that is not the same under both is not given as *non-inferior* or *inferior*: it becomes
*inconclusive*, and the reason says what each extreme gives. "Wrong" and "right" are 0 and 1 for a binary
outcome (flipped where lower is better), the lowest and highest value observed for a continuous one, and for
macro-F1 the claim read against, or as, its truth. ``parsing.methods`` says which methods are which kind.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

import numpy as np
import pandas as pd

from xlingmed.analysis.verdict_record import Verdict
from xlingmed.parsing.methods import WARN_SHARE, kind_of

UNCERTAIN_KINDS = ("fallback", "unread")
NO_SHARE = {"not_read_share": None, "not_read_share_reference": None, "parse_limited": None}


def _uncertain(sub: pd.DataFrame) -> pd.Series:
    """Scores whose reply was not read by a direct rule (an unknown method counts as unread, as in
    ``parsing.methods.kind_of``)."""
    kinds = sub["parse_method"].map(lambda m: kind_of(m) if isinstance(m, str) and m else None)
    return kinds.isin(UNCERTAIN_KINDS)


def shares(sub: pd.DataFrame) -> dict[str, float]:
    """Per language, the share of an outcome's replies not read by a direct rule, over the replies that were
    parsed at all (failed requests left out); languages without a parse method are absent."""
    if "parse_method" not in sub:
        return {}
    parsed = sub[sub["parse_method"].map(lambda m: isinstance(m, str) and bool(m) and kind_of(m) != "error")]
    if parsed.empty:
        return {}
    flags = _uncertain(parsed)
    return {str(lang): float(flags[parsed["lang"] == lang].mean()) for lang in parsed["lang"].unique()}


def extreme(scores: pd.DataFrame, task: str, metric: str, statistic: str, reference: str, side: str) -> pd.DataFrame:
    """``scores`` with the uncertain replies of ``(task, metric)`` set to one extreme (module doc): ``side``
    ``unread_wrong`` (the languages' at their worst, the reference's at its best) or ``unread_right``."""
    out = scores.copy()
    mask = (out["task"] == task) & (out["metric"] == metric) & _uncertain(out)
    if not mask.any():
        return out
    good = (out["lang"] != reference) == (side == "unread_right")  # where the uncertain reply is set right
    if statistic == "macro_f1":
        truth = out["target"].where(out["target"].isin(("yes", "no")))
        flipped = truth.map({"yes": "no", "no": "yes"})
        out.loc[mask & truth.notna(), "answer"] = np.where(good, truth, flipped)[mask & truth.notna()]
        return out
    sub = out[(out["task"] == task) & (out["metric"] == metric)]
    higher = bool(sub["higher_is_better"].iloc[0])
    if str(sub["kind"].iloc[0]) == "binary":
        lo, hi = 0.0, 1.0
    else:
        seen = sub["value"].dropna()
        if seen.empty:
            return out
        lo, hi = float(seen.min()), float(seen.max())
    best, worst = (hi, lo) if higher else (lo, hi)
    out.loc[mask, "value"] = np.where(good, best, worst)[mask]
    return out


def apply(
    rows: list[Verdict],
    plain: pd.DataFrame,
    reference: str,
    statistics: Mapping[tuple[str, str], str],
    verdicts: Callable[[pd.DataFrame], list[Verdict]],
) -> list[Verdict]:
    """``rows`` (``analysis.verdicts.noninferiority``) with the parse columns, and each parse-limited verdict
    that depends on the extremes made inconclusive.

    Args:
        rows: the verdicts as computed on the Scores read as they are.
        plain: the Scores they were computed from (plain question only).
        reference: the reference language.
        statistics: (task, metric) → ``mean`` | ``macro_f1``, of each outcome in ``rows``.
        verdicts: computes the verdicts again from a modified Scores table (same settings, same seed).

    Returns:
        The verdicts, each with (in ``extra``) ``not_read_share`` (the language's), ``not_read_share_reference``,
        ``parse_limited`` (either above ``WARN_SHARE``; ``None`` where the outcome parses no reply), and for
        parse-limited ones ``verdict_as_read``, ``verdict_unread_wrong``, ``verdict_unread_right``,
        ``difference_unread_wrong``, ``difference_unread_right``.
    """
    by_outcome: dict[tuple[str, str], dict[str, float]] = {}
    for task, metric in {(r.task, r.metric) for r in rows}:
        by_outcome[(task, metric)] = shares(plain[(plain["task"] == task) & (plain["metric"] == metric)])
    limited = {
        key: [lang for lang, s in found.items() if s > WARN_SHARE] for key, found in by_outcome.items() if found
    }
    extremes = _extremes(plain, limited, reference, statistics, verdicts)
    out = []
    for r in rows:
        found = by_outcome.get((r.task, r.metric), {})
        if not found:
            out.append(replace(r, extra={**r.extra, **NO_SHARE}))
            continue
        out.append(_parse_row(r, found, reference, extremes))
    return out


Extremes = dict[str, dict[tuple[str, str, str], Verdict]]  # side → (task, metric, lang) → verdict


def _extremes(
    plain: pd.DataFrame, limited: Mapping[tuple[str, str], list[str]], reference: str,
    statistics: Mapping[tuple[str, str], str], verdicts: Callable[[pd.DataFrame], list[Verdict]],
) -> Extremes:  # fmt: skip
    """The verdicts computed again with every unread reply of the parse-limited outcomes wrong
    (``unread_wrong``) and right (``unread_right``); empty where no outcome is parse-limited."""
    extremes: Extremes = {}
    if any(limited.values()):
        for side in ("unread_wrong", "unread_right"):
            frame = plain
            for (task, metric), langs in limited.items():
                if langs:
                    frame = extreme(frame, task, metric, statistics[(task, metric)], reference, side)
            extremes[side] = {(r.task, r.metric, r.lang): r for r in verdicts(frame)}
    return extremes


def _parse_row(r: Verdict, found: dict[str, float], reference: str, extremes: Extremes) -> Verdict:
    """One verdict with its parse columns (``found``: the outcome's not-read share per language), made
    inconclusive where it is parse-limited and the extremes disagree with it."""
    mine, ref = found.get(r.lang), found.get(reference)
    flag = any(s is not None and s > WARN_SHARE for s in (mine, ref))
    extra = {**r.extra, "not_read_share": mine, "not_read_share_reference": ref, "parse_limited": flag}
    if not flag:
        return replace(r, extra=extra)
    key = (r.task, r.metric, r.lang)
    wrong, right = extremes["unread_wrong"].get(key), extremes["unread_right"].get(key)
    as_wrong, as_right = (None if wrong is None else wrong.verdict), (None if right is None else right.verdict)
    extra.update(
        verdict_as_read=r.verdict, verdict_unread_wrong=as_wrong, verdict_unread_right=as_right,
        difference_unread_wrong=None if wrong is None else wrong.difference,
        difference_unread_right=None if right is None else right.difference,
    )  # fmt: skip
    if r.verdict in ("non-inferior", "inferior") and not as_wrong == as_right == r.verdict:
        return replace(r, extra=extra, verdict="inconclusive", reason=(
            f"parse-limited: {_pct(mine)} of the {r.lang} replies and {_pct(ref)} of the {reference} "
            f"ones were not read directly; {as_wrong} if every one of them is wrong, "
            f"{as_right} if every one is right (as read: {r.verdict})"
        ))  # fmt: skip
    return replace(r, extra=extra)


def _pct(share: float | None) -> str:
    return "none" if share is None else f"{100 * share:.1f}%"
