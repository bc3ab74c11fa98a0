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
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from xlingmed.analysis.items import difference, item_table, resample, statistic_of
from xlingmed.analysis.paired import holm
from xlingmed.analysis.verdict_record import PAIRED_BOOTSTRAP, UNPAIRED_BOOTSTRAP
from xlingmed.errors import ConfigError
from xlingmed.outcomes import TaskOutcome, apart, group_of

NONINFERIOR, INFERIOR, INCONCLUSIVE = "non-inferior", "inferior", "inconclusive"
MIN_ITEMS = 20
POWER = 0.8
MIN_JUDGE_KAPPA = 0.6  # "substantial" agreement (Landis & Koch, Biometrics 1977: 0.61–0.80)


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
    alpha: float = 0.05,
    equivalence: bool = False,
    min_items: int = MIN_ITEMS,
    judges: Mapping[tuple[str, str], Mapping[str, Any]] | None = None,
    min_judge_kappa: float = MIN_JUDGE_KAPPA,
    n_resamples: int = 10_000,
    seed: int = 0,
    parallel: bool = True,
    parse_limits: bool = True,
) -> list[dict[str, Any]]:
    """Non-inferiority verdicts of every language against ``reference`` on each primary outcome in ``scores``.

    Args:
        scores: a run's Scores (``analysis.run.read_scores``); only the plain question (no prompt condition).
        languages: the run's languages; those other than ``reference`` get a verdict.
        margins: δ per outcome name (``parse_margins``); the rest use the task's default.
        alpha: one-sided level of each test (the bounds are one-sided (1 − α) bounds).
        equivalence: add the TOST equivalence test (|Δ| < δ), Holm-corrected like the others.
        judges: (task, language) → ``{"judge_kappa", "n_items"}`` (``annotate.agreement.judge_reliability``); a
            verdict on a judged outcome (``TaskSpec.judged``) whose language has no κ, or one below
            ``min_judge_kappa``, is marked ``judge_verified`` False.
        parallel: the same questions in every language (pairs); false: unpaired (module doc).
        parse_limits: mark the verdicts where more than 5 % of the language's (or the reference's) replies were
            not read by a direct rule, and compute them under both extremes (``analysis.parse_limits``).

    Returns:
        One row per (outcome, language): task, outcome, metric, statistic, unit, lang, reference, design
        (``paired``/``unpaired``), n_items (paired; unpaired: the language's), n_reference (unpaired), margin,
        alpha, value_reference, value_lang, difference (Δ, better direction), lower, upper (one-sided (1 − α)
        bounds of Δ), p_noninferior, p_inferior (raw and ``_holm``), verdict, reason,
        n_items_needed (inconclusive only), judge_kappa, judge_items and judge_verified (judged outcomes; else
        None), method (``paired bootstrap`` / ``unpaired bootstrap``) and provenance (resamples, seed), with
        ``equivalence`` p_equivalence(_holm) and equivalent, and with ``parse_limits`` the parse
        columns of ``analysis.parse_limits.apply`` (a parse-limited verdict that differs between the extremes is
        inconclusive). Values are in the outcome's units (a proportion for accuracy, not %).
    """
    rows: list[dict[str, Any]] = []
    plain = scores[scores["condition"].isna()] if "condition" in scores else scores
    tasks = apart(tasks, scores["task"]) if "task" in scores else tasks
    design = _Design(alpha, equivalence, min_items, n_resamples, seed, parallel, judges or {}, min_judge_kappa)
    for oc in outcomes(tasks, margins):
        sub = plain[(plain["task"] == oc.task) & (plain["metric"] == oc.metric)]
        if not sub.empty and reference in set(sub["lang"]):
            rows += _outcome_rows(oc, sub, [lg for lg in languages if lg != reference], reference, design)
    out = [{k: v for k, v in r.items() if not k.startswith("_")} for r in rows]
    if not parse_limits or not out:
        return out
    again = functools.partial(
        noninferiority, languages=languages, reference=reference, margins=margins, tasks=tasks, alpha=alpha,
        equivalence=equivalence, min_items=min_items, judges=judges, min_judge_kappa=min_judge_kappa,
        n_resamples=n_resamples, seed=seed, parallel=parallel, parse_limits=False,
    )  # fmt: skip
    return _parse_limited(out, plain, reference, outcomes(apart(tasks, scores["task"]), margins), again)


def _parse_limited(
    out: list[dict[str, Any]], plain: pd.DataFrame, reference: str, ocs: list[Outcome],
    again: Callable[[pd.DataFrame], list[dict[str, Any]]],
) -> list[dict[str, Any]]:  # fmt: skip
    """``analysis.parse_limits.apply`` on the verdict rows ``out``: ``again`` computes them from other Scores."""
    from xlingmed.analysis import parse_limits as limits

    statistics = {(oc.task, oc.metric): oc.statistic for oc in ocs}
    return limits.apply(out, plain, reference, statistics, again)


@dataclass(frozen=True)
class _Design:
    """The settings of ``noninferiority`` that every (outcome, language) row is computed under."""

    alpha: float
    equivalence: bool
    min_items: int
    n_resamples: int
    seed: int
    parallel: bool
    judges: Mapping[tuple[str, str], Mapping[str, Any]]
    min_judge_kappa: float


