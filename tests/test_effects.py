"""Language effects by GEE clustered by item (``analysis.effects``) on simulated Scores with planted effects."""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd
import pytest

from xlingmed.analysis.effects import language_effects as _language_effects
from xlingmed.analysis.gaps import gap_vs_reference
from xlingmed.output import SCORE_COLUMNS
from xlingmed.tasks.registry import task_outcomes

# the registry's tasks, handed to the statistics as the report hands them (analysis imports no task)
language_effects = partial(_language_effects, tasks=task_outcomes())


def _simulate(kind: str, effects: dict[str, float], n_items: int = 300, seed: int = 0) -> pd.DataFrame:
    """Each item has its own difficulty (shared by its answers in every language, the reason to cluster) and
    three temperatures; ``effects[lang]`` shifts the logit (binary) or the value (continuous)."""
    rng = np.random.default_rng(seed)
    difficulty = rng.normal(0, 1, n_items)
    records = []
    for lang, effect in effects.items():
        for i in range(n_items):
            for t in (0.0, 0.5, 1.0):
                if kind == "binary":
                    p = 1 / (1 + np.exp(-(0.8 + difficulty[i] + effect)))
                    value = float(rng.random() < p)
                    task, metric = "multiple_choice", "correct"
                else:
                    value = 3.5 + 0.5 * difficulty[i] + effect + rng.normal(0, 0.3)
                    task, metric = "rubric", "average"
                records.append(
                    {"item_id": f"q{i}", "lang": lang, "task": task, "metric": metric, "value": value,
                     "temperature": t, "kind": kind, "higher_is_better": True}
                )  # fmt: skip
    return pd.DataFrame(records).reindex(columns=list(SCORE_COLUMNS))


def _item_means(df: pd.DataFrame) -> pd.DataFrame:
    return df.groupby(["item_id", "lang"], as_index=False)["value"].mean()


def test_planted_binary_effect_is_recovered_and_agrees_with_the_paired_gap() -> None:
    df = _simulate("binary", {"en": 0.0, "es": 0.0, "hi": -1.0})
    rows = {r["term"]: r for r in language_effects(df, ["en", "es", "hi"])}
    assert set(rows) == {"lang[es]", "lang[hi]"}
    hi, es = rows["lang[hi]"], rows["lang[es]"]
    assert (
        hi["family"] == "binomial" and hi["n_items"] == 300 and hi["n_obs"] == 3 * 300 * 3
    )  # languages × items × temperatures
    # planted −1 on the conditional logit: the population-averaged log odds ratio is attenuated but clearly negative
    assert hi["ci_high"] < 0 and -1.1 < hi["coefficient"] < -0.5
    assert es["ci_low"] < 0 < es["ci_high"]
    # and in proportions it is the paired gap of the same data
    gap = gap_vs_reference(_item_means(df), "hi", kind="continuous", n_resamples=500)
    assert hi["marginal_difference"] == pytest.approx(gap["gap"], abs=0.01)
    assert np.sign(hi["marginal_difference"]) == np.sign(gap["gap"]) == -1


def test_planted_continuous_effect_equals_the_mean_paired_difference() -> None:
    df = _simulate("continuous", {"en": 0.0, "hi": -0.2, "zh": 0.1})
    rows = {r["term"]: r for r in language_effects(df, ["en", "hi", "zh"])}
    assert rows["lang[hi]"]["family"] == "gaussian"
    assert rows["lang[hi]"]["ci_low"] < -0.2 < rows["lang[hi]"]["ci_high"]
    assert rows["lang[zh]"]["ci_low"] < 0.1 < rows["lang[zh]"]["ci_high"]
    for lang in ("hi", "zh"):  # balanced data: the GEE coefficient is the mean paired difference
        gap = gap_vs_reference(_item_means(df), lang, n_resamples=500)
        assert rows[f"lang[{lang}]"]["coefficient"] == pytest.approx(gap["gap"], abs=1e-6)


def test_model_by_language_interaction_across_two_runs() -> None:
    a = _simulate("continuous", {"en": 0.0, "hi": -0.3}, seed=1).assign(model="openai/a")
    # b closes the gap; its noise is its own (the same seed would make b = a + a constant per cell, which leaves
    # the GEE's robust covariance singular: statsmodels 0.15 returns NaN there, reported as not estimable)
    b = _simulate("continuous", {"en": 0.0, "hi": 0.0}, seed=2).assign(model="openai/b")
    rows = {r["term"]: r for r in language_effects(pd.concat([a, b]), ["en", "hi"])}
    assert set(rows) == {"model[openai/b]", "lang[hi]", "model[openai/b]:lang[hi]"}
    inter = rows["model[openai/b]:lang[hi]"]
    assert inter["ci_low"] < 0.3 < inter["ci_high"] and inter["ci_low"] > 0
    assert rows["model[openai/b]"]["ci_low"] < 0 < rows["model[openai/b]"]["ci_high"]


def test_an_outcome_without_variation_says_why() -> None:
    df = _simulate("binary", {"en": 0.0, "hi": 0.0}, n_items=5)
    df["value"] = 1.0
    (row,) = language_effects(df, ["en", "hi"])
    assert "variation" in row["error"]


def test_separation_withholds_the_numbers() -> None:
    """A language whose answers are all wrong has no finite log odds: no coefficient, and the reason."""
    df = _simulate("binary", {"en": 0.0, "es": 0.0, "ar": 0.0}, n_items=40)
    df.loc[df["lang"] == "ar", "value"] = 0.0
    rows = {r["term"]: r for r in language_effects(df, ["en", "es", "ar"])}
    assert rows["lang[ar]"]["coefficient"] is None and rows["lang[ar]"]["p"] is None
    assert rows["lang[ar]"]["error"] == "not estimable: separation (ar: every answer 0)"
    assert rows["lang[es]"]["coefficient"] is not None and "error" not in rows["lang[es]"]



def test_separation_in_english_itself_is_named_not_a_crash() -> None:
    """Every English answer wrong on a few claims (the golden LiveQA run's verifiability, issue 58): the intercept
    runs to hundreds below zero, where ``1 / (1 + exp(−x))`` overflowed and stopped the report after the run was
    written. Each term is withheld, and named."""
    cells = {"en": "0:000 0:000", "es": "0:110 0:110 1:0 1:0", "zh": "0:1010 0:1010 1:11 1:11",
             "hi": "0:11 0:11 1:1 1:1"}  # item:answers, once per temperature 0 and 1  # fmt: skip
    records = [
        {"item_id": f"q{item}", "lang": lang, "task": "verifiability", "metric": "correct", "value": float(v),
         "temperature": float(k % 2), "kind": "binary", "higher_is_better": True}
        for lang, text in cells.items() for k, cell in enumerate(text.split()) for item, values in [cell.split(":")]
        for v in values
    ]  # fmt: skip
    df = pd.DataFrame(records).reindex(columns=list(SCORE_COLUMNS))
    rows = {r["term"]: r for r in language_effects(df, ["en", "es", "zh", "hi"])}
    assert set(rows) == {"lang[es]", "lang[zh]", "lang[hi]"}
    assert rows["lang[hi]"]["error"] == "not estimable: separation (en: every answer 0, hi: every answer 1)"
    assert rows["lang[es]"]["error"] == "not estimable: separation (en: every answer 0)"
    assert all(r["coefficient"] is None and r["marginal_difference"] is None for r in rows.values())
