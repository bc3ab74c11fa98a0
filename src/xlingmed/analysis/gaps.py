"""The gap against English, with a bootstrap CI resampled by item and an effect size.

The gap of language X on a metric is mean over items of (value_X − value_en), over the items that have both
values. Its 95% CI comes from ``scipy.stats.bootstrap`` with ``paired=True`` (items are resampled with their
values in both languages, keeping the pairing), percentile method, seeded.
Effect sizes: Cohen's d_z (mean difference / sd of the differences) for continuous metrics, Cohen's h
(2·asin√p_X − 2·asin√p_en) for proportions.

A set whose questions differ across languages (MMedBench, KorMedMCQA: ``summary.json`` ``dataset.parallel``
false) has no pairs: ``gap_unpaired`` compares the two languages' means over their own items, resamples each
language separately, and tests with Welch's t (continuous) or Fisher's exact test (binary). Every row says which
design it used (``design``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np
import pandas as pd

from xlingmed.analysis.data import paired_differences, paired_values
from xlingmed.analysis.records import SPREAD, Record, StatKey


@dataclass(frozen=True, eq=False)
class OutcomeKey(StatKey):
    """A ``StatKey`` with the metric's direction (the gaps table names it)."""

    higher_is_better: bool


@dataclass(frozen=True, eq=False, kw_only=True)
class Gap(Record):
    """The gap of ``lang`` against ``reference`` on the items both have (``gap_vs_reference``).

    Attributes:
        key: the values it is over (``analysis.run``; ``None`` for a gap computed alone).
        n_items: the paired items; excluded_missing_reference/_lang: items of one language only.
        mean_reference, mean_lang, gap (mean_lang − mean_reference), gap_pct (gap / mean_reference × 100).
        ci_low, ci_high: the bootstrap CI at ``confidence`` (``n_resamples``, ``seed``).
        effect_size: Cohen's d_z (continuous) or h (binary), named by ``effect_size_name``.
    """

    key: OutcomeKey | None = field(default=None, metadata=SPREAD)
    lang: str
    reference: str
    n_items: int
    excluded_missing_reference: int
    excluded_missing_lang: int
    design: str = "paired"
    mean_reference: float | None
    mean_lang: float | None
    gap: float | None
    gap_pct: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    confidence: float
    effect_size: float | None = None
    effect_size_name: str
    n_resamples: int
    seed: int


@dataclass(frozen=True, eq=False, kw_only=True)
class UnpairedGap(Record):
    """The gap of ``lang`` against ``reference`` over each language's own items (``gap_unpaired``): the fields of
    ``Gap`` (``n_items``: the language's items, ``excluded_missing_*`` ``None``) with ``n_reference``, the
    ``test`` (``welch_t`` / ``fisher_exact``) and its ``p``."""

    key: OutcomeKey | None = field(default=None, metadata=SPREAD)
    lang: str
    reference: str
    design: str = "unpaired"
    n_items: int
    n_reference: int
    excluded_missing_reference: int | None = None
    excluded_missing_lang: int | None = None
    mean_reference: float | None
    mean_lang: float | None
    gap: float | None
    gap_pct: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    confidence: float
    test: str
    p: float | None = None
    effect_size: float | None = None
    effect_size_name: str
    n_resamples: int
    seed: int


def gap_vs_reference(
    values: pd.DataFrame,
    lang: str,
    reference: str = "en",
    *,
    kind: Literal["continuous", "binary"] = "continuous",
    n_resamples: int = 10_000,
    confidence: float = 0.95,
    seed: int = 0,
) -> Gap:
    """Gap of ``lang`` against ``reference`` on the items both have.

    Returns:
        A ``Gap`` (its row: lang, reference, n_items, excluded_missing_reference, excluded_missing_lang, design,
        mean_reference, mean_lang, gap, gap_pct, ci_low, ci_high, confidence, effect_size, effect_size_name,
        n_resamples, seed). CI and effect size are None when fewer than 2 items are paired or (d_z) the
        differences have no spread.
    """

    pv = paired_values(values, reference, lang)
    mean_reference = float(pv.a.mean()) if pv.n else None
    gap = float((pv.b - pv.a).mean()) if pv.n else None
    out = Gap(
        lang=lang, reference=reference, n_items=pv.n, excluded_missing_reference=pv.excluded_missing_a,
        excluded_missing_lang=pv.excluded_missing_b, mean_reference=mean_reference,
        mean_lang=float(pv.b.mean()) if pv.n else None, gap=gap,
        gap_pct=gap / mean_reference * 100 if gap is not None and mean_reference else None,
        confidence=confidence, effect_size_name="cohen_dz" if kind == "continuous" else "cohen_h",
        n_resamples=n_resamples, seed=seed,
    )  # fmt: skip
    if pv.n < 2:
        return out
    d = paired_differences(pv.a, pv.b)
    if np.all(d == d[0]):  # no spread: every resample gives the same gap
        out = replace(out, ci_low=float(d[0]), ci_high=float(d[0]))
    else:
        low, high = _percentile_ci(
            (pv.a, pv.b), lambda a, b, axis=-1: np.mean(b - a, axis=axis), True, n_resamples, confidence, seed
        )
        out = replace(out, ci_low=low, ci_high=high)
    if kind == "continuous":
        sd = float(np.std(d, ddof=1))
        return replace(out, effect_size=float(d.mean() / sd) if sd > 0 else None)
    pa, pb = float(pv.a.mean()), float(pv.b.mean())
    return replace(out, effect_size=2 * math.asin(math.sqrt(pb)) - 2 * math.asin(math.sqrt(pa)))


