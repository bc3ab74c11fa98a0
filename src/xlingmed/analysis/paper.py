"""The authors' disparity tests, reproduced (XLingEval §4.2, Tables 2, 3, A12, A13; spec ``xlingeval.md`` §4).

Languages are treated as independent groups (although the same questions appear in every language), after
listwise deletion of items that miss a value in any language: statsmodels OLS ``value ~ C(lang)`` with
``anova_lm(typ=2)``; ``pairwise_tukeyhsd`` at α = 0.05; scipy ``ttest_ind`` (Student, equal variances,
two-sided, no multiplicity correction) for every pair.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

import pandas as pd

from xlingmed.analysis.data import complete_items


def _long(wide: pd.DataFrame) -> pd.DataFrame:
    return wide.reset_index().melt(id_vars="item_id", var_name="lang", value_name="value")


def anova_oneway(values: pd.DataFrame, languages: Sequence[str]) -> dict[str, Any]:
    """One-way ANOVA of ``value`` over languages.

    Returns:
        {"F", "p", "df_between", "df_within", "n_items", "excluded_missing_in_<lang>"...}; F and p are None
        when fewer than 2 items remain.
    """
    import statsmodels.api as sm
    from statsmodels.formula.api import ols

    wide, counts = complete_items(values, languages)
    if len(wide) < 2:
        return {"F": None, "p": None, "df_between": None, "df_within": None, **counts}
    table = sm.stats.anova_lm(ols("value ~ C(lang)", data=_long(wide)).fit(), typ=2)
    row = table.loc["C(lang)"]
    return {
        "F": float(row["F"]),
        "p": float(row["PR(>F)"]),
        "df_between": int(row["df"]),
        "df_within": int(table.loc["Residual", "df"]),
        **counts,
    }


def tukey_hsd(values: pd.DataFrame, languages: Sequence[str], alpha: float = 0.05) -> list[dict[str, Any]]:
    """Tukey HSD for every pair of languages (statsmodels ``pairwise_tukeyhsd``).

    Returns:
        one row per pair as statsmodels orders them (alphabetical group1 < group2): ``meandiff`` = mean(group2)
        − mean(group1), ``p_adj``, ``lower``/``upper`` (the 1−α CI of meandiff), ``reject``, ``n_items``.
    """
    from statsmodels.stats.multicomp import pairwise_tukeyhsd

    wide, counts = complete_items(values, languages)
    if len(wide) < 2:
        return []
    long = _long(wide)
    res = pairwise_tukeyhsd(long["value"].to_numpy(), long["lang"].to_numpy(), alpha=alpha)
    rows = []
    for (g1, g2), diff, p, (lo, hi), rej in zip(
        combinations(res.groupsunique, 2), res.meandiffs, res.pvalues, res.confint, res.reject, strict=True
    ):
        rows.append(
            {
                "group1": str(g1),
                "group2": str(g2),
                "meandiff": float(diff),
                "p_adj": float(p),
                "lower": float(lo),
                "upper": float(hi),
                "reject": bool(rej),
                "n_items": counts["n_items"],
            }
        )
    return rows


def unpaired_t(values: pd.DataFrame, languages: Sequence[str]) -> list[dict[str, Any]]:
    """Student's t-test (``scipy.stats.ttest_ind``, equal_var=True) for every pair, on the listwise-complete
    items, uncorrected. Returns one row per pair in ``languages`` order: t, p, mean_a, mean_b, n_items."""
    from scipy import stats

    wide, counts = complete_items(values, languages)
    rows = []
    for a, b in combinations(languages, 2):
        if len(wide) < 2:
            t = p = None
        else:
            res = stats.ttest_ind(wide[a], wide[b], equal_var=True, nan_policy="omit")
            t, p = float(res.statistic), float(res.pvalue)
        rows.append(
            {
                "lang_a": a,
                "lang_b": b,
                "t": t,
                "p": p,
                "mean_a": float(wide[a].mean()) if len(wide) else None,
                "mean_b": float(wide[b].mean()) if len(wide) else None,
                "n_items": counts["n_items"],
            }
        )
    return rows


def headline_numbers(counts: dict[str, dict[str, dict[str, int]]], reference: str = "en") -> dict[str, Any]:
    """The XLingEval abstract's two correctness numbers over one or more datasets (spec §2.3).

    Args:
        counts: dataset → language → judge label (``more``, ``contradictory``, …) → count, as in the paper's
            Table 1 or a run's ``tasks.correctness.languages.<lang>.counts``.
        reference: the language the others are compared with.

    Returns:
        ``fewer_comprehensive_pp``: the mean over datasets of (more[en] − mean over the other languages of
        more) / N × 100, N = the reference language's labelled answers ("18.12 % fewer comprehensive answers");
        ``times_more_contradictory``: the mean over datasets of mean(contradictory of the others) /
        contradictory[en] ("5.82× more likely"); ``per_dataset`` with both values of each dataset (None where a
        dataset has no other language, no reference answers, or no contradictory reference answer).
    """
    per: dict[str, dict[str, float | None]] = {}
    for name, by_lang in counts.items():
        ref = by_lang.get(reference)
        others = [c for lang, c in by_lang.items() if lang != reference]
        n = sum(ref.values()) if ref else 0
        if not ref or not others or n == 0:
            per[name] = {"fewer_comprehensive_pp": None, "times_more_contradictory": None}
            continue
        more = sum(c.get("more", 0) for c in others) / len(others)
        contra = sum(c.get("contradictory", 0) for c in others) / len(others)
        per[name] = {
            "fewer_comprehensive_pp": 100.0 * (ref.get("more", 0) - more) / n,
            "times_more_contradictory": contra / ref["contradictory"] if ref.get("contradictory") else None,
        }

    def mean(key: str) -> float | None:
        vals = [x for v in per.values() if (x := v[key]) is not None]
        return sum(vals) / len(vals) if vals else None

    return {
        "fewer_comprehensive_pp": mean("fewer_comprehensive_pp"),
        "times_more_contradictory": mean("times_more_contradictory"),
        "per_dataset": per,
    }
