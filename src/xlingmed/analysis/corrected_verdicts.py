"""Verdicts on judged outcomes, corrected by human labels (``analysis.judge_corrected``), in the verdict rows'
place.

For each judged primary outcome and each language with human labels (and labels in the reference language), the
judge-only, human-only and corrected estimates of the language and the reference, the gap three ways, and the
judge's bias (judge − human) per language. The corrected gap is tested against −δ like every verdict
(``analysis.verdicts``), Holm across the labelled languages of an outcome; an inconclusive one says how many human
labels per language would decide it. Where few labels tell the judge's error, the interval is the small-sample one
(``judge_corrected``: never of zero width) and the reason says so. ``apply`` then makes the row wholly the
corrected one (issue 62): verdict, values per language, difference, bounds, p-values, method and provenance; the
judge's own are kept beside it as ``judge_only_*`` (``JUDGE_ONLY``); a language with no labels keeps its row.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from xlingmed.analysis import judge_corrected as jc
from xlingmed.analysis.items import item_table
from xlingmed.analysis.paired import holm
from xlingmed.analysis.records import Record
from xlingmed.analysis.verdict_record import PPI, PPI_SMALL, Verdict
from xlingmed.analysis.verdicts import INCONCLUSIVE, INFERIOR, NONINFERIOR, Outcome, outcomes
from xlingmed.outcomes import TaskOutcome, apart


@dataclass
class HumanLabels:
    """One judged task's human outcome values.

    Attributes:
        task: the task the sets checked.
        values: language → item id → the human value of the primary outcome.
        weights: language → item id → its sampling weight (stratum size / labelled items of the stratum).
        paired: every set was drawn with the same items in every language.
        unusable: labels that gave no outcome value (a label the task does not score), counted per language.
        parts: where the labels check parts of an item's outcome (``PrimaryOutcome.part``: HealthBench's
            criteria), language → part key (``annotate.sample.unit_key``) → (its item id, the judge's value of the
            part); ``values`` then holds the human's value of each part, weighted as the outcome sums it.
    """

    task: str
    values: dict[str, dict[str, float]] = field(default_factory=dict)
    weights: dict[str, dict[str, float]] = field(default_factory=dict)
    paired: bool = True
    unusable: dict[str, int] = field(default_factory=dict)
    parts: dict[str, dict[str, tuple[str, float]]] = field(default_factory=dict)

    def n_labels(self, lang: str) -> int:
        return len(self.values.get(lang, {}))


def label_value(tasks: Mapping[str, TaskOutcome]) -> Any:
    """(task, set item, human label, label column) → the task's primary outcome scored from that label as the
    judge's was: the task's own ``scores`` on the item with the human's label in the rows' label column
    (correctness ``label``, safety ``harm``); where that gives none and the label is a number (the rubric's 1–5
    mean), the number; else ``None``. An item with a ``weight`` is a part of its question's outcome
    (``PrimaryOutcome.part``): its part metric times the weight (HealthBench: met × points / positive points)."""

    def value_of(task: str, item: Mapping[str, Any], label: str, column: str = "label") -> float | None:
        spec = tasks.get(task)
        if spec is None or spec.primary is None or spec.scores is None:
            return None
        part = spec.primary.part is not None and item.get("weight") is not None
        try:
            scored = spec.scores([{**item, column: label}])
        except (KeyError, TypeError, ValueError):
            scored = []
        metric = spec.primary.part if part else spec.primary.metric
        values = [s.value for s in scored if s.metric == metric and s.value is not None]
        if values:
            return float(np.mean(values)) * (float(item["weight"]) if part else 1.0)
        if part:
            return None
        try:
            return float(label)
        except ValueError:
            return None

    return value_of


def _judge_values(sub: pd.DataFrame, lang: str) -> pd.Series:
    table = item_table(sub, lang, "mean")
    return (table["s"] / table["n"]).astype(float)


@dataclass(frozen=True, eq=False, kw_only=True)
class CorrectedRow(Record):
    """One judged outcome in one language three ways (``corrected_rows``; a line of ``stats/judge_corrected.csv``).

    Attributes:
        task, outcome, lang, reference, margin: as in ``Verdict``.
        human_labels, human_labels_reference: the labels in the language and in the reference;
            design_labels: ``paired`` (the same items labelled in both) or ``independent``.
        judge_*, human_*, corrected_*: the language's and the reference's value, the gap and its bounds, by the
            judge alone, the humans alone and prediction-powered inference from both (the verdict uses it).
        bias_lang, bias_reference (with ``_lower``/``_upper``): the judge's bias (judge − human) per language.
        p_noninferior, p_inferior, p_equivalence: the corrected gap's p-values, raw and Holm-corrected (``_holm``).
        method, lam, informative_labels, ppi_lower, ppi_upper, provenance: how the corrected bounds were made.
        labels_needed, equivalent, verdict, reason: the corrected verdict.
    """

    task: str
    outcome: str
    lang: str
    reference: str
    margin: float
    human_labels: int
    human_labels_reference: int
    design_labels: str
    judge_lang: float | None
    judge_reference: float | None
    judge_difference: float | None
    judge_lower: float | None
    judge_upper: float | None
    human_lang: float | None
    human_reference: float | None
    human_difference: float | None
    human_lower: float | None
    human_upper: float | None
    corrected_lang: float | None
    corrected_reference: float | None
    corrected_difference: float | None
    corrected_lower: float | None
    corrected_upper: float | None
    bias_lang: float | None
    bias_lang_lower: float | None
    bias_lang_upper: float | None
    bias_reference: float | None
    bias_reference_lower: float | None
    bias_reference_upper: float | None
    p_noninferior: float | None
    p_inferior: float | None
    p_equivalence: float | None
    method: str
    lam: float | None
    informative_labels: int | None
    ppi_lower: float | None
    ppi_upper: float | None
    provenance: str
    p_noninferior_holm: float | None = None
    p_inferior_holm: float | None = None
    p_equivalence_holm: float | None = None
    labels_needed: int | None = None
    equivalent: bool | None = None
    verdict: str = INCONCLUSIVE
    reason: str = ""


def corrected_rows(
    scores: pd.DataFrame, humans: Mapping[str, HumanLabels], languages: Sequence[str], reference: str = "en",
    margins: Mapping[str, float] | None = None, *, tasks: Mapping[str, TaskOutcome], alpha: float = 0.05,
) -> list[CorrectedRow]:  # fmt: skip
    """One ``CorrectedRow`` per (judged outcome, language ≠ reference) with labels in both: the estimates three
    ways (their value and bounds: ``judge_*``, ``human_*``, ``corrected_*`` for the language, the reference and
    the gap), the judge's bias per language (``bias_lang``, ``bias_reference`` with bounds), ``human_labels``
    (``human_labels_reference``), ``design_labels`` (``paired`` / ``independent``), the corrected verdict and its
    reason, ``labels_needed`` (per language, inconclusive verdicts; ``None`` where labels cannot decide it), the
    p-values (raw and ``_holm``: ``p_noninferior``, ``p_inferior``, ``p_equivalence``), ``method`` (``PPI`` or
    ``PPI_SMALL``), ``provenance``, ``lam``, ``informative_labels`` and ``ppi_lower``/``ppi_upper``
    (``ppi-python``'s own bounds of the gap, paired design). In the paired design ``corrected_lang`` and
    ``corrected_reference`` are taken at the gap's λ, so that their difference is the gap."""
    plain = scores[scores["condition"].isna()] if "condition" in scores else scores
    tasks = apart(tasks, scores["task"]) if "task" in scores else tasks
    rows: list[CorrectedRow] = []
    for oc in outcomes(tasks, margins):
        found = humans.get(oc.task)
        if not oc.judged or oc.statistic != "mean" or found is None:
            continue
        sub = plain[(plain["task"] == oc.task) & (plain["metric"] == oc.metric)]
        if sub.empty or found.n_labels(reference) < jc.MIN_LABELS:
            continue
        sign = 1.0 if bool(sub["higher_is_better"].iloc[0]) else -1.0
        judged = {lg: _judge_values(sub, lg) for lg in {reference, *languages}}  # item → the judge's value
        parts = plain[(plain["task"] == oc.task) & (plain["metric"] == oc.part)] if oc.part else None
        labelled = {lg: _labelled(judged[lg], found, lg, parts, sub) for lg in {reference, *languages}}
        ref = _one_language(judged[reference], labelled[reference], alpha)
        block = []
        for lang in (lg for lg in languages if lg != reference):
            if found.n_labels(lang) < jc.MIN_LABELS:
                continue
            mine = _one_language(judged[lang], labelled[lang], alpha)
            if mine is None or ref is None:
                continue
            block.append(_language_row(oc, lang, reference, found, judged, (mine, ref), parts, sign, alpha))
        rows += _decide(block, alpha)
    return rows


def _language_row(
    oc: Outcome, lang: str, reference: str, found: HumanLabels, judged: Mapping[str, pd.Series],
    estimates: tuple[dict[str, jc.Estimate], dict[str, jc.Estimate]], parts: pd.DataFrame | None, sign: float,
    alpha: float,
) -> tuple[CorrectedRow, jc.Estimate]:  # fmt: skip
    """One language's row of ``corrected_rows`` before its verdict: the gap three ways, the judge's bias, the
    p-values and the provenance, with the corrected gap's estimate (for ``_decide``)."""
    mine, ref = estimates
    common = judged[lang].index.intersection(judged[reference].index)  # every item is judged in both
    both = (judged[lang].loc[common].to_numpy(), judged[reference].loc[common].to_numpy())
    paired = _paired_gap(judged[lang], judged[reference], found, lang, reference, sign, alpha) if (
        found.paired and parts is None) else None
    at_gap: tuple[float, float] | None = None
    if paired is not None:
        design = "paired"
        corrected, human, at_gap = paired
    else:  # labels on different items: the rectifiers apart, the judge's term still item by item
        design = "independent"
        corrected = jc.gap_shared_items(mine["corrected"], ref["corrected"], *both, sign, alpha)
        human = jc.gap(mine["human"], ref["human"], sign, alpha)
    gaps = {"judge": jc.judge_only(sign * (both[0] - both[1]), alpha), "human": human, "corrected": corrected}
    ways: Any = {}  # the judge_*, human_* and corrected_* fields of CorrectedRow
    for who, g in gaps.items():
        ways.update({f"{who}_lang": mine[who].value, f"{who}_reference": ref[who].value,
                     f"{who}_difference": g.value, f"{who}_lower": g.lower, f"{who}_upper": g.upper})  # fmt: skip
    if at_gap is not None:  # the languages' values at the gap's λ: their difference is the gap
        ways["corrected_lang"], ways["corrected_reference"] = at_gap
    for who, est in (("lang", mine["bias"]), ("reference", ref["bias"])):
        ways.update({f"bias_{who}": est.value, f"bias_{who}_lower": est.lower, f"bias_{who}_upper": est.upper})
    p_ni, p_inf = jc.verdict_p(corrected, oc.margin)
    lam = "" if corrected.lam is None else f", λ = {corrected.lam:.3g}"
    row = CorrectedRow(
        task=oc.task, outcome=oc.name, lang=lang, reference=reference, margin=oc.margin,
        human_labels=found.n_labels(lang), human_labels_reference=found.n_labels(reference), design_labels=design,
        **ways, p_noninferior=p_ni, p_inferior=p_inf,
        # equivalence (TOST): both one-sided tests, H0: Δ ≤ −δ and H0: Δ ≥ δ
        p_equivalence=max(p_ni, jc.verdict_p(corrected, -oc.margin)[1]),
        method=PPI_SMALL if corrected.small_sample else PPI, lam=corrected.lam,
        informative_labels=corrected.informative, ppi_lower=corrected.ppi_lower, ppi_upper=corrected.ppi_upper,
        provenance=f"the judge on {len(common)} items, {found.n_labels(lang)} human labels ({design}){lam}",
    )  # fmt: skip
    return row, corrected


Labelled = tuple[np.ndarray, np.ndarray, np.ndarray]  # (human values, the judge's on the same, weights)


def _labelled(judge: pd.Series, found: HumanLabels, lang: str, parts: pd.DataFrame | None,
              sub: pd.DataFrame) -> Labelled:  # fmt: skip
    """The labelled items of ``lang`` whose question the judge scored, as (human, judge, weight) arrays.

    Where the labels check parts (``parts``: the part metric's Scores), each labelled part stands for its share of
    the mean over questions: a question's outcome is the mean over its temperatures of Σ weight × part, so a part
    drawn at random from the U parts of the N questions is scaled by U / (N · T_question). The mean of these
    scaled values over random parts is then the mean outcome over questions, and PPI's estimator applies with the
    judge's per-question values as the unlabelled term (its variance taken over questions, as it should be where
    parts of one question are alike)."""
    if parts is None:
        keys = [i for i in found.values.get(lang, {}) if i in judge.index]
        y = np.array([found.values[lang][i] for i in keys])
        yhat = judge.loc[keys].to_numpy()
    else:
        mine = parts[(parts["lang"] == lang) & parts["value"].notna() & parts["item_id"].isin(judge.index)]
        temps = item_table(sub, lang, "mean")["n"]  # scored temperatures per question
        scale = len(mine) / max(len(judge), 1)
        found_parts = found.parts.get(lang, {})
        keys = [k for k, (item, _) in found_parts.items() if item in judge.index and k in found.values.get(lang, {})]
        per = np.array([scale / float(temps.loc[found_parts[k][0]]) for k in keys])
        y = np.array([found.values[lang][k] for k in keys]) * per
        yhat = np.array([found_parts[k][1] for k in keys]) * per
    w = np.array([found.weights[lang][k] for k in keys])
    return y.astype(float), np.asarray(yhat, float), w


def _one_language(judge: pd.Series, labelled: Labelled, alpha: float) -> dict[str, jc.Estimate] | None:
    y, yhat, w = labelled
    if len(y) < jc.MIN_LABELS:
        return None
    return {
        "judge": jc.judge_only(judge.to_numpy(), alpha),
        "human": jc.human_only(y, w, alpha),
        # the imputed term over every item the judge scored (the population's judge mean), the rectifier over the
        # labelled ones, weighted by their draw
        "corrected": jc.corrected(y, yhat, judge.to_numpy(), w, alpha),
        "bias": jc.judge_bias(y, yhat, w, alpha),
    }


def _paired_gap(
    mine: pd.Series, ref: pd.Series, found: HumanLabels, lang: str, reference: str, sign: float, alpha: float
) -> tuple[jc.Estimate, jc.Estimate, tuple[float, float]] | None:
    """(corrected, human-only) gaps item by item, where the humans labelled the same items in both languages
    (``mine``, ``ref``: the judge's values per item), and the corrected values of the language and the reference
    at the gap's λ (``ppi_mean_pointestimate``; their difference times ``sign`` is the gap)."""
    both = mine.index.intersection(ref.index)
    labelled = [i for i in both if i in found.values.get(lang, {}) and i in found.values.get(reference, {})]
    if len(labelled) < jc.MIN_LABELS:
        return None
    y = (np.array([found.values[lang][i] for i in labelled]), np.array([found.values[reference][i] for i in labelled]))
    yhat = (mine.loc[labelled].to_numpy(), ref.loc[labelled].to_numpy())
    w = np.array([found.weights[lang][i] for i in labelled])
    unlabelled = (mine.loc[both].to_numpy(), ref.loc[both].to_numpy())
    corrected = jc.paired_gap(y, yhat, unlabelled, w, sign, alpha)
    lam = corrected.lam if corrected.lam is not None else 1.0
    values = tuple(jc.point_at(y[k], yhat[k], unlabelled[k], w, lam) for k in (0, 1))
    return corrected, jc.human_only(sign * (y[0] - y[1]), w, alpha), (values[0], values[1])


def _decide(block: list[tuple[CorrectedRow, jc.Estimate]], alpha: float) -> list[CorrectedRow]:
    """Holm across the labelled languages of one outcome, then each corrected verdict, its reason and, if
    inconclusive, the labels per language that would decide it."""
    if not block:
        return []
    holm_of = {key: holm([float(getattr(r, key)) for r, _ in block])
               for key in ("p_noninferior", "p_inferior", "p_equivalence")}  # fmt: skip
    out = []
    for k, (r, est) in enumerate(block):
        p_ni, p_inf, p_eq = (float(holm_of[key][k]) for key in ("p_noninferior", "p_inferior", "p_equivalence"))
        r = replace(r, p_noninferior_holm=p_ni, p_inferior_holm=p_inf, p_equivalence_holm=p_eq,
                    labels_needed=None, equivalent=bool(p_eq < alpha))  # fmt: skip
        bounds = f"corrected bounds [{est.lower:+.4g}, {est.upper:+.4g}]"
        if est.small_sample:  # few labels tell the judge's error: the wider interval, and why
            ppi = f"[{est.ppi_lower:+.4g}, {est.ppi_upper:+.4g}]" if est.ppi_lower is not None else "its interval"
            empty = " has no width" if est.ppi_lower is not None and est.ppi_lower == est.ppi_upper else ""
            bounds = (f"only {est.informative} of {est.n_labels} labels tell the judge's error (PPI's {ppi}{empty}); "
                      f"small-sample {bounds}")  # fmt: skip
        if r.margin != r.margin:  # a test against no margin tests nothing (as analysis.verdicts says it)
            r = replace(r, verdict=INCONCLUSIVE, reason=f"no margin; {bounds}", equivalent=None, p_noninferior=None,
                        p_inferior=None, p_equivalence=None, p_noninferior_holm=None, p_inferior_holm=None,
                        p_equivalence_holm=None)  # fmt: skip
        elif p_ni < alpha:
            r = replace(r, verdict=NONINFERIOR, reason=f"{bounds}: lower > −δ = {-r.margin:+.4g}")
        elif p_inf < alpha:
            r = replace(r, verdict=INFERIOR, reason=f"{bounds}: upper < −δ = {-r.margin:+.4g}")
        else:
            r = replace(r, verdict=INCONCLUSIVE, reason=f"{bounds} straddle −δ = {-r.margin:+.4g}",
                        labels_needed=jc.labels_needed(est, r.margin, alpha / len(block)))  # fmt: skip
        out.append(r)
    return out


# what a corrected row keeps of the judge's own as judge_only_*: every column whose value the correction changes
JUDGE_ONLY = (
    "verdict", "reason", "method", "provenance", "value_reference", "value_lang", "difference", "lower", "upper",
    "p_noninferior", "p_inferior", "p_noninferior_holm", "p_inferior_holm", "p_equivalence", "p_equivalence_holm",
    "equivalent", "n_items_needed", "verdict_as_read", "verdict_unread_wrong", "verdict_unread_right",
    "difference_unread_wrong", "difference_unread_right",
)  # fmt: skip
EXTREMES = ("verdict_as_read", "verdict_unread_wrong", "verdict_unread_right", "difference_unread_wrong",
            "difference_unread_right")  # fmt: skip
FROM_CORRECTED = {
    "verdict": "verdict", "method": "method", "provenance": "provenance", "value_reference": "corrected_reference",
    "value_lang": "corrected_lang", "difference": "corrected_difference", "lower": "corrected_lower",
    "upper": "corrected_upper", "p_noninferior": "p_noninferior", "p_inferior": "p_inferior",
    "p_noninferior_holm": "p_noninferior_holm", "p_inferior_holm": "p_inferior_holm",
    "labels_needed": "labels_needed",
}  # fmt: skip


def apply(rows: Sequence[Verdict], corrected: Sequence[CorrectedRow]) -> list[Verdict]:
    """The verdicts (``analysis.verdicts.noninferiority``) with each corrected verdict wholly in its place: every
    field the correction changes (``FROM_CORRECTED``: verdict, values per language, difference, bounds, p-values
    raw and Holm, method, provenance; the equivalence test where the verdict has one) is the corrected one, the
    judge's are kept in ``judge_only`` (``JUDGE_ONLY``: those the verdict has), and ``judge_corrected``,
    ``human_labels`` and ``labels_needed`` are set (a verdict with no labels: False, 0, None). A parse-limited
    verdict's extremes (``verdict_unread_*``) were the judge's verdict's: they move to ``judge_only`` too."""
    by_key = {(c.task, c.lang): c for c in corrected}
    out = []
    for r in rows:
        c = by_key.get((r.task, r.lang))
        if c is None:
            out.append(replace(r, judge_corrected=False, human_labels=0, labels_needed=None))
            continue
        had = _columns_of(r)
        judge_only = {k: r[k] for k in JUDGE_ONLY if k in had}
        extra = {k: v for k, v in r.extra.items() if k not in EXTREMES}  # the extremes were the judge's
        if "p_equivalence" in r.extra:
            extra.update({k: c.get(k) for k in ("p_equivalence", "p_equivalence_holm", "equivalent")})
        from_corrected: Any = {k: c.get(source) for k, source in FROM_CORRECTED.items()}  # Verdict's fields
        out.append(replace(
            r, **from_corrected, judge_corrected=True,
            human_labels=c.human_labels, reason=f"judge-corrected ({c.human_labels} human labels): {c.reason}",
            n_items_needed=None, extra=extra, judge_only=judge_only,
        ))  # fmt: skip
    return out


def _columns_of(r: Verdict) -> set[str]:
    """The columns the verdict's row held as ``noninferiority`` made it: the estimates only where there were items
    (a difference), the items needed only where the verdict as read was inconclusive."""
    estimated = r.difference is not None
    had = {"verdict", "reason", "method", "provenance", *r.extra}
    if estimated:
        had |= {"value_reference", "value_lang", "difference", "lower", "upper", "p_noninferior", "p_inferior",
                "p_noninferior_holm", "p_inferior_holm"}  # fmt: skip
        if r.extra.get("verdict_as_read", r.verdict) == INCONCLUSIVE:
            had.add("n_items_needed")
    return had
