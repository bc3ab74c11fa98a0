"""The figures of one run in the report: which ones it gets, and the rows of its forest plot of gaps to English."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from xlingmed.analysis.gaps import Gap, UnpairedGap
from xlingmed.analysis.paired import PairedBinary, PairedContinuous
from xlingmed.analysis.records import StatKey
from xlingmed.analysis.run import RunStats
from xlingmed.report.load import RunData
from xlingmed.tasks.run_views import figures_of_tasks, forest_keeps, view_of
from xlingmed.views import figures
from xlingmed.views.base import FigureSection
from xlingmed.views.base import tau as fmt_tau


def p_holm(paired: Sequence[PairedContinuous | PairedBinary], g: Gap | UnpairedGap) -> float | None:
    """The Holm-corrected paired p-value (t test, else McNemar) of gap ``g`` among the run's paired tests."""
    for r in paired:
        if r.key is not None and g.key is not None and _same(r.key, g.key) and {r.lang_a, r.lang_b} == {
                g.reference, g.lang}:  # fmt: skip
            p = r.p_t_holm if isinstance(r, PairedContinuous) else r.p_mcnemar_holm
            return None if p is None else float(p)
    return None


def _same(a: StatKey, b: StatKey) -> bool:
    return (a.criterion, a.metric, a.temperature) == (b.criterion, b.metric, b.temperature)


def forest_rows(
    run: RunData, gaps: Sequence[Gap | UnpairedGap], paired: Sequence[PairedContinuous | PairedBinary]
) -> pd.DataFrame:
    """The gaps shown in the forest plot (each task's view may keep fewer: ``forest``), in % of English
    (continuous) or pp (binary), left = worse."""
    tasks = run.summary.get("tasks", {})
    rows = []
    for g in gaps:
        key = g.key
        if g.gap is None or key is None:
            continue
        if key.criterion in tasks and not forest_keeps(key.criterion, tasks[key.criterion], g):
            continue
        if g.effect_size_name != "cohen_h":  # continuous: % of the English value
            if not g.mean_reference:
                continue
            scale = 100.0 / g.mean_reference
        else:  # binary: percentage points
            scale = 100.0
        sign = 1.0 if key.higher_is_better else -1.0
        eff = sign * g.gap * scale
        lo = g.ci_low if g.ci_low is not None else g.gap
        hi = g.ci_high if g.ci_high is not None else g.gap
        ends = sorted([sign * lo * scale, sign * hi * scale])
        p = g.p if isinstance(g, UnpairedGap) else p_holm(paired, g)  # unpaired: Welch / Fisher
        if one_temperature(key.criterion):
            tau = ""
        elif key.temperature is None:
            tau = " (mean over τ)"
        else:
            tau = f" τ={fmt_tau(key.temperature)}"
        rows.append(
            {
                "label": f"{key.criterion}: {key.metric}{tau} [{g.lang}]"
                + (" (unpaired)" if g.design == "unpaired" else ""),
                "lang": g.lang,
                "effect": eff,
                "low": ends[0],
                "high": ends[1],
                "significant": p is not None and p < 0.05,
            }
        )
    return pd.DataFrame(rows)


def one_temperature(task: str) -> bool:
    """The task's view shows its gaps without a temperature (``View.one_temperature``: one answer per question)."""
    return view_of(task).one_temperature


def figures_of(run: RunData, stats: RunStats) -> tuple[dict[str, bytes], list[FigureSection]]:
    """The PNG figures of one run, by name (the forest plot of its gaps, and each task's own), and the tasks'
    figure sections as the report shows them."""
    model = run.summary.get("model", "?")
    figs: dict[str, bytes] = {}
    forest = forest_rows(run, stats.gaps, stats.paired)
    if not forest.empty:
        figs["forest"] = figures.forest(forest, f"{model}: gap vs English")
    sections = figures_of_tasks(run.summary, run.tables)
    figs.update({f.name: f.png for sec in sections for f in sec.figures})
    return figs, sections
