"""Judge-corrected estimates: an LLM judge's outcome on every item, corrected by human labels on a random few.

Every judged outcome (XLingEval's correctness labels, a rubric point, a safety harm) is the judge's reading. A
judge can be more lenient in Hindi than in English, and then part of the gap it measures is its own. Prediction-
powered inference (PPI: Angelopoulos, Bates, Fannjiang, Jordan & Zrnic, *Science* 382, 2023; PPI++: Angelopoulos,
Duchi & Zrnic, arXiv 2311.01453) estimates the human-labelled mean from the judge's values on all N items and the
humans' on n of them drawn at random:

    θ̂ = λ · mean(judge, unlabelled items) + mean(human − λ · judge, labelled items)

unbiased whatever the judge's errors, with a normal confidence interval; λ ∈ [0, 1] is PPI++'s power tuning
(λ = 0 is the human-only mean, λ = 1 plain PPI). ``ppi-python`` computes θ̂ and its interval (``ppi_mean_ci``) and
the human-only and judge-only intervals (``classical_mean_ci``); this module only chooses λ (PPI++'s formula for a
mean, the one ``ppi-python`` uses: ``test_judge_corrected`` checks they agree), draws the verdict and plans labels.

* A **gap** Δ = θ_X − θ_en (sign turned so that positive is better) is estimated on per-item differences where the
  humans labelled the same items in both languages (a set drawn ``paired``), else from the two corrected
  estimates, their rectifiers independent and their judge terms taken item by item (``gap_shared_items``).
* Labelled items drawn within strata (a language × judge-label stratum, as ``annotate sample`` draws) carry their
  inverse inclusion weights (stratum size / labelled items in it), which ``ppi-python`` takes as ``w``.
* The **verdict** is the non-inferiority test of ``analysis.verdicts`` on the corrected gap: one-sided (1 − α)
  bounds, p-values from the normal (PPI's interval is one), Holm across the languages of an outcome.
* **Labels needed**: with the interval's variance v_h / n + v_j / N (rectifier over the labelled, imputed over
  the unlabelled), the n at which an inconclusive gap's bound would clear −δ at 80 % power if it held; ``None``
  where the judge term alone is too wide (more items, not labels, are needed).
* **Few labels that tell the judge's error** (issue 62). PPI's interval is a normal one: its rectifier variance
  is estimated from the labelled items, and where fewer than ``MIN_INFORMATIVE`` of them have a rectifier
  h − λ·j other than the most common one (no discordant pair among 14 labels: λ = 0 and the interval [0, 0];
  λ at a bound on two or three discordant pairs), that estimate is near zero by chance and the interval covers
  the true gap in a quarter to two thirds of draws (``bench/judge_corrected_coverage.py``). There the rectifier's
  variance is taken with two pseudo-labels added at the bounds the rectifier can reach (Agresti & Coull's device,
  *Am. Stat.* 52, 1998; for a rare event it is close to the rule of three): the interval is wider, keeps its
  coverage (99–100 % at 10–30 labels in the bench, where ``ppi-python``'s covers 27–68 %) and never has zero
  width. ``Estimate.small_sample`` says so, ``ppi_lower``/``ppi_upper`` keep ``ppi-python``'s own bounds, and the
  labels needed count the labels that would bring ``MIN_INFORMATIVE`` informative ones at the observed rate.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

POWER = 0.8
MIN_LABELS = 10  # fewer human labels in a language: no correction (the interval would be the CLT's guess)
MIN_INFORMATIVE = 5  # labelled items whose rectifier differs from its commonest value: fewer, small-sample interval


@dataclass(frozen=True)
class Estimate:
    """One mean (or gap) with its one-sided (1 − α) bounds.

    Attributes:
        value: the point estimate, in the outcome's units.
        lower, upper: its bounds (a two-sided (1 − 2α) interval).
        se: the standard error the bounds come from.
        n_labels: human labels used (0 for the judge alone).
        n_items: items the judge's values come from.
        rectifier_var, imputed_var: per-item variances of the two terms (corrected estimates; for planning).
        lam: PPI++'s λ (corrected estimates).
        informative: labelled items whose rectifier differs from its most common value (corrected estimates).
        small_sample: the bounds are the small-sample ones (fewer than ``MIN_INFORMATIVE`` informative labels).
        ppi_lower, ppi_upper: ``ppi-python``'s own bounds (corrected estimates; equal to ``lower``/``upper`` unless
            ``small_sample``).
    """

    value: float
    lower: float
    upper: float
    se: float
    n_labels: int
    n_items: int
    rectifier_var: float | None = None
    imputed_var: float | None = None
    lam: float | None = None
    informative: int | None = None
    small_sample: bool = False
    ppi_lower: float | None = None
    ppi_upper: float | None = None


def _z(alpha: float) -> float:
    from scipy.stats import norm

    return float(norm.ppf(1 - alpha))


def _weights(w: np.ndarray | None, n: int) -> np.ndarray:
    """Weights normalised to mean 1, as ``ppi-python`` normalises them (``construct_weight_vector``)."""
    if w is None:
        return np.ones(n)
    w = np.asarray(w, dtype=float)
    normalised: np.ndarray = w / w.sum() * n
    return normalised


def power_tuning(y: np.ndarray, yhat: np.ndarray, yhat_unlabelled: np.ndarray, w: np.ndarray | None = None) -> float:
    """PPI++'s λ for a mean (arXiv 2311.01453, §6): Cov(h, j) / ((1 + n/N) Var(j)) over the labelled pairs, the
    judge's variance over all items, clipped to [0, 1]; weighted as ``ppi-python`` weights. 0 when the judge's
    values do not vary."""
    n, big_n = len(y), len(yhat_unlabelled)
    w = _weights(w, n)
    point = float(np.mean(yhat_unlabelled)) + float(np.mean(w * (y - yhat)))  # λ = 1 estimate, where ppi centres
    g, gh = w * (y - point), w * (yhat - point)
    cov = float(np.mean((g - g.mean()) * (gh - gh.mean())))
    var = float(np.var(np.concatenate([gh, yhat_unlabelled - point]), ddof=1)) if n + big_n > 1 else 0.0
    if var <= 0:
        return 0.0
    return float(np.clip(cov / ((1 + n / big_n) * var), 0.0, 1.0))


def judge_only(yhat_all: np.ndarray, alpha: float) -> Estimate:
    """The judge's mean over all items, with ``ppi-python``'s classical interval (``classical_mean_ci``)."""
    from ppi_py import classical_mean_ci

    lo, hi = classical_mean_ci(np.asarray(yhat_all, float), alpha=2 * alpha)
    return _estimate(float(np.mean(yhat_all)), float(lo), float(hi), alpha, 0, len(yhat_all))


def human_only(y: np.ndarray, w: np.ndarray | None, alpha: float) -> Estimate:
    """The humans' (weighted) mean over the labelled items, with ``classical_mean_ci``."""
    from ppi_py import classical_mean_ci

    y = np.asarray(y, float)
    ww = _weights(w, len(y))
    lo, hi = classical_mean_ci(y, w=ww, alpha=2 * alpha)
    return _estimate(float(np.mean(ww * y)), float(lo), float(hi), alpha, len(y), 0)


