"""The figures of one run in the report: which ones it gets, and the rows of its forest plot of gaps to English."""

from __future__ import annotations

from typing import Any

import pandas as pd

from xlingmed.report.load import RunData
from xlingmed.tasks.run_views import figures_of_tasks, forest_keeps, view_of
from xlingmed.views import figures
from xlingmed.views.base import FigureSection
from xlingmed.views.base import tau as fmt_tau


def p_holm(paired: list[dict[str, Any]], g: dict[str, Any]) -> float | None:
    """The Holm-corrected paired p-value (t test, else McNemar) of gap ``g`` among the run's paired tests."""
    for r in paired:
        same = (r["criterion"], r["metric"], r["temperature"]) == (g["criterion"], g["metric"], g["temperature"])
        if same and {r["lang_a"], r["lang_b"]} == {g["reference"], g["lang"]}:
            p = r.get("p_t_holm") if "p_t_holm" in r else r.get("p_mcnemar_holm")
            return None if p is None else float(p)
    return None


def forest_rows(run: RunData, gaps: list[dict[str, Any]], paired: list[dict[str, Any]]) -> pd.DataFrame:
    """The gaps shown in the forest plot (each task's view may keep fewer: ``forest``), in % of English
    (continuous) or pp (binary), left = worse."""
    tasks = run.summary.get("tasks", {})
    rows = []
    for g in gaps:
        if g["gap"] is None:
            continue
        if g["criterion"] in tasks and not forest_keeps(g["criterion"], tasks[g["criterion"]], g):
            continue
        if g.get("effect_size_name") != "cohen_h":  # continuous: % of the English value
            if not g["mean_reference"]:
                continue
            scale = 100.0 / g["mean_reference"]
        else:  # binary: percentage points
            scale = 100.0
        sign = 1.0 if g["higher_is_better"] else -1.0
        eff = sign * g["gap"] * scale
        lo = g["ci_low"] if g["ci_low"] is not None else g["gap"]
        hi = g["ci_high"] if g["ci_high"] is not None else g["gap"]
        ends = sorted([sign * lo * scale, sign * hi * scale])
        p = p_holm(paired, g) if g.get("design", "paired") == "paired" else g.get("p")  # unpaired: Welch / Fisher
        if one_temperature(g["criterion"]):
            tau = ""
        elif g["temperature"] is None:
            tau = " (mean over τ)"
        else:
            tau = f" τ={fmt_tau(g['temperature'])}"
        rows.append(
            {
                "label": f"{g['criterion']}: {g['metric']}{tau} [{g['lang']}]"
                + (" (unpaired)" if g.get("design") == "unpaired" else ""),
                "lang": g["lang"],
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


def figures_of(run: RunData, tables: dict[str, list[dict[str, Any]]]) -> tuple[dict[str, bytes], list[FigureSection]]:
    """The PNG figures of one run, by name (the forest plot of its gaps, and each task's own), and the tasks'
    figure sections as the report shows them."""
    model = run.summary.get("model", "?")
    figs: dict[str, bytes] = {}
    forest = forest_rows(run, tables["gaps"], tables["paired"])
    if not forest.empty:
        figs["forest"] = figures.forest(forest, f"{model}: gap vs English")
    sections = figures_of_tasks(run.summary, run.tables)
    figs.update({f.name: f.png for sec in sections for f in sec.figures})
    return figs, sections
