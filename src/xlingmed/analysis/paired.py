"""Paired disparity tests: the same question in two languages is one pair (the paper's design is paired, its
tests were not; spec ``xlingeval.md`` §4 [DECIDE]).

Continuous metrics: paired t (``scipy.stats.ttest_rel``) and Wilcoxon signed-rank (``scipy.stats.wilcoxon``);
binary outcomes (verifiability correct, correctness "contradictory"): McNemar (statsmodels; exact binomial when
fewer than 25 discordant pairs). Across all languages at once: Friedman (continuous) or Cochran's Q (binary).
p-values are Holm-corrected across the language pairs tested (``statsmodels.stats.multitest``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any, Literal, TypeVar

import numpy as np
import pandas as pd

from xlingmed.analysis.data import complete_items, paired_differences, paired_values
from xlingmed.analysis.records import SPREAD, Record, StatKey

Kind = Literal["continuous", "binary"]


@dataclass(frozen=True, eq=False)
class McNemarTest(Record):
    """McNemar's test of paired binary outcomes: ``a_only`` pairs with a=1, b=0, ``b_only`` the other way, the
    statistic and p, ``exact`` (the binomial test, fewer than 25 discordant pairs) or χ² with correction."""

    n: int
    a_only: int
    b_only: int
    statistic: float
    p: float
    exact: bool


@dataclass(frozen=True, eq=False, kw_only=True)
class PairedTest(Record):
    """One language pair's paired test (``paired_pairwise``): the items in both, those missing in either, the
    means and the mean difference ``lang_b − lang_a``; ``key``: the values it is over (``analysis.run``)."""

    key: StatKey | None = field(default=None, metadata=SPREAD)
    lang_a: str
    lang_b: str
    n_items: int
    excluded_missing_a: int
    excluded_missing_b: int
    mean_a: float | None
    mean_b: float | None
    mean_diff: float | None


@dataclass(frozen=True, eq=False, kw_only=True)
class PairedContinuous(PairedTest):
    """A continuous metric's pair: paired t and Wilcoxon signed-rank, raw and Holm-adjusted across the pairs."""

    t: float | None = None
    p_t: float | None = None
    w: float | None = None
    p_wilcoxon: float | None = None
    p_t_holm: float | None = None
    p_wilcoxon_holm: float | None = None


@dataclass(frozen=True, eq=False, kw_only=True)
class PairedBinary(PairedTest):
    """A binary outcome's pair: McNemar's test (``McNemarTest``), raw and Holm-adjusted across the pairs."""

    a_only: int | None = None
    b_only: int | None = None
    statistic: float | None = None
    p_mcnemar: float | None = None
    exact: bool | None = None
    p_mcnemar_holm: float | None = None


@dataclass(frozen=True, eq=False, kw_only=True)
class Omnibus(Record):
    """A test across all languages at once on the items complete in every one (Friedman); ``counts``: kept
    (``n_items``) and excluded per language (``excluded_missing_in_<lang>``)."""

    key: StatKey | None = field(default=None, metadata=SPREAD)
    test: str
    statistic: float | None
    p: float | None
    counts: Mapping[str, int] = field(default_factory=dict, metadata=SPREAD)


@dataclass(frozen=True, eq=False, kw_only=True)
class CochranQ(Record):
    """As ``Omnibus`` for Cochran's Q (binary outcomes), with its degrees of freedom."""

    key: StatKey | None = field(default=None, metadata=SPREAD)
    test: str = "cochran_q"
    statistic: float | None
    p: float | None
    df: int | None
    counts: Mapping[str, int] = field(default_factory=dict, metadata=SPREAD)


P = TypeVar("P", PairedContinuous, PairedBinary)


def mcnemar(a: np.ndarray, b: np.ndarray) -> McNemarTest:
    """McNemar's test of paired binary outcomes ``a`` and ``b`` (0/1 per item).

    Returns:
        ``McNemarTest``: the exact binomial test when the discordant pairs are fewer than 25, else χ² with
        continuity correction.
    """
    from statsmodels.stats.contingency_tables import mcnemar as _mcnemar

    a, b = a.astype(bool), b.astype(bool)
    table = np.array([[np.sum(a & b), np.sum(a & ~b)], [np.sum(~a & b), np.sum(~a & ~b)]])
    discordant = int(table[0, 1] + table[1, 0])
    exact = discordant < 25
    res = _mcnemar(table, exact=exact, correction=True)
    return McNemarTest(n=len(a), a_only=int(table[0, 1]), b_only=int(table[1, 0]), statistic=float(res.statistic),
                       p=float(res.pvalue), exact=exact)  # fmt: skip