def corrected(
    y: np.ndarray, yhat: np.ndarray, yhat_unlabelled: np.ndarray, w: np.ndarray | None, alpha: float
) -> Estimate:
    """The prediction-powered mean (``ppi_mean_ci`` with PPI++'s λ) of human labels ``y`` on the labelled items,
    the judge's ``yhat`` on them and ``yhat_unlabelled`` on the others (1-D arrays, ``y`` and ``yhat`` of one
    length n, ``w`` n weights or ``None``). With fewer than ``MIN_INFORMATIVE`` informative labels the bounds are
    the small-sample ones (module doc); ``ppi_lower``/``ppi_upper`` are ``ppi-python``'s either way.

    Raises:
        ValueError: no labelled or no unlabelled item.
    """
    from ppi_py import ppi_mean_ci, ppi_mean_pointestimate

    y, yhat, yu = (np.asarray(a, float) for a in (y, yhat, yhat_unlabelled))
    if len(y) == 0 or len(yu) == 0:
        raise ValueError("a corrected estimate needs labelled and unlabelled items")
    ww = _weights(w, len(y))
    lam = power_tuning(y, yhat, yu, ww)
    value = float(np.ravel(ppi_mean_pointestimate(y, yhat, yu, lam=lam, w=ww))[0])
    lo, hi = (float(np.ravel(b)[0]) for b in ppi_mean_ci(y, yhat, yu, alpha=2 * alpha, lam=lam, w=ww))
    rectifier = ww * (y - lam * yhat)
    known = informative(y - lam * yhat)  # unweighted: a stratum's weight is no error of the judge
    rect_var, imputed_var = float(np.var(rectifier)), float(np.var(lam * yu))
    small = known < MIN_INFORMATIVE
    if small:  # two pseudo-labels at the rectifier's reach: a variance that a few lucky labels cannot shrink
        low, high = min(float(y.min()), float(yu.min())), max(float(y.max()), float(yu.max()))
        low_j, high_j = min(float(yhat.min()), float(yu.min())), max(float(yhat.max()), float(yu.max()))
        reach = [min(low - lam * high_j, float(rectifier.min())), max(high - lam * low_j, float(rectifier.max()))]
        rect_var = float(np.var(np.concatenate([rectifier, reach]), ddof=1))
        half = _z(alpha) * math.sqrt(rect_var / len(y) + imputed_var / len(yu))
        est = _estimate(value, value - half, value + half, alpha, len(y), len(y) + len(yu))
    else:
        est = _estimate(value, lo, hi, alpha, len(y), len(y) + len(yu))
    return Estimate(**{**est.__dict__, "lam": lam, "rectifier_var": rect_var, "imputed_var": imputed_var,
                       "informative": known, "small_sample": small, "ppi_lower": lo, "ppi_upper": hi})  # fmt: skip


