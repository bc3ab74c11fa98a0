"""The figures of one run in the report: which ones it gets, and the rows of its forest plot of gaps to English."""

from __future__ import annotations

from typing import Any

import pandas as pd

from xlingmed.report import figures
from xlingmed.report.load import RunData
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
    """The gaps shown in the forest plot: correctness outcomes, verifiability per τ, consistency (Table A9
    metrics) averaged over τ; in % of English (continuous) or pp (binary), left = worse."""
    cons = run.summary.get("tasks", {}).get("consistency")
    a9 = set(cons["table_a9"]["columns"]) if cons else set()
    rows = []
    for g in gaps:
        if g["gap"] is None:
            continue
        if g["criterion"] == "consistency" and (g["temperature"] is not None or g["metric"] not in a9):
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
        if g["criterion"] == "correctness":
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


def figures_of(run: RunData, tables: dict[str, list[dict[str, Any]]]) -> dict[str, bytes]:
    """The PNG figures of one run, by name: the forest plot of its gaps, and each task's own."""
    langs = run.languages
    tasks = run.summary.get("tasks", {})
    model = run.summary.get("model", "?")
    figs: dict[str, bytes] = {}
    forest = forest_rows(run, tables["gaps"], tables["paired"])
    if not forest.empty:
        figs["forest"] = figures.forest(forest, f"{model}: gap vs English")
    if "correctness" in tasks:
        figs["correctness"] = figures.correctness_bars(tasks["correctness"], langs, f"{model}: correctness labels")
    if "consistency" in tasks:
        cons = tasks["consistency"]
        figs["consistency_lines"] = figures.consistency_lines(cons, langs, f"{model}: consistency vs temperature")
        if "consistency" in run.tables:
            figs["consistency_boxes"] = figures.consistency_boxes(
                run.tables["consistency"], cons["table_a9"]["columns"], langs, f"{model}: per-question values"
            )
    if "verifiability" in tasks:
        figs["verifiability"] = figures.verifiability_heatmaps(tasks["verifiability"], langs, f"{model}: verifiability")
    bench = run.summary.get("benchmark", "?")
    if "multiple_choice" in tasks:
        mc = tasks["multiple_choice"]
        if len(mc["settings"]["conditions"]) > 1:
            figs["bias_conditions"] = figures.bias_conditions(mc, langs, f"{model}: {bench}, accuracy per condition")
        rows = [{**r, "note": f"{r['numerator']}/{r['denominator']}"} for r in mc["table1"]]
        figs["multiple_choice"] = figures.headline_bars(rows, "accuracy %", f"{model}: {bench}", ymax=100)
    if "open_qa" in tasks:
        rows = [{**r, "note": f"n={r['n']}"} for r in tasks["open_qa"]["table1"]]
        figs["open_qa"] = figures.headline_bars(rows, "BERTScore F1 × 100", f"{model}: {bench}", ymax=100)
    return figs