def _outcome_rows(
    oc: Outcome, sub: pd.DataFrame, languages: list[str], reference: str, design: _Design
) -> list[dict[str, Any]]:
    """The rows of one outcome (``sub``: its Scores), one per language other than the reference: first those
    without items (inconclusive), then the others with their verdicts (``_decide``)."""
    rows: list[dict[str, Any]] = []
    alpha, parallel, n_resamples, seed = design.alpha, design.parallel, design.n_resamples, design.seed
    higher = bool(sub["higher_is_better"].iloc[0])
    sign = 1.0 if higher else -1.0
    ref_table = item_table(sub, reference, oc.statistic)
    block = []
    for k, lang in enumerate(languages):
        lang_table = item_table(sub, lang, oc.statistic)
        row: dict[str, Any] = {
            "task": oc.task, "outcome": oc.name, "metric": oc.metric, "statistic": oc.statistic,
            "unit": oc.unit, "higher_is_better": higher, "lang": lang, "reference": reference,
            "design": "paired" if parallel else "unpaired", "n_items": 0, "n_reference": None,
            "margin": oc.margin, "alpha": alpha, **_judge(oc, lang, design.judges, design.min_judge_kappa),
            "method": PAIRED_BOOTSTRAP if parallel else UNPAIRED_BOOTSTRAP,
            "provenance": f"{n_resamples} resamples, seed {seed + k}",
        }  # fmt: skip
        tables = (ref_table, lang_table)
        if _estimate(row, oc, tables, sign, (n_resamples, seed + k), parallel, alpha, design.equivalence):
            block.append(row)
        else:
            rows.append(row)
    _decide(block, alpha, design.min_items, design.equivalence)
    return rows + block


def _estimate(
    row: dict[str, Any], oc: Outcome, tables: tuple[pd.DataFrame, pd.DataFrame], sign: float,
    resampling: tuple[int, int], parallel: bool, alpha: float, equivalence: bool,
) -> bool:  # fmt: skip
    """Fills one (outcome, language) row of ``noninferiority`` from the reference's and the language's item tables:
    the values, the difference and its bootstrap bounds and p-values (``resampling``: resamples, seed), and the
    ``_sd``/``_se`` that ``_decide`` reads. False, with the row made inconclusive, where a side has no item."""
    ref_table, lang_table = tables
    n_resamples, seed = resampling
    lang, reference = row["lang"], row["reference"]
    if parallel:
        items = ref_table.index.intersection(lang_table.index)
        ref, mine = ref_table.loc[items].to_numpy(float), lang_table.loc[items].to_numpy(float)
        row["n_items"] = len(items)
        if len(items) == 0:
            row.update({"verdict": INCONCLUSIVE, "reason": f"no item scored in both {lang} and {reference}"})
            return False
        boot = _paired_boot(row, oc.statistic, ref, mine, sign, n_resamples, seed)
    else:
        ref, mine = ref_table.to_numpy(float), lang_table.to_numpy(float)
        row.update(n_items=len(mine), n_reference=len(ref))
        if len(mine) == 0 or len(ref) == 0:
            missing = lang if len(mine) == 0 else reference
            row.update({"verdict": INCONCLUSIVE, "reason": f"unpaired; no item scored in {missing}"})
            return False
        boot = _unpaired_boot(row, oc.statistic, ref, mine, sign, n_resamples, seed)
    _tests(row, boot, oc.margin, alpha, equivalence, n_resamples)
    if oc.statistic == "mean" and parallel:
        d = sign * (mine[:, 0] / mine[:, 1] - ref[:, 0] / ref[:, 1])
        row["_sd"] = float(np.std(d, ddof=1)) if len(d) > 1 else 0.0
    else:
        row["_sd"] = None
    row["_se"] = float(np.std(boot, ddof=1))
    return True


def _paired_boot(
    row: dict[str, Any], statistic: str, ref: np.ndarray, mine: np.ndarray, sign: float, n_resamples: int, seed: int
) -> np.ndarray:
    """Fills ``value_reference``, ``value_lang`` and ``difference`` (better direction) of a paired row; returns the
    bootstrap distribution of the difference (items resampled in pairs)."""
    stat = difference(statistic, ref, mine)
    ones = np.ones((1, len(ref)))
    estimate = sign * float(stat(ones)[0]) + 0.0  # + 0.0: no "−0.0" for a lower-is-better outcome
    value_ref = float(statistic_of(statistic, ref)(ones)[0])
    value_lang = float(statistic_of(statistic, mine)(ones)[0])
    row.update(value_reference=value_ref, value_lang=value_lang, difference=estimate)
    boot: np.ndarray = sign * resample(stat, len(ref), n_resamples, seed) + 0.0
    return boot


