"""The multiple_choice task's figure of its bias conditions (MedArabiQ Table 2, Fig. 4, H1, I1)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import matplotlib.pyplot as plt
import numpy as np

from xlingmed.tasks.multiple_choice.summary import MultipleChoiceSummary
from xlingmed.views.figures import lang_color, png

BIAS_CONDITION_NAMES = {
    "original": "Q&A",
    "biased": "with bias",
    "education": "bias education",
    "one_shot": "one-shot",
    "few_shot": "few-shot",
}


def _accuracy(cells: Any, c: str, group: str, key: str) -> float:
    """Accuracy % of ``group`` (a bias, ``per_bias``, or a medical category) under condition ``c``; NaN if none."""
    by = cells[c].per_bias if key == "per_bias" else cells[c].per_category
    one = (by or {}).get(group)
    return np.nan if one is None or one.accuracy_pct is None else float(one.accuracy_pct)


def _condition_bars(
    ax: Any, mc: MultipleChoiceSummary, keys: list[tuple[str, str]], conds: list[str], names: list[str]
) -> None:
    """Panel 1: accuracy per condition, one bar per language and temperature, k/n printed."""
    width = 0.8 / max(1, len(keys))
    for k, (lg, t) in enumerate(keys):
        cells = mc.cells(lg, t)
        vals = [cells[c].accuracy_pct or 0.0 for c in conds]
        xs = np.arange(len(conds)) + k * width
        ax.bar(xs, vals, width=width, color=lang_color(lg), label=f"{lg} τ={t}", alpha=1.0 - 0.15 * k)
        for x, c, v in zip(xs, conds, vals, strict=True):
            ax.text(x, v + 1, f"{cells[c].n_correct}/{cells[c].n}", ha="center", fontsize=6, rotation=90)
    ax.set_xticks(np.arange(len(conds)) + 0.4 - width / 2, names, fontsize=8)
    ax.set_ylim(0, 115)
    ax.set_ylabel("accuracy % (invalid = wrong)", fontsize=8)
    ax.set_title("accuracy per condition", fontsize=9)
    ax.legend(fontsize=7, frameon=False)


def _category_bars(cat: Any, cells: Any, conds: list[str], names: list[str], title: str) -> None:
    """Panel 4: accuracy per medical category, one bar per condition."""
    cmap = plt.get_cmap("tab10")
    categories = sorted({g for c in conds for g in cells[c].per_category})
    cw = 0.8 / max(1, len(conds))
    for i, c in enumerate(conds):
        cat.bar(
            np.arange(len(categories)) + i * cw,
            [_accuracy(cells, c, g, "per_category") for g in categories],
            width=cw,
            color=cmap(i),
            label=names[i],
        )
    cat.set_xticks(np.arange(len(categories)) + 0.4 - cw / 2, categories, fontsize=7, rotation=30, ha="right")
    cat.set_ylim(0, 105)
    cat.set_title(title, fontsize=9)
    cat.legend(fontsize=6, frameon=False, ncol=3)


def bias_conditions(mc: MultipleChoiceSummary, languages: Sequence[str], title: str) -> bytes:
    """Bias and mitigation results (MedArabiQ Table 2, Fig. 4, H1, I1), four panels:

    accuracy per condition (bars, one per language and temperature, k/n printed); accuracy across the mitigation
    strategies, one line per bias category; a radar of accuracy per bias category, one polygon per condition
    (Fig. 4); accuracy per medical category and condition (bars). Panels 2–4 show the first language and
    temperature."""
    conds = list(mc.settings.conditions)
    names = [BIAS_CONDITION_NAMES.get(c, c) for c in conds]
    keys = [(lg, t) for lg in languages for t in mc.languages[lg]]
    fig = plt.figure(figsize=(12, 8.5))
    _condition_bars(fig.add_subplot(2, 2, 1), mc, keys, conds, names)

    lg, t = keys[0]
    cells = mc.cells(lg, t)
    biases = sorted({b for c in conds for b in cells[c].per_bias or {}})
    acc = functools.partial(_accuracy, cells)

    lines = fig.add_subplot(2, 2, 2)
    cmap = plt.get_cmap("tab10")
    for i, b in enumerate(biases):
        lines.plot(range(len(conds)), [acc(c, b, "per_bias") for c in conds], marker="o", color=cmap(i), label=b)
    lines.set_xticks(range(len(conds)), names, fontsize=8)
    lines.set_ylim(-5, 105)
    lines.set_title(f"across mitigation strategies, per bias ({lg}, τ={t})", fontsize=9)
    lines.legend(fontsize=6, frameon=False, ncol=2)

    radar = fig.add_subplot(2, 2, 3, projection="polar")
    if biases:
        angles = np.linspace(0, 2 * np.pi, len(biases), endpoint=False).tolist()
        for i, c in enumerate(conds):
            vals = [0.0 if np.isnan(v := acc(c, b, "per_bias")) else v for b in biases]
            radar.plot([*angles, angles[0]], [*vals, vals[0]], color=cmap(i), label=names[i], linewidth=1.2)
        radar.set_xticks(angles, biases, fontsize=7)
        radar.set_ylim(0, 100)
        radar.tick_params(axis="y", labelsize=6)
        radar.legend(fontsize=6, frameon=False, loc="upper right", bbox_to_anchor=(1.35, 1.1))
    radar.set_title(f"accuracy % per bias category ({lg}, τ={t})", fontsize=9, pad=18)

    _category_bars(fig.add_subplot(2, 2, 4), cells, conds, names, f"per medical category ({lg}, τ={t})")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return png(fig)
