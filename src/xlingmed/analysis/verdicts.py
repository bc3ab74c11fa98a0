"""Is a language acceptably close to English? Non-inferiority verdicts per language, from a run's Scores.

A health system does not ask "is Hindi different from English" (with enough items, it always is) but "is Hindi
no worse than English by more than a margin δ we can accept". That is a non-inferiority question (Piaggio et al.,
CONSORT extension for non-inferiority trials, JAMA 2012; Wellek, *Testing Statistical Hypotheses of Equivalence
and Noninferiority*, 2010), asked here per language, on each task's primary outcome (``TaskSpec.primary``).

For outcome θ and language X, the difference Δ = θ_X − θ_en is taken in the direction of a better model (for a
lower-is-better outcome such as "contradictory", Δ = θ_en − θ_X), on the items present in both languages. Items
are resampled with replacement (the pairing kept: an item's answers in both languages travel together), so the
uncertainty is that of the item sample. With B resamples Δ*:

* ``p_noninferior`` = (1 + #{Δ* ≤ −δ}) / (B + 1), the bootstrap p-value of H0: Δ ≤ −δ;
* ``p_inferior`` = (1 + #{Δ* ≥ −δ}) / (B + 1), that of H0: Δ ≥ −δ;
* both Holm-corrected across the languages of one outcome (``analysis.paired.holm``).

Verdict: **non-inferior** when the corrected ``p_noninferior`` < α (the one-sided lower bound of Δ is above −δ),
**inferior** when the corrected ``p_inferior`` < α (the upper bound is below −δ: worse by more than the margin),
else **inconclusive**, with the number of items that would make it conclusive at 80 % power. Fewer than
``min_items`` paired items is inconclusive whatever the resamples say: a bootstrap over a handful of items
understates its own uncertainty. With ``equivalence=True`` the two one-sided tests (TOST) of |Δ| < δ are added.

A set whose questions differ across languages (``parallel=False``: MMedBench, KorMedMCQA) has no pairs: Δ is
θ_X over X's own items minus θ_en over English's, each language's items resampled separately, and every row says
``design`` ``unpaired`` (its reason too), so that no reader takes it for a paired comparison of the same questions.
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from xlingmed.analysis.items import difference, item_table, resample, statistic_of
from xlingmed.analysis.paired import holm
from xlingmed.analysis.verdict_record import MIN_ITEMS as MIN_ITEMS  # kept here for callers of their old home
from xlingmed.analysis.verdict_record import MIN_JUDGE_KAPPA as MIN_JUDGE_KAPPA
from xlingmed.analysis.verdict_record import PAIRED_BOOTSTRAP, UNPAIRED_BOOTSTRAP, Verdict, VerdictOptions
from xlingmed.errors import ConfigError
from xlingmed.outcomes import TaskOutcome, apart, group_of

NONINFERIOR, INFERIOR, INCONCLUSIVE = "non-inferior", "inferior", "inconclusive"
POWER = 0.8


@dataclass(frozen=True)
class Outcome:
    """One primary outcome of one task, with the margin this report uses."""

    task: str
    name: str
    metric: str
    margin: float
    statistic: str
    unit: str
    judged: bool
    part: str | None = None  # the parts' metric where an item's outcome sums parts judged alone (PrimaryOutcome)


def paired(n: int, design: str = "paired") -> str:
    """``"1 paired item"``, ``"2 paired items"``; ``"2 items"`` for an unpaired design."""
    return f"{n} {'paired ' if design == 'paired' else ''}item{'' if n == 1 else 's'}"


def parse_margins(text: str | Mapping[str, float] | None, tasks: Mapping[str, TaskOutcome]) -> dict[str, float]:
    """``"accuracy=0.05,contradictory=0.05"`` (or a mapping) as ``{name: δ}``.

    Raises:
        ConfigError: a part without ``=``, a margin that is not a positive number, or a name that is no task's
            primary outcome (the known names listed).
    """
    known = {o.primary.name for o in tasks.values() if o.primary is not None}
    if text is None or text == "":
        return {}
    pairs = text.items() if isinstance(text, Mapping) else (p.partition("=")[::2] for p in str(text).split(","))
    out: dict[str, float] = {}
    for name, raw in pairs:
        name = str(name).strip()
        try:
            value = float(raw)
        except (TypeError, ValueError):
            raise ConfigError(f"--margin {name}={raw!r}: a margin is a number (NAME=δ, e.g. accuracy=0.05)") from None
        if name not in known:
            raise ConfigError(f"--margin: unknown outcome {name!r}; known: {', '.join(sorted(known))}")
        if not value > 0 or math.isinf(value):  # also NaN
            raise ConfigError(f"--margin {name}={raw}: the margin must be a positive number")
        out[name] = value
    return out


def outcomes(tasks: Mapping[str, TaskOutcome], margins: Mapping[str, float] | None = None) -> list[Outcome]:
    """Every task's primary outcome, with the margin of ``margins`` or its documented default."""
    margins = margins or {}
    out = []
    for name, task in tasks.items():
        p = task.primary
        if p is None:
            continue
        group = group_of(name)  # an imported source task kept apart: its name beside the outcome's
        label = p.name if group is None else f"{p.name} ({group})"
        out.append(Outcome(name, label, p.metric, margins.get(p.name, p.margin), p.statistic, p.unit, task.judged,
                           p.part))
    return out


