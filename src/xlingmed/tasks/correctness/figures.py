"""The correctness task's figure: the judge's labels per language as stacked bars (XLingEval Table 1)."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np

from xlingmed.tasks.correctness.summary import CorrectnessSummary
from xlingmed.views.figures import png

LABEL_COLORS = {
    "more": "#009E73",
    "less": "#F0E442",
    "neither": "#999999",
    "contradictory": "#D55E00",
    "no_response": "#000000",
}


def correctness_bars(summary: CorrectnessSummary, languages: Sequence[str], title: str) -> bytes:
    """Stacked bars of the judge's label proportions per language, each bar annotated with its n; the change
    of "contradictory" against English (percentage points) is printed above the bar. Returns PNG bytes."""
    fig, ax = plt.subplots(figsize=(1.6 + 1.3 * len(languages), 3.6))
    bottom = np.zeros(len(languages))
    for lab in summary.labels:
        vals = np.array([summary.languages[lg].proportions[lab] or 0.0 for lg in languages])
        ax.bar(languages, vals, bottom=bottom, color=LABEL_COLORS.get(lab), label=summary.label_names[lab],
               edgecolor="white")  # fmt: skip
        bottom += vals
    for i, lg in enumerate(languages):
        s = summary.languages[lg]
        change = (s.change_vs_en_pp or {}).get("contradictory")
        note = f"n={s.n}" + ("" if lg == "en" or change is None else f"\ncontra. {change:+.1f}pp")
        ax.text(i, 1.02, note, ha="center", va="bottom", fontsize=8)
    ax.set_ylim(0, 1.25)
    ax.set_ylabel("share of judged answers")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    return png(fig)