def _unpaired_boot(
    row: dict[str, Any], statistic: str, ref: np.ndarray, mine: np.ndarray, sign: float, n_resamples: int, seed: int
) -> np.ndarray:
    """As ``_paired_boot`` for an unpaired row: each language's own items resampled on their own (there are no
    pairs to keep together), the reference's with ``seed + 7919``."""
    of_ref, of_lang = statistic_of(statistic, ref), statistic_of(statistic, mine)
    value_ref = float(of_ref(np.ones((1, len(ref))))[0])
    value_lang = float(of_lang(np.ones((1, len(mine))))[0])
    estimate = sign * (value_lang - value_ref) + 0.0
    row.update(value_reference=value_ref, value_lang=value_lang, difference=estimate)
    boot_lang = resample(of_lang, len(mine), n_resamples, seed)
    boot: np.ndarray = sign * (boot_lang - resample(of_ref, len(ref), n_resamples, seed + 7919)) + 0.0
    return boot


def _tests(
    row: dict[str, Any], boot: np.ndarray, margin: float, alpha: float, equivalence: bool, n_resamples: int
) -> None:
    """Fills a row's one-sided bounds and bootstrap p-values (``p_noninferior``, ``p_inferior``, and with
    ``equivalence`` ``p_equivalence``) from the difference's bootstrap distribution ``boot``."""
    p_ni = (1 + int(np.sum(boot <= -margin))) / (n_resamples + 1)
    p_inf = (1 + int(np.sum(boot >= -margin))) / (n_resamples + 1)
    row.update(
        lower=float(np.quantile(boot, alpha)), upper=float(np.quantile(boot, 1 - alpha)),
        p_noninferior=p_ni, p_inferior=p_inf,
    )  # fmt: skip
    if equivalence:
        row["p_equivalence"] = max(p_ni, (1 + int(np.sum(boot >= margin))) / (n_resamples + 1))


def _judge(
    oc: Outcome, lang: str, judges: Mapping[tuple[str, str], Mapping[str, Any]], min_kappa: float
) -> dict[str, Any]:
    """The judge's agreement with humans in ``lang`` and whether it clears ``min_kappa`` (judged outcomes)."""
    if not oc.judged:
        return {"judge_kappa": None, "judge_items": None, "judge_verified": None}
    measured = judges.get((oc.task, lang)) or {}
    kappa = measured.get("judge_kappa")
    return {
        "judge_kappa": kappa,
        "judge_items": measured.get("n_items", 0),
        "judge_verified": kappa is not None and kappa >= min_kappa,
    }


def holm_columns(block: list[dict[str, Any]], keys: Sequence[str]) -> None:
    """Each p-value column ``key`` of the rows of one outcome, Holm-corrected across them, as ``key_holm``."""
    for key in keys:
        for r, p in zip(block, holm([r[key] for r in block]), strict=True):
            r[f"{key}_holm"] = float(p)


def _decide(block: list[dict[str, Any]], alpha: float, min_items: int, equivalence: bool) -> None:
    """Holm across the languages of one outcome, then each language's verdict and, if inconclusive, the items
    needed (at α / m, Holm's strictest step, so the estimate holds whatever the other languages do)."""
    if not block:
        return
    holm_columns(block, ["p_noninferior", "p_inferior", *(["p_equivalence"] if equivalence else [])])
    m = len(block)
    for r in block:
        if equivalence:
            r["equivalent"] = bool(r["p_equivalence_holm"] < alpha and r["n_items"] >= min_items)
        n = min(r["n_items"], r["n_reference"]) if r["n_reference"] is not None else r["n_items"]
        if math.isnan(r["margin"]):  # an outcome with no default margin (another tool's metric, in its own units)
            r["verdict"], r["n_items_needed"] = INCONCLUSIVE, None
            for key in ("p_noninferior", "p_inferior", "p_noninferior_holm", "p_inferior_holm"):
                r[key] = None  # a test against no margin tests nothing
            r["reason"] = (f"no margin: --margin {r['outcome'].split(' (')[0]}=δ gives one, in {r['unit']}; "
                           f"the bounds are [{r['lower']:+.4g}, {r['upper']:+.4g}]")  # fmt: skip
        elif n < min_items:
            r["verdict"], r["reason"] = INCONCLUSIVE, f"{paired(n, r['design'])}, fewer than {min_items}"
        elif r["p_noninferior_holm"] < alpha:
            r["verdict"], r["reason"] = NONINFERIOR, f"lower bound {r['lower']:+.4g} > −δ = {-r['margin']:+.4g}"
        elif r["p_inferior_holm"] < alpha:
            r["verdict"], r["reason"] = INFERIOR, f"upper bound {r['upper']:+.4g} < −δ = {-r['margin']:+.4g}"
        else:
            r["verdict"] = INCONCLUSIVE
            r["reason"] = f"the bounds [{r['lower']:+.4g}, {r['upper']:+.4g}] straddle −δ = {-r['margin']:+.4g}"
        if r["verdict"] == INCONCLUSIVE and not math.isnan(r["margin"]):
            r["n_items_needed"] = _items_needed(r["difference"], r["margin"], r["_se"], n, alpha / m, r["_sd"])
        if r["design"] == "unpaired":  # beside every number: these are not the same questions
            r["reason"] = f"unpaired (different questions per language); {r['reason']}"