def _items_needed(estimate: float, margin: float, se: float, n: int, alpha: float, sd: float | None) -> int | None:
    """Items for a conclusive verdict at ``POWER`` if the observed difference held: statsmodels' paired t-test
    power (``TTestPower``) on the per-item differences where the statistic is a mean (``sd`` given), else the
    normal approximation from the bootstrap standard error, which shrinks as 1/√n. ``None`` when the observed
    difference sits on the margin (no sample size decides it)."""
    distance = abs(estimate + margin)
    if distance < 1e-12:
        return None
    if sd is not None:
        if sd == 0:
            return MIN_ITEMS
        from statsmodels.stats.power import TTestPower

        with warnings.catch_warnings():  # its ConvergenceWarning: handled below
            warnings.simplefilter("ignore")
            n_t = float(TTestPower().solve_power(effect_size=distance / sd, alpha=alpha, power=POWER,
                                                 alternative="larger"))  # fmt: skip
        if math.isfinite(n_t):
            return max(MIN_ITEMS, math.ceil(n_t))
        se = sd / math.sqrt(n)  # the root finder gave up (a very large or small effect): the normal approximation
    from scipy.stats import norm

    if se == 0:
        return MIN_ITEMS
    z = float(norm.ppf(1 - alpha) + norm.ppf(POWER))
    return max(MIN_ITEMS, math.ceil(n * (z * se / distance) ** 2))


def noninferiority(
    scores: pd.DataFrame,
    languages: Sequence[str],
    reference: str = "en",
    margins: Mapping[str, float] | None = None,
    *,
    tasks: Mapping[str, TaskOutcome],
    options: VerdictOptions | None = None,
    **settings: Any,
) -> list[Verdict]:
    """Non-inferiority verdicts of every language against ``reference`` on each primary outcome in ``scores``.

    Args:
        scores: a run's Scores (``analysis.run.read_scores``); only the plain question (no prompt condition).
        languages: the run's languages; those other than ``reference`` get a verdict.
        margins: δ per outcome name (``parse_margins``); the rest use the task's default.
        tasks: each task's outcomes (``tasks.registry.task_outcomes``).
        options: the level, resamples, seed, design, equivalence, judges and parse limits (``VerdictOptions``;
            ``None``: its defaults). A verdict on a judged outcome (``TaskSpec.judged``) whose language has no κ
            in ``options.judges``, or one below ``options.min_judge_kappa``, is marked ``judge_verified`` False;
            with ``options.parse_limits`` the verdicts where more than 5 % of the language's (or the reference's)
            replies were not read by a direct rule are computed under both extremes (``analysis.parse_limits``).
        settings: ``VerdictOptions``'s fields as keywords (``alpha=0.1``), as ``noninferiority`` took them in
            0.1; not with ``options``.

    Returns:
        One ``Verdict`` per (outcome, language), the outcomes in the order of ``tasks``, an outcome's languages
        without an item first. Values are in the outcome's units (a proportion for accuracy, not %); ``extra``
        holds, with ``equivalence``, ``p_equivalence``, ``p_equivalence_holm`` and ``equivalent`` (rows with
        items), and with ``parse_limits`` the parse columns of ``analysis.parse_limits.apply`` (a parse-limited
        verdict that differs between the extremes is inconclusive).
    """
    if settings and options is not None:
        raise TypeError("noninferiority: give VerdictOptions or its fields as keywords, not both")
    options = options or VerdictOptions(**settings)
    rows: list[Verdict] = []
    plain = scores[scores["condition"].isna()] if "condition" in scores else scores
    tasks = apart(tasks, scores["task"]) if "task" in scores else tasks
    for oc in outcomes(tasks, margins):
        sub = plain[(plain["task"] == oc.task) & (plain["metric"] == oc.metric)]
        if not sub.empty and reference in set(sub["lang"]):
            rows += _outcome_rows(oc, sub, [lg for lg in languages if lg != reference], reference, options)
    if not options.parse_limits or not rows:
        return rows
    again = functools.partial(noninferiority, languages=languages, reference=reference, margins=margins,
                              tasks=tasks, options=replace(options, parse_limits=False))  # fmt: skip
    return _parse_limited(rows, plain, reference, outcomes(apart(tasks, scores["task"]), margins), again)