def point_at(y: np.ndarray, yhat: np.ndarray, yhat_unlabelled: np.ndarray, w: np.ndarray | None, lam: float) -> float:
    """``ppi-python``'s prediction-powered point estimate (``ppi_mean_pointestimate``) at a given λ (1-D arrays as
    ``corrected``): a language's mean at its gap's λ."""
    from ppi_py import ppi_mean_pointestimate

    y, yhat = np.asarray(y, float), np.asarray(yhat, float)
    ww = _weights(w, len(y))
    return float(np.ravel(ppi_mean_pointestimate(y, yhat, np.asarray(yhat_unlabelled, float), lam=lam, w=ww))[0])


def informative(rectifier: np.ndarray) -> int:
    """How many of the labelled items' rectifiers (1-D) differ from their most common value: the labels that tell
    the judge's error apart from its typical one (0 where every labelled pair is alike)."""
    if len(rectifier) == 0:
        return 0
    _, counts = np.unique(np.round(np.asarray(rectifier, float), 12), return_counts=True)
    return int(len(rectifier) - counts.max())


def _estimate(value: float, lo: float, hi: float, alpha: float, n_labels: int, n_items: int) -> Estimate:
    se = (hi - lo) / (2 * _z(alpha)) if hi > lo else 0.0
    return Estimate(value + 0.0, lo, hi, se, n_labels, n_items)


def gap(lang: Estimate, reference: Estimate, sign: float, alpha: float) -> Estimate:
    """Δ = sign · (θ_lang − θ_reference) from two independent estimates (their variances add; so do the planning
    variances of corrected ones)."""
    value = sign * (lang.value - reference.value) + 0.0
    se = math.hypot(lang.se, reference.se)
    z = _z(alpha)
    rect = imp = None
    if lang.rectifier_var is not None and reference.rectifier_var is not None:
        rect = lang.rectifier_var + reference.rectifier_var
    if lang.imputed_var is not None and reference.imputed_var is not None:
        imp = lang.imputed_var + reference.imputed_var
    return Estimate(value, value - z * se, value + z * se, se, min(lang.n_labels, reference.n_labels),
                    min(lang.n_items, reference.n_items), rect, imp)  # fmt: skip


