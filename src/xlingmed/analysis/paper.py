"""The authors' disparity tests, reproduced (XLingEval §4.2, Tables 2, 3, A12, A13; spec ``xlingeval.md`` §4).

Languages are treated as independent groups (although the same questions appear in every language), after
listwise deletion of items that miss a value in any language: statsmodels OLS ``value ~ C(lang)`` with
``anova_lm(typ=2)``; ``pairwise_tukeyhsd`` at α = 0.05; scipy ``ttest_ind`` (Student, equal variances,
two-sided, no multiplicity correction) for every pair.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import pandas as pd

from xlingmed.analysis.data import complete_items
from xlingmed.analysis.records import SPREAD, Record, StatKey


def _long(wide: pd.DataFrame) -> pd.DataFrame:
    return wide.reset_index().melt(id_vars="item_id", var_name="lang", value_name="value")


@dataclass(frozen=True, eq=False, kw_only=True)
class Anova(Record):
    """A one-way ANOVA over languages (``anova_oneway``); ``counts``: ``n_items`` and
    ``excluded_missing_in_<lang>`` (listwise deletion)."""

    key: StatKey | None = field(default=None, metadata=SPREAD)
    F: float | None  # the statistic's name, as the CSV column
    p: float | None
    df_between: int | None
    df_within: int | None
    counts: Mapping[str, int] = field(default_factory=dict, metadata=SPREAD)


@dataclass(frozen=True, eq=False, kw_only=True)
class Tukey(Record):
    """One pair of Tukey's HSD (``tukey_hsd``): ``meandiff`` = mean(group2) − mean(group1), its CI."""

    key: StatKey | None = field(default=None, metadata=SPREAD)
    group1: str
    group2: str
    meandiff: float
    p_adj: float
    lower: float
    upper: float
    reject: bool
    n_items: int


@dataclass(frozen=True, eq=False, kw_only=True)
class UnpairedT(Record):
    """One pair's Student t-test on the listwise-complete items (``unpaired_t``), uncorrected."""

    key: StatKey | None = field(default=None, metadata=SPREAD)
    lang_a: str
    lang_b: str
    t: float | None
    p: float | None
    mean_a: float | None
    mean_b: float | None
    n_items: int


def anova_oneway(values: pd.DataFrame, languages: Sequence[str]) -> Anova:
    """One-way ANOVA of ``value`` over languages.

    Returns:
        An ``Anova`` (F, p, df_between, df_within, n_items, excluded_missing_in_<lang>...); F and p are None
        when fewer than 2 items remain or every value is the same (F = 0/0), and F = inf, p = 0.0 when every
        language's values are constant but the languages differ (scipy's ``f_oneway`` convention).
    """
    import statsmodels.api as sm
    from statsmodels.formula.api import ols

    wide, counts = complete_items(values, languages)
    if len(wide) < 2:
        return Anova(F=None, p=None, df_between=None, df_within=None, counts=counts)
    table = sm.stats.anova_lm(ols("value ~ C(lang)", data=_long(wide)).fit(), typ=2)
    row = table.loc["C(lang)"]
    F, p = float(row["F"]), float(row["PR(>F)"])
    # No variance within any language: OLS's residuals are rounding noise, and F their ratio to other noise, which
    # differs between BLAS kernels (0.89 on one CPU, 1.53 on another for the same constant similarities). Decided
    # from the values themselves instead.
    if bool((wide.nunique() == 1).all()):
        constant = wide.stack().nunique() == 1
        F, p = (float("nan"), float("nan")) if constant else (float("inf"), 0.0)
    return Anova(F=None if math.isnan(F) else F, p=None if math.isnan(p) else p, df_between=int(row["df"]),
                 df_within=int(table.loc["Residual", "df"]), counts=counts)  # fmt: skip


def tukey_hsd(values: pd.DataFrame, languages: Sequence[str], alpha: float = 0.05) -> list[Tukey]:
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
        rows.append(Tukey(group1=str(g1), group2=str(g2), meandiff=float(diff), p_adj=float(p), lower=float(lo),
                          upper=float(hi), reject=bool(rej), n_items=counts["n_items"]))  # fmt: skip
    return rows