def _paired_continuous(base: PairedTest, a: np.ndarray, b: np.ndarray) -> PairedContinuous:
    from scipy import stats

    out = PairedContinuous(**_fields(base))
    d = paired_differences(a, b)
    if len(d) >= 2 and np.any(d != 0):
        t = stats.ttest_rel(b, a)
        w = stats.wilcoxon(b, a)
        out = replace(out, t=float(t.statistic), p_t=float(t.pvalue), w=float(w.statistic),
                      p_wilcoxon=float(w.pvalue))  # fmt: skip
    elif len(d) >= 2:  # identical in both languages: no evidence of a difference
        out = replace(out, t=0.0, p_t=1.0, w=0.0, p_wilcoxon=1.0)
    return out


def _paired_binary(base: PairedTest, a: np.ndarray, b: np.ndarray, n: int) -> PairedBinary:
    if not n:
        return PairedBinary(**_fields(base))
    m = mcnemar(a, b)
    return PairedBinary(**_fields(base), a_only=m.a_only, b_only=m.b_only, statistic=m.statistic, p_mcnemar=m.p,
                        exact=m.exact)  # fmt: skip


def _fields(base: PairedTest) -> Any:
    """The shared fields of a pair's test (keyword arguments), to build its continuous or binary record from."""
    return {k: getattr(base, k) for k in PairedTest.__dataclass_fields__}


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


def _holm(rows: list[P], key: str) -> list[P]:
    """``rows`` with their p-value ``key`` Holm-adjusted across them as ``key_holm`` (``None`` where no p)."""
    idx = [i for i, r in enumerate(rows) if getattr(r, key) is not None]
    adjusted = dict(zip(idx, holm([getattr(rows[i], key) for i in idx]), strict=True)) if idx else {}
    return [replace(r, **{f"{key}_holm": float(adjusted[i]) if i in adjusted else None})  # type: ignore[arg-type]
            for i, r in enumerate(rows)]  # fmt: skip


def paired_pairwise(
    values: pd.DataFrame, languages: Sequence[str], kind: Kind = "continuous", reference: str | None = None
) -> list[PairedContinuous] | list[PairedBinary]:
    """Paired tests for every pair of ``languages`` (or only ``reference`` against each other language).

    Each pair uses the items present in both languages; the row says how many and how many were excluded.
    Differences are ``lang_b − lang_a``. Holm-adjusted p-values are added as ``<p>_holm``.

    Returns:
        ``PairedContinuous`` rows for ``continuous`` (t, p_t, w, p_wilcoxon), ``PairedBinary`` for ``binary``
        (a_only, b_only, statistic, p_mcnemar, exact).
    """
    pairs = [(reference, x) for x in languages if x != reference] if reference else list(combinations(languages, 2))
    continuous: list[PairedContinuous] = []
    binary: list[PairedBinary] = []
    for a, b in pairs:
        pv = paired_values(values, a, b)
        base = PairedTest(
            lang_a=a, lang_b=b, n_items=pv.n, excluded_missing_a=pv.excluded_missing_a,
            excluded_missing_b=pv.excluded_missing_b, mean_a=float(pv.a.mean()) if pv.n else None,
            mean_b=float(pv.b.mean()) if pv.n else None, mean_diff=float((pv.b - pv.a).mean()) if pv.n else None,
        )  # fmt: skip
        if kind == "continuous":
            continuous.append(_paired_continuous(base, pv.a, pv.b))
        else:
            binary.append(_paired_binary(base, pv.a, pv.b, pv.n))
    if kind == "continuous":
        return _holm(_holm(continuous, "p_t"), "p_wilcoxon")
    return _holm(binary, "p_mcnemar")


def friedman(values: pd.DataFrame, languages: Sequence[str]) -> Omnibus:
    """Friedman test across all ``languages`` (≥ 3) on the items complete in every language."""
    from scipy import stats

    wide, counts = complete_items(values, languages)
    if len(languages) < 3 or len(wide) < 2:
        return Omnibus(test="friedman", statistic=None, p=None, counts=counts)
    res = stats.friedmanchisquare(*(wide[lang].to_numpy() for lang in languages))
    return Omnibus(test="friedman", statistic=float(res.statistic), p=float(res.pvalue), counts=counts)


def cochran_q(values: pd.DataFrame, languages: Sequence[str]) -> CochranQ:
    """Cochran's Q across all ``languages`` for a binary outcome, on the items complete in every language."""
    from statsmodels.stats.contingency_tables import cochrans_q

    wide, counts = complete_items(values, languages)
    if len(languages) < 2 or len(wide) < 2:
        return CochranQ(statistic=None, p=None, df=None, counts=counts)
    res = cochrans_q(wide.to_numpy().astype(int))
    return CochranQ(statistic=float(res.statistic), p=float(res.pvalue), df=int(res.df), counts=counts)
