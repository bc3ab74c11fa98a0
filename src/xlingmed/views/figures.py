"""The figures every report draws and the tools a task's own figures use (matplotlib, Agg backend: no display, no
network): ``png``, the language colours, the forest plot, headline bars. Each function draws one figure from
a run's stored results and returns it as PNG bytes. A task's own figures (XLingEval's Table 1 bars, Fig. 3 lines,
Fig. 4 heatmaps; MedArabiQ's bias panels) live in its package, ``tasks/<name>/figures.py``.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pandas as pd

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


THREE_WAYS = (
    ("judge", "judge only", "#999999"),
    ("human", "human only", "#E69F00"),
    ("corrected", "corrected", "#0072B2"),
)


def three_ways(rows: Sequence[Mapping[str, Any]], title: str) -> bytes:
    """Each judged outcome's gap to English per language three ways (``analysis.corrected_verdicts`` rows): the
    judge alone, the humans alone and judge-corrected, each with its one-sided bounds, and the margin −δ dashed;
    left = worse than English."""
    fig, ax = plt.subplots(figsize=(7.5, 0.9 + 0.75 * len(rows)))
    labels = []
    for k, r in enumerate(rows):
        y = len(rows) - 1 - k
        labels.append(f"{r['outcome']}, {r['lang']}")
        for j, (key, name, color) in enumerate(THREE_WAYS):
            value, lo, hi = r[f"{key}_difference"], r[f"{key}_lower"], r[f"{key}_upper"]
            ax.errorbar(value, y + (1 - j) * 0.22, xerr=[[max(0.0, value - lo)], [max(0.0, hi - value)]], fmt="o",
                        color=color, capsize=2, markersize=4, label=name if k == 0 else None)  # fmt: skip
        ax.plot([-r["margin"]] * 2, [y - 0.4, y + 0.4], color="#D55E00", linestyle="--", linewidth=0.9)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(rows)), labels[::-1], fontsize=7)
    ax.set_xlabel("gap vs English in the outcome's units (− δ dashed); ← worse | better →", fontsize=8)
    ax.set_title(title, fontsize=10)
    ax.tick_params(axis="x", labelsize=7)
    ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    return png(fig)