def unpaired_t(values: pd.DataFrame, languages: Sequence[str]) -> list[UnpairedT]:
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
        rows.append(UnpairedT(lang_a=a, lang_b=b, t=t, p=p, mean_a=float(wide[a].mean()) if len(wide) else None,
                              mean_b=float(wide[b].mean()) if len(wide) else None, n_items=counts["n_items"]))
    return rows


def headline_numbers(counts: dict[str, dict[str, dict[str, int]]], reference: str = "en") -> dict[str, Any]:
    """The XLingEval abstract's two correctness numbers over one or more datasets (spec §2.3), with their inputs.

    Args:
        counts: dataset → language → judge label (``more``, ``contradictory``, …) → count, as in the paper's
            Table 1 or a run's ``tasks.correctness.languages.<lang>.counts``.
        reference: the language the others are compared with.

    Returns:
        ``fewer_comprehensive_pp``: the mean over datasets of (more[en] − mean over the other languages of
        more) / N × 100, N = the reference language's labelled answers ("18.12 % fewer comprehensive answers");
        ``times_more_contradictory``: the mean over datasets of mean(contradictory of the others) /
        contradictory[en] ("5.82× more likely"); ``per_dataset``: each dataset's two values and inputs
        (``languages``, ``n_reference``, ``more_reference``, ``more_others_mean``, ``contradictory_reference``,
        ``contradictory_others_mean``); ``used``: per number, the datasets its mean is over; ``dropped``: per
        number, dataset → why it was left out (no other language, no reference answers, or — for the ratio — no
        contradictory answer in the reference language, where the ratio is undefined).
    """
    per: dict[str, dict[str, Any]] = {}
    dropped: dict[str, dict[str, str]] = {"fewer_comprehensive_pp": {}, "times_more_contradictory": {}}
    for name, by_lang in counts.items():
        ref = by_lang.get(reference)
        others = {lang: c for lang, c in by_lang.items() if lang != reference}
        n = sum(ref.values()) if ref else 0
        row: dict[str, Any] = {"languages": sorted(by_lang), "n_reference": n, "fewer_comprehensive_pp": None,
                               "times_more_contradictory": None}  # fmt: skip
        per[name] = row
        if not ref or not others or n == 0:
            why = f"no {reference} answers" if not ref or n == 0 else f"no language besides {reference}"
            dropped["fewer_comprehensive_pp"][name] = dropped["times_more_contradictory"][name] = why
            continue
        more = sum(c.get("more", 0) for c in others.values()) / len(others)
        contra = sum(c.get("contradictory", 0) for c in others.values()) / len(others)
        row.update(more_reference=ref.get("more", 0), more_others_mean=more,
                   contradictory_reference=ref.get("contradictory", 0), contradictory_others_mean=contra,
                   fewer_comprehensive_pp=100.0 * (ref.get("more", 0) - more) / n)  # fmt: skip
        if ref.get("contradictory"):
            row["times_more_contradictory"] = contra / ref["contradictory"]
        else:
            why = f"no contradictory answer in {reference}: the ratio is undefined"
            dropped["times_more_contradictory"][name] = why

    def used(key: str) -> list[str]:
        return [name for name, v in per.items() if v[key] is not None]

    def mean(key: str) -> float | None:
        vals = [per[name][key] for name in used(key)]
        return sum(vals) / len(vals) if vals else None

    keys = ("fewer_comprehensive_pp", "times_more_contradictory")
    return {
        **{key: mean(key) for key in keys},
        "per_dataset": per,
        "used": {key: used(key) for key in keys},
        "dropped": dropped,
    }


def headline_rows(h: dict[str, Any]) -> list[dict[str, Any]]:
    """``stats/paper_headline.csv``: one row per dataset with its inputs, then one row per number with the mean,
    the datasets it is over and those left out (with why)."""
    rows = [
        {"row": "dataset", "dataset": name, **{k: ",".join(v) if isinstance(v, list) else v for k, v in d.items()}}
        for name, d in h["per_dataset"].items()
    ]
    for key in ("fewer_comprehensive_pp", "times_more_contradictory"):
        left = "; ".join(f"{name}: {why}" for name, why in h["dropped"][key].items())
        rows.append({"row": "mean", "dataset": ",".join(h["used"][key]), key: h[key], "dropped": left or None})
    return rows
