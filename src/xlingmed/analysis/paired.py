"""Paired disparity tests: the same question in two languages is one pair (the paper's design is paired, its
tests were not; spec ``xlingeval.md`` §4 [DECIDE]).

Continuous metrics: paired t (``scipy.stats.ttest_rel``) and Wilcoxon signed-rank (``scipy.stats.wilcoxon``);
binary outcomes (verifiability correct, correctness "contradictory"): McNemar (statsmodels; exact binomial when
fewer than 25 discordant pairs). Across all languages at once: Friedman (continuous) or Cochran's Q (binary).
p-values are Holm-corrected across the language pairs tested (``statsmodels.stats.multitest``).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any, Literal

import numpy as np
import pandas as pd

from xlingmed.analysis.data import complete_items, paired_differences, paired_values

Kind = Literal["continuous", "binary"]


def mcnemar(a: np.ndarray, b: np.ndarray) -> dict[str, Any]:
    """McNemar's test of paired binary outcomes ``a`` and ``b`` (0/1 per item).

    Returns:
        {"n", "a_only" (a=1, b=0), "b_only" (a=0, b=1), "statistic", "p", "exact"}; the exact binomial test when
        the discordant pairs are fewer than 25, else χ² with continuity correction.
    """
    from statsmodels.stats.contingency_tables import mcnemar as _mcnemar

    a, b = a.astype(bool), b.astype(bool)
    table = np.array([[np.sum(a & b), np.sum(a & ~b)], [np.sum(~a & b), np.sum(~a & ~b)]])
    discordant = int(table[0, 1] + table[1, 0])
    exact = discordant < 25
    res = _mcnemar(table, exact=exact, correction=True)
    return {
        "n": len(a),
        "a_only": int(table[0, 1]),
        "b_only": int(table[1, 0]),
        "statistic": float(res.statistic),
        "p": float(res.pvalue),
        "exact": exact,
    }


def _paired_continuous(a: np.ndarray, b: np.ndarray) -> dict[str, Any]:
    from scipy import stats

    out: dict[str, Any] = {"t": None, "p_t": None, "w": None, "p_wilcoxon": None}
    d = paired_differences(a, b)
    if len(d) >= 2 and np.any(d != 0):
        t = stats.ttest_rel(b, a)
        out.update(t=float(t.statistic), p_t=float(t.pvalue))
        w = stats.wilcoxon(b, a)
        out.update(w=float(w.statistic), p_wilcoxon=float(w.pvalue))
    elif len(d) >= 2:  # identical in both languages: no evidence of a difference
        out.update(t=0.0, p_t=1.0, w=0.0, p_wilcoxon=1.0)
    return out


def holm(p_values: Sequence[float]) -> np.ndarray:
    """Holm's step-down adjusted p-values (Holm 1979), in the order given; equal to statsmodels'
    ``multipletests(p, method="holm")[1]`` (``tests/test_analysis.py`` checks it).

    Written out because statsmodels' Holm runs ``gc.collect()`` on every call: about 0.1 s each in a process that
    holds torch, and a report corrects some seventy families.
    """
    p = np.asarray(p_values, dtype=float)
    order = np.argsort(p, kind="stable")
    stepped = np.maximum.accumulate(p[order] * np.arange(len(p), 0, -1))
    out = np.empty_like(p)
    out[order] = np.minimum(stepped, 1.0)
    return out


def _holm(rows: list[dict[str, Any]], key: str) -> None:
    idx = [i for i, r in enumerate(rows) if r.get(key) is not None]
    for r in rows:
        r[f"{key}_holm"] = None
    if idx:
        adjusted = holm([rows[i][key] for i in idx])
        for i, p in zip(idx, adjusted, strict=True):
            rows[i][f"{key}_holm"] = float(p)


def paired_pairwise(
    values: pd.DataFrame, languages: Sequence[str], kind: Kind = "continuous", reference: str | None = None
) -> list[dict[str, Any]]:
    """Paired tests for every pair of ``languages`` (or only ``reference`` against each other language).

    Each pair uses the items present in both languages; the row says how many and how many were excluded.
    Differences are ``lang_b − lang_a``. Holm-adjusted p-values are added as ``<p>_holm``.

    Returns:
        rows with lang_a, lang_b, n_items, excluded_missing_a/b, mean_a, mean_b, mean_diff and, for
        ``continuous``: t, p_t, w, p_wilcoxon; for ``binary``: a_only, b_only, statistic, p_mcnemar, exact.
    """
    pairs = [(reference, x) for x in languages if x != reference] if reference else list(combinations(languages, 2))
    rows: list[dict[str, Any]] = []
    for a, b in pairs:
        pv = paired_values(values, a, b)
        row: dict[str, Any] = {
            "lang_a": a,
            "lang_b": b,
            "n_items": pv.n,
            "excluded_missing_a": pv.excluded_missing_a,
            "excluded_missing_b": pv.excluded_missing_b,
            "mean_a": float(pv.a.mean()) if pv.n else None,
            "mean_b": float(pv.b.mean()) if pv.n else None,
            "mean_diff": float((pv.b - pv.a).mean()) if pv.n else None,
        }
        if kind == "continuous":
            row.update(_paired_continuous(pv.a, pv.b))
        elif pv.n:
            m = mcnemar(pv.a, pv.b)
            row.update(a_only=m["a_only"], b_only=m["b_only"], statistic=m["statistic"], p_mcnemar=m["p"])
            row["exact"] = m["exact"]
        else:
            row.update(a_only=None, b_only=None, statistic=None, p_mcnemar=None, exact=None)
        rows.append(row)
    for key in ("p_t", "p_wilcoxon") if kind == "continuous" else ("p_mcnemar",):
        _holm(rows, key)
    return rows


def friedman(values: pd.DataFrame, languages: Sequence[str]) -> dict[str, Any]:
    """Friedman test across all ``languages`` (≥ 3) on the items complete in every language."""
    from scipy import stats

    wide, counts = complete_items(values, languages)
    if len(languages) < 3 or len(wide) < 2:
        return {"statistic": None, "p": None, **counts}
    res = stats.friedmanchisquare(*(wide[lang].to_numpy() for lang in languages))
    return {"statistic": float(res.statistic), "p": float(res.pvalue), **counts}


def cochran_q(values: pd.DataFrame, languages: Sequence[str]) -> dict[str, Any]:
    """Cochran's Q across all ``languages`` for a binary outcome, on the items complete in every language."""
    from statsmodels.stats.contingency_tables import cochrans_q

    wide, counts = complete_items(values, languages)
    if len(languages) < 2 or len(wide) < 2:
        return {"statistic": None, "p": None, "df": None, **counts}
    res = cochrans_q(wide.to_numpy().astype(int))
    return {"statistic": float(res.statistic), "p": float(res.pvalue), "df": int(res.df), **counts}
