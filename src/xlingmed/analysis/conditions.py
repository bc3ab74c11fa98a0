"""Prompt conditions against the clean question: the change in accuracy a cognitive bias (or its mitigation)
causes, paired by item (MedArabiQ §4.1.2, Table 2)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from scipy import stats

from xlingmed.analysis.paired import mcnemar


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
