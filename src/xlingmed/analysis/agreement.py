"""Agreement beyond chance, in one place: Cohen's κ (plain or weighted), Fleiss' κ and the mean pairwise Spearman ρ.

Used wherever two readings of the same things are compared: annotators with each other and with the judge
(``annotate.agreement``), raters of a translation (``construct.audit``), one question's readings across languages
(``analysis.crosslingual``), and the rules against the extractor model (``tasks.multiple_choice.extract``). The
statistics come from scikit-learn (``cohen_kappa_score``), statsmodels (``fleiss_kappa``, ``aggregate_raters``) and
SciPy (``spearmanr``); this module only fixes what every caller needs alike: ``None`` rather than NaN where κ is
undefined (every rating in one category leaves no variation to agree on beyond chance), and no warning for it.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Hashable, Sequence
from itertools import combinations
from typing import Any

import numpy as np


def _defined(value: float) -> float | None:
    return None if math.isnan(value) else value


def cohen_kappa(
    a: Sequence[Hashable], b: Sequence[Hashable], labels: Sequence[Hashable] | None = None, *,
    weights: str | None = None,
) -> float | None:  # fmt: skip
    """Cohen's κ of two raters' paired labels (Cohen 1960; scikit-learn's ``cohen_kappa_score``).

    Args:
        a, b: the two raters' labels, item by item (equal lengths).
        labels: every possible label, in order (the order sets the distances of ``weights``); ``None`` = those
            seen.
        weights: ``None``, ``linear`` or ``quadratic`` (a weighted κ for ordered labels, e.g. Likert scores).

    Returns:
        κ in [−1, 1]; ``None`` without pairs or where undefined (one category on both sides).
    """
    if not a:
        return None
    from sklearn.metrics import cohen_kappa_score

    with warnings.catch_warnings():  # the undefined case is returned as None, not warned about
        warnings.simplefilter("ignore")
        value = float(
            cohen_kappa_score(list(a), list(b), labels=None if labels is None else list(labels), weights=weights)
        )
    return _defined(value)


def fleiss_kappa(counts: Any) -> float | None:
    """Fleiss' κ (Fleiss 1971; statsmodels) from an items × categories table of how many raters chose each
    category (every item rated by the same number of raters).

    Returns:
        κ; ``None`` for fewer than two items or where undefined (every rating in one category).
    """
    table = np.asarray(counts, dtype=float)
    if table.ndim != 2 or len(table) < 2:
        return None
    from statsmodels.stats.inter_rater import fleiss_kappa as _fleiss

    with warnings.catch_warnings(), np.errstate(invalid="ignore", divide="ignore"):
        warnings.simplefilter("ignore")
        return _defined(float(_fleiss(table, method="fleiss")))


def fleiss_kappa_of_labels(rows: Sequence[Sequence[Hashable]]) -> float | None:
    """Fleiss' κ from one row of labels per item, one label per rater (statsmodels' ``aggregate_raters`` counts
    them); ``None`` as ``fleiss_kappa``."""
    if len(rows) < 2:
        return None
    from statsmodels.stats.inter_rater import aggregate_raters

    codes = {v: k for k, v in enumerate(sorted({x for r in rows for x in r}, key=str))}
    table, _ = aggregate_raters(np.array([[codes[x] for x in r] for r in rows], dtype=int))
    return fleiss_kappa(table)


def mean_spearman(ratings: Sequence[Sequence[float]]) -> float | None:
    """The mean Spearman ρ over every pair of raters (SciPy's ``spearmanr``), for ordered scores such as a Likert
    scale.

    Args:
        ratings: one sequence per rater, item by item (equal lengths).

    Returns:
        The mean ρ over the pairs where both raters vary (ρ is undefined for a constant rater); ``None`` with
        fewer than three items or no such pair.
    """
    if not ratings or len(ratings[0]) < 3:
        return None
    from scipy.stats import spearmanr

    rhos = [
        float(spearmanr(xa, xb).statistic)
        for xa, xb in combinations(ratings, 2)
        if len(set(xa)) > 1 and len(set(xb)) > 1
    ]
    return sum(rhos) / len(rhos) if rhos else None