def _parse_limited(
    out: list[Verdict], plain: pd.DataFrame, reference: str, ocs: list[Outcome],
    again: Callable[[pd.DataFrame], list[Verdict]],
) -> list[Verdict]:  # fmt: skip
    """``analysis.parse_limits.apply`` on the verdicts ``out``: ``again`` computes them from other Scores."""
    from xlingmed.analysis import parse_limits as limits

    statistics = {(oc.task, oc.metric): oc.statistic for oc in ocs}
    return limits.apply(out, plain, reference, statistics, again)


@dataclass
class _Draft:
    """One (outcome, language) verdict while ``_decide`` has not yet decided it: the record so far, the columns it
    will carry in ``extra`` (the equivalence test), and the spread of the difference that the items needed use."""

    verdict: Verdict
    extra: dict[str, float | bool | None] = field(default_factory=dict)
    sd: float | None = None  # of the per-item differences (a mean, paired), for the t-test's power
    se: float = 0.0  # of the bootstrap difference


def _outcome_rows(
    oc: Outcome, sub: pd.DataFrame, languages: list[str], reference: str, options: VerdictOptions
) -> list[Verdict]:
    """The verdicts of one outcome (``sub``: its Scores), one per language other than the reference: first those
    without items (inconclusive), then the others (``_decide``)."""
    rows: list[Verdict] = []
    alpha, parallel, n_resamples, seed = options.alpha, options.parallel, options.n_resamples, options.seed
    higher = bool(sub["higher_is_better"].iloc[0])
    sign = 1.0 if higher else -1.0
    ref_table = item_table(sub, reference, oc.statistic)
    block: list[_Draft] = []
    for k, lang in enumerate(languages):
        kappa, judge_items, verified = _judge(oc, lang, options.judges, options.min_judge_kappa)
        base = Verdict(
            task=oc.task, outcome=oc.name, metric=oc.metric, statistic=oc.statistic, unit=oc.unit,
            higher_is_better=higher, lang=lang, reference=reference, design="paired" if parallel else "unpaired",
            n_items=0, n_reference=None, margin=oc.margin, alpha=alpha, judge_kappa=kappa, judge_items=judge_items,
            judge_verified=verified, method=PAIRED_BOOTSTRAP if parallel else UNPAIRED_BOOTSTRAP,
            provenance=f"{n_resamples} resamples, seed {seed + k}",
        )  # fmt: skip
        drafted = _estimate(base, oc, (ref_table, item_table(sub, lang, oc.statistic)), sign, seed + k, options)
        if isinstance(drafted, _Draft):
            block.append(drafted)
        else:
            rows.append(drafted)
    return rows + _decide(block, options)