def gap_unpaired(
    values: pd.DataFrame,
    lang: str,
    reference: str = "en",
    *,
    kind: Literal["continuous", "binary"] = "continuous",
    n_resamples: int = 10_000,
    confidence: float = 0.95,
    seed: int = 0,
) -> UnpairedGap:
    """Gap of ``lang`` against ``reference`` when the two languages hold different questions.

    The gap is mean_lang − mean_reference over each language's own items (an item's units and temperatures
    averaged first); the CI resamples each language's items separately (``scipy.stats.bootstrap``,
    ``paired=False``, percentile, seeded); the test is Welch's t (``scipy.stats.ttest_ind``, continuous) or
    Fisher's exact test on the 2×2 table of item outcomes (binary, items with a 0/1 value).

    Returns:
        An ``UnpairedGap``: the fields of ``gap_vs_reference`` (``n_items`` = the language's items) with
        ``design`` ``"unpaired"``, ``n_reference`` (the reference's items), ``test`` (``welch_t`` /
        ``fisher_exact``) and ``p``; the effect size is Cohen's d (pooled sd) or Cohen's h. CI, test and
        effect size are None below 2 items a side.
    """

    def per_item(code: str) -> np.ndarray:
        mine = values[values["lang"] == code]
        ids = mine["item_id"].astype(str).str.split("#").str[0]
        return mine.groupby(ids)["value"].mean().to_numpy(float)

    a, b = per_item(reference), per_item(lang)
    mean_reference = float(a.mean()) if len(a) else None
    gap = float(b.mean() - a.mean()) if len(a) and len(b) else None
    out = UnpairedGap(
        lang=lang, reference=reference, n_items=len(b), n_reference=len(a), mean_reference=mean_reference,
        mean_lang=float(b.mean()) if len(b) else None, gap=gap,
        gap_pct=gap / mean_reference * 100 if gap is not None and mean_reference else None,
        confidence=confidence, test="welch_t" if kind == "continuous" else "fisher_exact",
        effect_size_name="cohen_d" if kind == "continuous" else "cohen_h", n_resamples=n_resamples, seed=seed,
    )  # fmt: skip
    if len(a) < 2 or len(b) < 2:
        return out
    if np.ptp(a) == 0 and np.ptp(b) == 0:  # no spread on either side: every resample gives the same gap
        out = replace(out, ci_low=gap, ci_high=gap)
    else:
        low, high = _percentile_ci(
            (a, b), lambda x, y, axis=-1: np.mean(y, axis=axis) - np.mean(x, axis=axis), False, n_resamples,
            confidence, seed,
        )  # fmt: skip
        out = replace(out, ci_low=low, ci_high=high)
    return _unpaired_test(out, a, b, kind)


def _unpaired_test(out: UnpairedGap, a: np.ndarray, b: np.ndarray, kind: str) -> UnpairedGap:
    """``out`` with its ``p`` (Fisher's exact test on 0/1 item outcomes, else Welch's t) and ``effect_size``
    (Cohen's d or h), for the reference's item values ``a`` and the language's ``b``."""
    from scipy import stats

    if kind == "binary" and np.isin(np.concatenate([a, b]), (0.0, 1.0)).all():
        ones_a, ones_b = int(np.sum(a == 1)), int(np.sum(b == 1))
        out = replace(out, p=float(stats.fisher_exact([[ones_b, len(b) - ones_b], [ones_a, len(a) - ones_a]]).pvalue))
    else:  # a continuous metric, or a binary one averaged over temperatures: Welch's t on the item means
        out = replace(out, test="welch_t")
        if np.ptp(a) > 0 or np.ptp(b) > 0:
            out = replace(out, p=float(stats.ttest_ind(b, a, equal_var=False).pvalue))
    if kind == "continuous":
        pooled = math.sqrt(
            ((len(a) - 1) * np.var(a, ddof=1) + (len(b) - 1) * np.var(b, ddof=1)) / (len(a) + len(b) - 2)
        )
        return replace(out, effect_size=float((b.mean() - a.mean()) / pooled) if pooled > 0 else None)
    return replace(out, effect_size=2 * math.asin(math.sqrt(b.mean())) - 2 * math.asin(math.sqrt(a.mean())))


def _percentile_ci(
    samples: tuple[np.ndarray, np.ndarray], statistic: Any, paired: bool, n_resamples: int, confidence: float,
    seed: int,
) -> tuple[float, float]:  # fmt: skip
    """The seeded percentile bootstrap CI of ``statistic`` over the two samples (``scipy.stats.bootstrap``)."""
    from scipy import stats

    res = stats.bootstrap(
        samples,
        statistic,
        paired=paired,
        vectorized=True,
        n_resamples=n_resamples,
        confidence_level=confidence,
        method="percentile",
        rng=np.random.default_rng(seed),
    )
    return float(res.confidence_interval.low), float(res.confidence_interval.high)
