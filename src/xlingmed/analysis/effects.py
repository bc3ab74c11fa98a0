"""Language effects with the item as cluster: a GEE of each primary outcome on language (and on model × language
when several runs are compared).

The paired tests compare two languages at a time; a regression puts every language (and model) in one model and
lets the same question's answers, in every language, temperature and claim, be correlated. A generalised
estimating equation (Liang & Zeger, Biometrika 1986) with an exchangeable working correlation clustered by item
(statsmodels ``GEE``) gives population-averaged effects with robust (sandwich) standard errors: a logit link for
binary outcomes (the coefficient is a log odds ratio against English) and an identity link for continuous ones
(the coefficient is a difference in the outcome's units). For a binary outcome the implied difference in
proportion (``marginal_difference``: the fitted share in the language minus that in English) is given beside the
log odds, so it reads like the paired gap.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from xlingmed.analysis.records import Record
from xlingmed.outcomes import TaskOutcome, apart

_TERM_COLUMNS = frozenset({"term", "coefficient", "ci_low", "ci_high", "p", "marginal_difference"})


@dataclass(frozen=True, eq=False, kw_only=True)
class Effect(Record):
    """One GEE term of ``language_effects`` (or, with ``term`` ``None``, an outcome that could not be fitted and
    why: ``error``).

    Attributes:
        task, metric, family: the outcome and its GEE family (``binomial`` / ``gaussian``).
        n_items, n_obs: the clusters (items) and the observations.
        term: ``lang[hi]``, ``model[B]``, ``model[B]:lang[hi]``; coefficient, ci_low, ci_high, p: its estimate
            (``None`` where not estimable).
        marginal_difference: a language term's fitted mean in the language − in the reference (a column of
            language terms and of terms not estimable only).
        error: why the numbers are withheld (a column of such rows only).
    """

    task: str
    metric: str
    family: str
    n_items: int
    n_obs: int
    term: str | None = None
    coefficient: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    p: float | None = None
    marginal_difference: float | None = None
    error: str | None = None

    def absent(self) -> frozenset[str]:
        if self.term is None:
            return _TERM_COLUMNS
        language = self.term.startswith("lang[") and ":" not in self.term
        if self.error is None:
            return frozenset({"error"} if language else {"error", "marginal_difference"})
        return frozenset()


def _expit(x: float) -> float:
    # scipy's, not 1 / (1 + exp(-x)): under separation the intercept reaches hundreds and exp overflows
    from scipy.special import expit

    return float(expit(x))


def _primary_metrics(tasks: Mapping[str, TaskOutcome]) -> dict[str, str]:
    """Task → the Score metric of its primary outcome (verifiability's macro-F1 is a ratio, not a per-claim mean:
    its GEE models each claim read correctly, ``correct``)."""
    return {name: o.primary.metric for name, o in tasks.items() if o.primary is not None}


def language_effects(
    scores: pd.DataFrame,
    languages: Sequence[str],
    reference: str = "en",
    *,
    tasks: Mapping[str, TaskOutcome],
    confidence: float = 0.95,
) -> list[Effect]:
    """Per task's primary outcome in ``scores`` (one run's Scores, or several runs' with a ``model`` column): the
    GEE coefficient of each language against ``reference`` (and of each model × language interaction).

    Args:
        scores: Scores (``analysis.run.read_scores``), plain question only (prompt conditions are left out); a
            ``model`` column, when present with several values, adds model and model × language terms (the first
            model is the baseline).
        languages: the languages to model; ``reference`` is the baseline.

    Returns:
        ``Effect`` rows: task, metric, family (``binomial``/``gaussian``), term (``lang[hi]``, ``model[B]``,
        ``model[B]:lang[hi]``), coefficient, ci_low, ci_high, p, n_items (clusters), n_obs, and for a language term
        ``marginal_difference`` (fitted mean in the language − in the reference, baseline model, outcome units).
        An outcome that cannot be fitted (one language, no variation, no convergence) gets one row with
        ``error`` saying why.
    """
    import statsmodels.api as sm
    import statsmodels.formula.api as smf

    out: list[Effect] = []
    plain = scores[scores["condition"].isna()] if "condition" in scores else scores
    langs = [reference, *[lg for lg in languages if lg != reference]]
    for task, metric in _primary_metrics(apart(tasks, plain["task"])).items():
        sub = plain[(plain["task"] == task) & (plain["metric"] == metric)].dropna(subset=["value"])
        sub = sub[sub["lang"].isin(langs)]
        if sub.empty or reference not in set(sub["lang"]):
            continue
        binary = sub["kind"].iloc[0] == "binary"
        models = list(dict.fromkeys(sub["model"])) if "model" in sub else []
        several = len(models) > 1
        present = [lg for lg in langs if lg in set(sub["lang"])]
        data, formula = _gee_data(sub, present, reference, models if several else None)
        base = Effect(task=task, metric=metric, family="binomial" if binary else "gaussian",
                      n_items=int(data["item"].nunique()), n_obs=len(data))  # fmt: skip
        if len(present) < 2 or data["y"].nunique() < 2:
            out.append(replace(base, error="needs two languages and some variation in the outcome"))
            continue
        family = sm.families.Binomial() if binary else sm.families.Gaussian()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # convergence and domain warnings: judged below from the fit
                fit = smf.gee(formula, "item", data, family=family, cov_struct=sm.cov_struct.Exchangeable()).fit()
        except (ValueError, np.linalg.LinAlgError) as exc:
            out.append(replace(base, error=f"the GEE could not be fitted: {exc}"))
            continue
        out += _term_rows(fit, base, data, binary, models[0] if several else None, reference, confidence)
    return out


def _gee_data(
    sub: pd.DataFrame, present: list[str], reference: str, models: list[str] | None
) -> tuple[pd.DataFrame, str]:
    """The GEE's data (outcome ``y``, ``lang``, cluster ``item``, and ``model`` where several) and its formula
    (language against ``reference``; with ``models``, model × language against the first model)."""
    data = pd.DataFrame(
        {
            "y": sub["value"].astype(float).to_numpy(),
            "lang": pd.Categorical(sub["lang"], categories=present),
            "item": sub["item_id"].astype(str).to_numpy(),
        }
    )
    formula = "y ~ C(lang, Treatment(reference=" + repr(reference) + "))"
    if models:
        data["model"] = pd.Categorical(sub["model"], categories=models)
        formula = f"y ~ C(model, Treatment(reference={models[0]!r})) * C(lang, Treatment(reference={reference!r}))"
    return data, formula


def _term_rows(
    fit: Any, base: Effect, data: pd.DataFrame, binary: bool, baseline_model: str | None, reference: str,
    confidence: float,
) -> list[Effect]:  # fmt: skip
    """One row per term of a fitted GEE (the intercept left out), its numbers withheld where not estimable."""
    out: list[Effect] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a robust covariance that is not positive definite: judged below
        ci = fit.conf_int(alpha=1 - confidence)
        pvalues = fit.pvalues
    intercept = float(fit.params["Intercept"])
    for name, coef in fit.params.items():
        if name == "Intercept":
            continue
        term = _term(str(name))
        numbers = (float(coef), float(ci.loc[name, 0]), float(ci.loc[name, 1]))
        row = replace(base, term=term, coefficient=numbers[0], ci_low=numbers[1], ci_high=numbers[2],
                      p=float(pvalues[name]))  # fmt: skip
        if term.startswith("lang[") and ":" not in term:
            row = replace(row, marginal_difference=(
                _expit(intercept + float(coef)) - _expit(intercept) if binary else float(coef)))  # fmt: skip
        flat = _degenerate(data, term, baseline_model, reference) if binary else []
        if flat or not all(math.isfinite(x) for x in numbers):
            # separation: a cell whose answers are all 0 or all 1 has no finite log odds; the fit stops at
            # an arbitrary large value with a tiny p, so the numbers are withheld
            if flat or binary:
                error = f"not estimable: separation ({', '.join(flat) or 'a cell without variation'})"
            else:  # e.g. two runs whose answers differ by a constant: the clusters carry no independent noise
                error = "not estimable: the robust covariance of the GEE is not positive definite"
            row = replace(row, coefficient=None, ci_low=None, ci_high=None, p=None, marginal_difference=None,
                          error=error)  # fmt: skip
        out.append(row)
    return out


def _degenerate(data: pd.DataFrame, term: str, base_model: str | None, reference: str) -> list[str]:
    """The cells (model × language) behind ``term`` whose binary outcomes are all equal, named."""
    levels = dict(part[:-1].split("[", 1) for part in term.split(":"))
    langs = {reference, levels.get("lang", reference)}
    models = {base_model, levels.get("model", base_model)} if base_model is not None else {None}
    flat = []
    for m in sorted(models, key=str):
        for lang in sorted(langs):
            sel = data["lang"] == lang
            if m is not None:
                sel &= data["model"] == m
            ys = data.loc[sel, "y"]
            if len(ys) and ys.nunique() == 1:
                who = f"{m} " if m is not None else ""
                flat.append(f"{who}{lang}: every answer {int(ys.iloc[0])}")
    return flat


def _term(name: str) -> str:
    """``C(lang, Treatment(reference='en'))[T.hi]`` → ``lang[hi]``; interactions joined by ``:``."""
    parts = []
    for piece in name.split(":"):
        var = "model" if piece.startswith("C(model") else "lang"
        level = piece[piece.rindex("[T.") + 3 : -1]
        parts.append(f"{var}[{level}]")
    return ":".join(parts)