def gap_shared_items(
    lang: Estimate, reference: Estimate, judge_lang: np.ndarray, judge_reference: np.ndarray, sign: float,
    alpha: float,
) -> Estimate:  # fmt: skip
    """Δ = sign · (θ_lang − θ_reference) from two corrected estimates whose labels fall on different items, while
    the judge scored the same items in both languages (``judge_lang``, ``judge_reference``: aligned by item). The
    two rectifiers are independent; the two imputed terms are not, so their variance is taken item by item:
    se² = Var(sign · (λ_l ĵ_l − λ_r ĵ_r)) / N + v_l / n_l + v_r / n_r (PPI's variance, the covariance kept)."""
    if lang.lam is None or reference.lam is None or lang.rectifier_var is None or reference.rectifier_var is None:
        return gap(lang, reference, sign, alpha)
    shared = sign * (lang.lam * np.asarray(judge_lang, float) - reference.lam * np.asarray(judge_reference, float))
    imputed = float(np.var(shared))
    se = math.sqrt(imputed / len(shared) + lang.rectifier_var / lang.n_labels
                   + reference.rectifier_var / reference.n_labels)  # fmt: skip
    value, z = sign * (lang.value - reference.value) + 0.0, _z(alpha)
    known = min(lang.informative or 0, reference.informative or 0)
    return Estimate(value, value - z * se, value + z * se, se, min(lang.n_labels, reference.n_labels),
                    len(shared), lang.rectifier_var + reference.rectifier_var, imputed, informative=known,
                    small_sample=lang.small_sample or reference.small_sample)  # fmt: skip


def verdict_p(estimate: Estimate, margin: float) -> tuple[float, float]:
    """(p_noninferior, p_inferior): the normal p-values of H0: Δ ≤ −δ and H0: Δ ≥ −δ."""
    from scipy.stats import norm

    if estimate.se <= 0:
        above = estimate.value > -margin
        return (0.0, 1.0) if above else (1.0, 0.0)
    z = (estimate.value + margin) / estimate.se
    return float(norm.sf(z)), float(norm.cdf(z))


def labels_needed(estimate: Estimate, margin: float, alpha: float) -> int | None:
    """Human labels (per language) at which the gap's one-sided bound would clear −δ at ``POWER`` if the estimate
    held: n = v_h / (se*² − v_j / N) with se* = |Δ + δ| / (z_{1−α} + z_power). ``None`` when no number of labels
    suffices (the judge's own term is already too wide, Δ sits on the margin, or n exceeds the items)."""
    if estimate.rectifier_var is None or estimate.imputed_var is None:
        return None
    distance = abs(estimate.value + margin)
    if distance < 1e-12:
        return None
    target = (distance / (_z(alpha) + _z(1 - POWER))) ** 2
    room = target - estimate.imputed_var / max(estimate.n_items - estimate.n_labels, 1)
    if room <= 0:
        return None
    needed = max(MIN_LABELS, math.ceil(estimate.rectifier_var / room))
    if estimate.small_sample and estimate.informative is not None:  # enough labels to tell the judge's error
        rate = (estimate.informative + 1) / (estimate.n_labels + 2)
        needed = max(needed, math.ceil(MIN_INFORMATIVE / rate))
    return needed if needed <= estimate.n_items else None  # more labels than items: more items are needed


def paired_gap(
    y: tuple[np.ndarray, np.ndarray], yhat: tuple[np.ndarray, np.ndarray],
    unlabelled: tuple[np.ndarray, np.ndarray], w: np.ndarray | None, sign: float, alpha: float,
) -> Estimate:  # fmt: skip
    """Δ on per-item differences (language − reference, times ``sign``): humans labelled the same items in both
    languages. Each pair is (language, reference)."""
    d = sign * (np.asarray(y[0], float) - np.asarray(y[1], float))
    dhat = sign * (np.asarray(yhat[0], float) - np.asarray(yhat[1], float))
    du = sign * (np.asarray(unlabelled[0], float) - np.asarray(unlabelled[1], float))
    return corrected(d, dhat, du, w, alpha)


def judge_bias(y: np.ndarray, yhat: np.ndarray, w: np.ndarray | None, alpha: float) -> Estimate:
    """The judge's bias in one language: the (weighted) mean of judge − human over the labelled items."""
    return human_only(np.asarray(yhat, float) - np.asarray(y, float), w, alpha)
