"""The gap against English, with a bootstrap CI resampled by item and an effect size.

The gap of language X on a metric is mean over items of (value_X − value_en), over the items that have both
values. Its 95% CI comes from ``scipy.stats.bootstrap`` with ``paired=True`` (items are resampled with their
values in both languages, keeping the pairing), percentile method, seeded.
Effect sizes: Cohen's d_z (mean difference / sd of the differences) for continuous metrics, Cohen's h
(2·asin√p_X − 2·asin√p_en) for proportions.
"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np
import pandas as pd

from xlingmed.analysis.data import paired_differences, paired_values


def gap_vs_reference(
    values: pd.DataFrame,
    lang: str,
    reference: str = "en",
    *,
    kind: Literal["continuous", "binary"] = "continuous",
    n_resamples: int = 10_000,
    confidence: float = 0.95,
    seed: int = 0,
) -> dict[str, Any]:
    """Gap of ``lang`` against ``reference`` on the items both have.

    Returns:
        {"lang", "reference", "n_items", "excluded_missing_reference", "excluded_missing_lang", "mean_reference",
        "mean_lang", "gap", "gap_pct" (gap / mean_reference × 100), "ci_low", "ci_high", "confidence",
        "effect_size", "effect_size_name", "n_resamples", "seed"}. CI and effect size are None when fewer than 2
        items are paired or (d_z) the differences have no spread.
    """
    from scipy import stats

    pv = paired_values(values, reference, lang)
    out: dict[str, Any] = {
        "lang": lang,
        "reference": reference,
        "n_items": pv.n,
        "excluded_missing_reference": pv.excluded_missing_a,
        "excluded_missing_lang": pv.excluded_missing_b,
        "mean_reference": float(pv.a.mean()) if pv.n else None,
        "mean_lang": float(pv.b.mean()) if pv.n else None,
        "gap": float((pv.b - pv.a).mean()) if pv.n else None,
        "gap_pct": None,
        "ci_low": None,
        "ci_high": None,
        "confidence": confidence,
        "effect_size": None,
        "effect_size_name": "cohen_dz" if kind == "continuous" else "cohen_h",
        "n_resamples": n_resamples,
        "seed": seed,
    }
    if pv.n and out["mean_reference"]:
        out["gap_pct"] = out["gap"] / out["mean_reference"] * 100
    if pv.n < 2:
        return out
    d = paired_differences(pv.a, pv.b)
    if np.all(d == d[0]):  # no spread: every resample gives the same gap
        out["ci_low"] = out["ci_high"] = float(d[0])
    else:
        res = stats.bootstrap(
            (pv.a, pv.b),
            lambda a, b, axis=-1: np.mean(b - a, axis=axis),
            paired=True,
            vectorized=True,
            n_resamples=n_resamples,
            confidence_level=confidence,
            method="percentile",
            rng=np.random.default_rng(seed),
        )
        out["ci_low"], out["ci_high"] = float(res.confidence_interval.low), float(res.confidence_interval.high)
    if kind == "continuous":
        sd = float(np.std(d, ddof=1))
        out["effect_size"] = float(d.mean() / sd) if sd > 0 else None
    else:
        pa, pb = float(pv.a.mean()), float(pv.b.mean())
        out["effect_size"] = 2 * math.asin(math.sqrt(pb)) - 2 * math.asin(math.sqrt(pa))
    return out
