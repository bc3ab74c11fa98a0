"""Reshaping per-item values for the tests: which items every test can use, and why the others are out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd


def _wide(values: pd.DataFrame, languages: Sequence[str]) -> pd.DataFrame:
    """item_id × lang table of ``value`` (NaN where a language has no value for an item).

    Raises:
        ValueError: ``values`` lacks one of the columns item_id, lang, value, or repeats an (item_id, lang).
    """
    missing = {"item_id", "lang", "value"} - set(values.columns)
    if missing:
        raise ValueError(f"values table lacks column(s) {sorted(missing)}")
    dup = values.duplicated(["item_id", "lang"])
    if dup.any():
        first = values[dup].iloc[0]
        raise ValueError(f"values table repeats item {first['item_id']!r} in language {first['lang']!r}")
    wide = values.pivot(index="item_id", columns="lang", values="value").astype(float)
    return wide.reindex(columns=list(languages))


def complete_items(values: pd.DataFrame, languages: Sequence[str]) -> tuple[pd.DataFrame, dict[str, int]]:
    """Listwise deletion: the items with a value in every language (as the authors' box plots and tests).

    Returns:
        (wide table item_id × languages without NaN, {"n_items": kept, "excluded_missing_in_<lang>": count}).
        An item missing in several languages is counted under each.
    """
    wide = _wide(values, languages)
    excluded = {f"excluded_missing_in_{lang}": int(wide[lang].isna().sum()) for lang in languages}
    kept = wide.dropna()
    return kept, {"n_items": len(kept), **excluded}


@dataclass(frozen=True)
class Paired:
    """Values of the items present in both languages, aligned by item: ``a[i]`` and ``b[i]`` are one item."""

    a: np.ndarray
    b: np.ndarray
    items: tuple[str, ...]
    excluded_missing_a: int
    excluded_missing_b: int

    @property
    def n(self) -> int:
        return len(self.items)


def paired_values(values: pd.DataFrame, lang_a: str, lang_b: str) -> Paired:
    """The items with a value in both ``lang_a`` and ``lang_b`` (pairwise deletion), aligned by item_id."""
    wide = _wide(values, [lang_a, lang_b])
    both = wide.dropna()
    return Paired(
        a=both[lang_a].to_numpy(dtype=float),
        b=both[lang_b].to_numpy(dtype=float),
        items=tuple(str(i) for i in both.index),
        excluded_missing_a=int((wide[lang_a].isna() & wide[lang_b].notna()).sum()),
        excluded_missing_b=int((wide[lang_b].isna() & wide[lang_a].notna()).sum()),
    )


def paired_differences(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``b − a`` with float noise set to 0: float32 encoders give 0.99999994 vs 1.0000001 for identical texts, which
    is no difference, yet would show as a sizeable effect or a p-value over a near-zero spread."""
    d = b - a
    return np.where(np.abs(d) <= 1e-6 * np.maximum(1.0, np.maximum(np.abs(a), np.abs(b))), 0.0, d)
