"""The consistency task's figures: the Table A9 metrics against temperature (XLingEval Fig. 3) and box plots of
the per-question values."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.patches import Rectangle

from xlingmed.tasks.consistency.summary import ConsistencySummary
from xlingmed.views.figures import lang_color, png


def consistency_lines(consistency: ConsistencySummary, languages: Sequence[str], title: str) -> bytes:
    """One panel per metric of the Table A9 layout: mean over questions against temperature, a line per
    language (paper Fig. 3). Returns PNG bytes."""
    columns = consistency.table_a9.columns
    n = len(columns)
    ncols = min(4, n)
    nrows = (n + ncols - 1) // ncols
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.2 * ncols, 2.6 * nrows), squeeze=False)
    for ax, (col, label) in zip(axes.flat, columns.items(), strict=False):
        for lg in languages:
            per_t = consistency.languages[lg]
            ts = [float(t) for t in per_t]
            ys = [per_t[t].metrics[col].mean for t in per_t]
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
