"""The report's figures (matplotlib, Agg backend: no display, no network). Each function draws one figure from
a run's stored results and returns it as PNG bytes.

Layouts follow XLingEval: Table 1 as stacked bars (correctness), Fig. 3 as metric-vs-temperature lines and box
plots per language (consistency), Fig. 4 / A3 as temperature × language heatmaps (verifiability); plus a
forest plot of every criterion's gap against English with its bootstrap CI.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.patches import Rectangle

# One colour per language, fixed across figures (colour-blind safe Okabe-Ito palette).
LANG_COLORS = {"en": "#0072B2", "es": "#E69F00", "zh": "#009E73", "hi": "#D55E00", "ar": "#CC79A7"}


def png(fig: Any) -> bytes:
    """``fig`` as PNG bytes (110 dpi), closed."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def lang_color(lang: str) -> str:
    return LANG_COLORS.get(lang, "#56B4E9")


def consistency_lines(consistency: Mapping[str, Any], languages: Sequence[str], title: str) -> bytes:
    """One panel per metric of the Table A9 layout: mean over questions against temperature, a line per
    language (paper Fig. 3)."""
    columns = consistency["table_a9"]["columns"]
    n = len(columns)
    ncols = min(4, n)
    nrows = (n + ncols - 1) // ncols
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.2 * ncols, 2.6 * nrows), squeeze=False)
    for ax, (col, label) in zip(axes.flat, columns.items(), strict=False):
        for lg in languages:
            per_t = consistency["languages"][lg]
            ts = [float(t) for t in per_t]
            ys = [per_t[t]["metrics"][col]["mean"] for t in per_t]
            ax.plot(ts, [np.nan if y is None else y for y in ys], marker="o", color=lang_color(lg), label=lg)
        ax.set_title(label, fontsize=9)
        ax.set_xlabel("temperature τ", fontsize=8)
        ax.tick_params(labelsize=7)
    for ax in list(axes.flat)[n:]:
        ax.axis("off")
    axes.flat[0].legend(fontsize=7, frameon=False)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return png(fig)


def box_data(rows: pd.DataFrame, col: str, languages: Sequence[str], temps: Sequence[float]) -> list[pd.DataFrame]:
    """Per temperature, the item × language values of ``col`` for the questions complete in every language."""
    from xlingmed.analysis.data import complete_items

    out = []
    for t in temps:
        at = rows[rows["temperature"] == t]
        values = pd.DataFrame({"item_id": at["item_id"].astype(str), "lang": at["lang"], "value": at[col]})
        out.append(complete_items(values, languages)[0])
    return out


def consistency_boxes(rows: pd.DataFrame, metrics: Mapping[str, str], languages: Sequence[str], title: str) -> bytes:
    """Box plots of the per-question values per language, grouped by temperature, one panel per metric.

    Each box holds the same questions as the tests it illustrates: per metric and temperature, only the
    questions with a value in every language (listwise deletion, ``analysis.data.complete_items``, as the
    authors' box plots and ANOVA); the number kept is printed under each temperature."""
    rows = rows[rows["temperature"].notna()]
    temps = sorted(rows["temperature"].unique())
    n = len(metrics)
    ncols = min(4, n)
    nrows = (n + ncols - 1) // ncols
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.4 * ncols, 2.7 * nrows), squeeze=False)
    width = 0.8 / max(1, len(languages))
    for ax, (col, label) in zip(axes.flat, metrics.items(), strict=False):
        complete = box_data(rows, col, languages, temps)
        for j, lg in enumerate(languages):
            data = [wide[lg].to_numpy() for wide in complete]
            pos = [i + (j - (len(languages) - 1) / 2) * width for i in range(len(temps))]
            keep = [(p, d) for p, d in zip(pos, data, strict=True) if len(d)]
            if keep:
                bp = ax.boxplot(
                    [d for _, d in keep], positions=[p for p, _ in keep], widths=width * 0.9, patch_artist=True
                )
                for patch in bp["boxes"]:
                    patch.set_facecolor(lang_color(lg))
                    patch.set_alpha(0.7)
        ticks = [f"τ={t:g}\nn={len(wide)}" for t, wide in zip(temps, complete, strict=True)]
        ax.set_xticks(range(len(temps)), ticks, fontsize=7)
        ax.set_title(label, fontsize=9)
        ax.tick_params(labelsize=7)
    for ax in list(axes.flat)[n:]:
        ax.axis("off")
    handles = [Rectangle((0, 0), 1, 1, color=lang_color(lg), alpha=0.7) for lg in languages]
    fig.legend(handles, languages, loc="upper right", fontsize=7, frameon=False)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return png(fig)


FOREST_XLABEL = "gap vs English: % of the English value (continuous) or pp (binary); ← worse | better →"


def forest(gaps: pd.DataFrame, title: str, xlabel: str = FOREST_XLABEL) -> bytes:
    """Every criterion's gap against English with its 95% CI, in % of the English value (continuous metrics)
    or percentage points (binary outcomes), oriented so that left = worse than English. Filled markers:
    significant after Holm correction (paired test, p < 0.05); hollow: not significant."""
    rows = gaps.reset_index(drop=True)
    fig, ax = plt.subplots(figsize=(7.5, 0.9 + 0.28 * len(rows)))
    for i, r in rows.iterrows():
        y = len(rows) - 1 - int(str(i))
        color = lang_color(str(r["lang"]))
        ax.errorbar(
            r["effect"],
            y,
            xerr=[[max(0.0, r["effect"] - r["low"])], [max(0.0, r["high"] - r["effect"])]],
            fmt="o",
            color=color,
            markerfacecolor=color if r["significant"] else "white",
            capsize=2,
            markersize=5,
        )
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(rows)), list(rows["label"])[::-1], fontsize=7)
    ax.set_xlabel(xlabel, fontsize=8)
    ax.set_title(title, fontsize=10)
    ax.tick_params(axis="x", labelsize=7)
    fig.tight_layout()
    return png(fig)


def headline_bars(rows: Sequence[Mapping[str, Any]], ylabel: str, title: str, ymax: float | None = None) -> bytes:
    """One bar per (language, temperature) of a task's headline number (MedArabiQ Table 1 layout), each bar
    annotated with its value and n."""
    fig, ax = plt.subplots(figsize=(1.8 + 1.0 * len(rows), 3.2))
    labels = [f"{r['lang']}\nτ={r['temperature']:g}" for r in rows]
    vals = [r["value"] if r["value"] is not None else 0.0 for r in rows]
    ax.bar(labels, vals, color=[lang_color(str(r["lang"])) for r in rows])
    for i, r in enumerate(rows):
        ax.text(i, vals[i], f"{r['value']}\n{r['note']}", ha="center", va="bottom", fontsize=7)
    ax.set_ylim(0, (ymax or max([*vals, 1.0])) * 1.25)
    ax.set_ylabel(ylabel, fontsize=8)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return png(fig)
