"""Per-item tables of one outcome and the item bootstrap that verdicts and model comparisons share.

An outcome's statistic is a mean over items (each item's mean over its units and temperatures) or a macro-F1 over
the yes/no claims of the items (XLingEval's verifiability metric). Both are written as sums over items, so that a
resample of items is a vector of multinomial counts ``w`` and the statistic of every resample is one matrix
product: ``w @ table``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd


def item_table(sub: pd.DataFrame, lang: str, statistic: str) -> pd.DataFrame:
    """Per item of ``lang``: the columns the statistic sums over (mean: value sum and count; macro-F1: the
    yes/no confusion counts of the claims read yes or no)."""
    mine = sub[sub["lang"] == lang]
    if statistic == "mean":
        scored = mine.dropna(subset=["value"])
        grouped = scored.groupby("item_id")["value"]
        return pd.DataFrame({"s": grouped.sum(), "n": grouped.count()})
    read = mine[mine["answer"].isin(("yes", "no")) & mine["target"].isin(("yes", "no"))]
    cells = pd.DataFrame(
        {
            "item_id": read["item_id"],
            "tp": (read["answer"] == "yes") & (read["target"] == "yes"),
            "fp": (read["answer"] == "yes") & (read["target"] == "no"),
            "fn": (read["answer"] == "no") & (read["target"] == "yes"),
            "tn": (read["answer"] == "no") & (read["target"] == "no"),
        }
    )
    return cells.groupby("item_id")[["tp", "fp", "fn", "tn"]].sum().astype(float)


def macro_f1(c: np.ndarray) -> np.ndarray:
    """Macro-F1 over the classes yes and no from summed confusion counts ``c[..., (tp, fp, fn, tn)]``."""
    tp, fp, fn, tn = c[..., 0], c[..., 1], c[..., 2], c[..., 3]
    with np.errstate(invalid="ignore", divide="ignore"):
        f_yes = np.where(2 * tp + fp + fn > 0, 2 * tp / (2 * tp + fp + fn), 0.0)
        f_no = np.where(2 * tn + fn + fp > 0, 2 * tn / (2 * tn + fn + fp), 0.0)
    return (f_yes + f_no) / 2


def per_item(statistic: str, table: np.ndarray) -> np.ndarray:
    """One value per item for a test by item: its mean, or for macro-F1 the share of its claims read correctly
    ((tp + tn) / claims; 0 for an item without a read claim)."""
    if statistic == "mean":
        means: np.ndarray = table[:, 0] / table[:, 1]
        return means
    total = table.sum(axis=1)
    shares: np.ndarray = np.where(total > 0, (table[:, 0] + table[:, 3]) / np.maximum(total, 1), 0.0)
    return shares


def statistic_of(statistic: str, table: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    """θ of one language (or model) for item weights ``w`` (resamples × items; all ones = the observed items)."""
    if statistic == "mean":
        means = table[:, 0] / table[:, 1]
        return lambda w: (w @ means) / w.sum(axis=-1)
    return lambda w: macro_f1(w @ table)


def difference(statistic: str, ref: np.ndarray, lang: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    """θ_lang − θ_ref for item weights ``w`` (resamples × items; all ones = the observed items)."""
    if statistic == "mean":
        # each item's mean over its units and temperatures, then the mean over items
        d = lang[:, 0] / lang[:, 1] - ref[:, 0] / ref[:, 1]
        d = np.where(np.abs(d) <= 1e-9, 0.0, d)
        return lambda w: (w @ d) / w.sum(axis=-1)
    return lambda w: macro_f1(w @ lang) - macro_f1(w @ ref)


def resample(stat: Callable[[np.ndarray], np.ndarray], n: int, n_resamples: int, seed: int) -> np.ndarray:
    """``n_resamples`` values of ``stat`` over items drawn with replacement (multinomial counts), in chunks so
    that memory stays at about 1000 × n."""
    rng = np.random.default_rng(seed)
    out = []
    for start in range(0, n_resamples, 1000):
        size = min(1000, n_resamples - start)
        out.append(stat(rng.multinomial(n, np.full(n, 1.0 / n), size=size).astype(float)))
    return np.concatenate(out)
