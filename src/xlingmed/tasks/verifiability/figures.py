"""The verifiability task's figure: temperature × language heatmaps of its metrics (XLingEval Fig. 4, A3)."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np

from xlingmed.tasks.verifiability.summary import VerifiabilitySummary
from xlingmed.views.figures import png

VERIFY_METRICS = (
    ("macro_precision", "macro-P"),
    ("macro_recall", "macro-R"),
    ("macro_f1", "macro-F1"),
    ("accuracy", "accuracy"),
    ("auc_hard_labels", "AUC (hard labels, paper)"),
)


def verifiability_heatmaps(summary: VerifiabilitySummary, languages: Sequence[str], title: str) -> bytes:
    """Temperature × language heatmaps of macro P/R/F1, accuracy and the paper's AUC (from hard labels), values
    printed in the cells (paper Fig. 4, A3); a sixth panel with the AUC from P(yes) when logprobs came back.
    Returns PNG bytes."""
    temps = list(summary.languages[languages[0]].temperatures)
    cells = {(lg, t): summary.languages[lg].temperatures[t] for lg in languages for t in temps}
    panels = list(VERIFY_METRICS)
    if any(c.auc_p_yes is not None for c in cells.values()):
        panels.append(("auc_p_yes", "AUC from P(yes)"))
    fig, axes = plt.subplots(1, len(panels), figsize=(2.3 * len(panels), 0.6 + 0.45 * len(temps) + 0.8), squeeze=False)
    for ax, (key, label) in zip(axes.flat, panels, strict=True):
        grid = np.array(
            [[np.nan if (v := cells[(lg, t)].metric(key)) is None else v for lg in languages] for t in temps],
            dtype=float,
        )
        ax.imshow(grid, vmin=0, vmax=1, cmap="viridis", aspect="auto")
        for i in range(len(temps)):
            for j in range(len(languages)):
                txt = "–" if np.isnan(grid[i, j]) else f"{grid[i, j]:.2f}"
                ax.text(j, i, txt, ha="center", va="center", fontsize=7, color="white" if grid[i, j] < 0.6 else "black")
        ax.set_xticks(range(len(languages)), languages, fontsize=8)
        ax.set_yticks(range(len(temps)), [f"τ={t}" for t in temps], fontsize=7)
        ax.set_title(label, fontsize=9)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return png(fig)