def _estimate(
    base: Verdict, oc: Outcome, tables: tuple[pd.DataFrame, pd.DataFrame], sign: float, seed: int,
    options: VerdictOptions,
) -> _Draft | Verdict:  # fmt: skip
    """One (outcome, language) verdict of ``noninferiority`` from the reference's and the language's item tables:
    the values, the difference and its bootstrap bounds and p-values (resampled with ``seed``), and the spread
    that ``_decide`` reads; the verdict itself, inconclusive, where a side has no item."""
    ref_table, lang_table = tables
    lang, reference, n_resamples = base.lang, base.reference, options.n_resamples
    if options.parallel:
        items = ref_table.index.intersection(lang_table.index)
        ref, mine = ref_table.loc[items].to_numpy(float), lang_table.loc[items].to_numpy(float)
        base = replace(base, n_items=len(items))
        if len(items) == 0:
            return replace(base, verdict=INCONCLUSIVE, reason=f"no item scored in both {lang} and {reference}")
        values, boot = _paired_boot(oc.statistic, ref, mine, sign, n_resamples, seed)
    else:
        ref, mine = ref_table.to_numpy(float), lang_table.to_numpy(float)
        base = replace(base, n_items=len(mine), n_reference=len(ref))
        if len(mine) == 0 or len(ref) == 0:
            missing = lang if len(mine) == 0 else reference
            return replace(base, verdict=INCONCLUSIVE, reason=f"unpaired; no item scored in {missing}")
        values, boot = _unpaired_boot(oc.statistic, ref, mine, sign, n_resamples, seed)
    value_ref, value_lang, estimate = values
    base = replace(base, value_reference=value_ref, value_lang=value_lang, difference=estimate)
    draft = _tests(base, boot, oc.margin, options)
    if oc.statistic == "mean" and options.parallel:
        d = sign * (mine[:, 0] / mine[:, 1] - ref[:, 0] / ref[:, 1])
        draft.sd = float(np.std(d, ddof=1)) if len(d) > 1 else 0.0
    draft.se = float(np.std(boot, ddof=1))
    return draft


Values = tuple[float, float, float]  # the reference's value, the language's, and the difference (better direction)


def _paired_boot(
    statistic: str, ref: np.ndarray, mine: np.ndarray, sign: float, n_resamples: int, seed: int
) -> tuple[Values, np.ndarray]:
    """The ``Values`` of a paired comparison and the bootstrap distribution of the difference (items resampled in
    pairs)."""
    stat = difference(statistic, ref, mine)
    ones = np.ones((1, len(ref)))
    estimate = sign * float(stat(ones)[0]) + 0.0  # + 0.0: no "−0.0" for a lower-is-better outcome
    value_ref = float(statistic_of(statistic, ref)(ones)[0])
    value_lang = float(statistic_of(statistic, mine)(ones)[0])
    boot: np.ndarray = sign * resample(stat, len(ref), n_resamples, seed) + 0.0
    return (value_ref, value_lang, estimate), boot


def _unpaired_boot(
    statistic: str, ref: np.ndarray, mine: np.ndarray, sign: float, n_resamples: int, seed: int
) -> tuple[Values, np.ndarray]:
    """As ``_paired_boot`` for an unpaired comparison: each language's own items resampled on their own (there are
    no pairs to keep together), the reference's with ``seed + 7919``."""
    of_ref, of_lang = statistic_of(statistic, ref), statistic_of(statistic, mine)
    value_ref = float(of_ref(np.ones((1, len(ref))))[0])
    value_lang = float(of_lang(np.ones((1, len(mine))))[0])
    estimate = sign * (value_lang - value_ref) + 0.0
    boot_lang = resample(of_lang, len(mine), n_resamples, seed)
    boot: np.ndarray = sign * (boot_lang - resample(of_ref, len(ref), n_resamples, seed + 7919)) + 0.0
    return (value_ref, value_lang, estimate), boot


def _tests(v: Verdict, boot: np.ndarray, margin: float, options: VerdictOptions) -> _Draft:
    """``v`` with its one-sided bounds and bootstrap p-values (``p_noninferior``, ``p_inferior``; with
    ``equivalence`` ``p_equivalence``, in ``extra``) from the difference's bootstrap distribution ``boot``."""
    n_resamples, alpha = options.n_resamples, options.alpha
    p_ni = (1 + int(np.sum(boot <= -margin))) / (n_resamples + 1)
    p_inf = (1 + int(np.sum(boot >= -margin))) / (n_resamples + 1)
    v = replace(v, lower=float(np.quantile(boot, alpha)), upper=float(np.quantile(boot, 1 - alpha)),
                p_noninferior=p_ni, p_inferior=p_inf)  # fmt: skip
    draft = _Draft(v)
    if options.equivalence:
        draft.extra["p_equivalence"] = max(p_ni, (1 + int(np.sum(boot >= margin))) / (n_resamples + 1))
    return draft


def _judge(
    oc: Outcome, lang: str, judges: Mapping[tuple[str, str], Mapping[str, Any]], min_kappa: float
) -> tuple[float | None, int | None, bool | None]:
    """The judge's κ with humans in ``lang``, on how many items, and whether it clears ``min_kappa`` (judged
    outcomes; ``None`` three times for the others)."""
    if not oc.judged:
        return None, None, None
    measured = judges.get((oc.task, lang)) or {}
    kappa = measured.get("judge_kappa")
    return kappa, measured.get("n_items", 0), kappa is not None and kappa >= min_kappa


def _decide(block: list[_Draft], options: VerdictOptions) -> list[Verdict]:
    """Holm across the languages of one outcome, then each language's verdict and, if inconclusive, the items
    needed (at α / m, Holm's strictest step, so the estimate holds whatever the other languages do)."""
    if not block:
        return []
    alpha = options.alpha
    p_ni = holm([float(d.verdict.p_noninferior or 0.0) for d in block])
    p_inf = holm([float(d.verdict.p_inferior or 0.0) for d in block])
    p_eq = holm([float(d.extra["p_equivalence"] or 0.0) for d in block]) if options.equivalence else None
    out = []
    for k, d in enumerate(block):
        v = replace(d.verdict, p_noninferior_holm=float(p_ni[k]), p_inferior_holm=float(p_inf[k]))
        if p_eq is not None:
            d.extra["p_equivalence_holm"] = float(p_eq[k])
            d.extra["equivalent"] = bool(p_eq[k] < alpha and v.n_items >= options.min_items)
        out.append(_decided(v, d, options, len(block), (float(p_ni[k]), float(p_inf[k]))))
    return out


def _decided(v: Verdict, d: _Draft, options: VerdictOptions, m: int, p_holm: tuple[float, float]) -> Verdict:
    """The verdict of ``v`` (its Holm-corrected p-values ``p_holm``, one of ``m`` languages) and its reason."""
    alpha, min_items, margin, lower, upper = options.alpha, options.min_items, v.margin, v.lower, v.upper
    n = min(v.n_items, v.n_reference) if v.n_reference is not None else v.n_items
    if math.isnan(margin):  # an outcome with no default margin (another tool's metric, in its own units)
        # a test against no margin tests nothing
        v = replace(v, p_noninferior=None, p_inferior=None, p_noninferior_holm=None, p_inferior_holm=None)
        verdict, reason = INCONCLUSIVE, (f"no margin: --margin {v.outcome.split(' (')[0]}=δ gives one, in {v.unit}; "
                                         f"the bounds are [{lower:+.4g}, {upper:+.4g}]")  # fmt: skip
    elif n < min_items:
        verdict, reason = INCONCLUSIVE, f"{paired(n, v.design)}, fewer than {min_items}"
    elif p_holm[0] < alpha:
        verdict, reason = NONINFERIOR, f"lower bound {lower:+.4g} > −δ = {-margin:+.4g}"
    elif p_holm[1] < alpha:
        verdict, reason = INFERIOR, f"upper bound {upper:+.4g} < −δ = {-margin:+.4g}"
    else:
        verdict = INCONCLUSIVE
        reason = f"the bounds [{lower:+.4g}, {upper:+.4g}] straddle −δ = {-margin:+.4g}"
    needed = None
    if verdict == INCONCLUSIVE and not math.isnan(margin):
        needed = _items_needed(float(v.difference or 0.0), margin, d.se, n, alpha / m, d.sd)
    if v.design == "unpaired":  # beside every number: these are not the same questions
        reason = f"unpaired (different questions per language); {reason}"
    return replace(v, verdict=verdict, reason=reason, n_items_needed=needed, extra=dict(d.extra))
