"""Issue 62: a judge-corrected verdict is one typed record, corrected in every column, and never decided on an
interval of no width.

The held-out scenario of the issue: 700 paired questions in English, Spanish and Chinese; a judge exact in English
and Chinese and too strict in Spanish (it calls 15 % of Spanish's fine answers "contradictory"); human labels equal
to the truth on a paired sample. Every figure of a corrected row is checked against ``ppi_py`` itself (its own λ,
its own interval, its point estimates), the p-values against the normal and Holm of statsmodels, and the judge's
own figures against the judge-only verdict they were."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from xlingmed.analysis.corrected_verdicts import HumanLabels
from xlingmed.analysis.verdict_record import PAIRED_BOOTSTRAP, PPI, PPI_SMALL, Verdict, VerdictOptions, as_verdicts
from xlingmed.analysis.verdicts import INCONCLUSIVE, INFERIOR, NONINFERIOR
from xlingmed.report.compare import forest_rows
from xlingmed.report.verdicts import section
from xlingmed.report.view_records import VerdictSection
from xlingmed.views.base import cell

N, ALPHA, MARGIN = 700, 0.05, 0.05


def _world(seed: int = 62) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Language → (human, judge) "contradictory" per question (the bench's ``strict-es`` world)."""
    rng = np.random.default_rng(seed)
    u = rng.random(N)
    out = {"en": ((u < 0.13).astype(float),) * 2}
    for lang in ("es", "zh"):
        own = np.where(rng.random(N) < 0.6, u, rng.random(N))
        human = (own < 0.135).astype(float)
        judge = np.where((human == 0) & (rng.random(N) < 0.15), 1.0, human) if lang == "es" else human
        out[lang] = (human, judge.copy())
    return out


def _scores(world: dict[str, tuple[np.ndarray, np.ndarray]]) -> pd.DataFrame:
    return pd.DataFrame([
        {"item_id": f"q{i:04d}", "lang": lang, "task": "correctness", "metric": "contradictory",
         "value": float(judge[i]), "condition": None, "higher_is_better": False, "temperature": 0.0,
         "kind": "binary"}
        for lang, (_, judge) in world.items() for i in range(N)
    ])  # fmt: skip


def _humans(world: dict[str, tuple[np.ndarray, np.ndarray]], labelled: list[int]) -> dict[str, HumanLabels]:
    humans = HumanLabels("correctness", paired=True)
    for lang, (human, _) in world.items():
        humans.values[lang] = {f"q{i:04d}": float(human[i]) for i in labelled}
        humans.weights[lang] = {f"q{i:04d}": 1.0 for i in labelled}
    return {"correctness": humans}


def _section(world: dict[str, tuple[np.ndarray, np.ndarray]], labelled: list[int] | None) -> VerdictSection:
    return section(_scores(world), {"model": "m", "benchmark": "b"}, ["en", "es", "zh"], {},
                   options=VerdictOptions(alpha=ALPHA, n_resamples=2000),
                   humans=None if labelled is None else _humans(world, labelled))  # fmt: skip


def _ppi(world: dict[str, tuple[np.ndarray, np.ndarray]], lang: str, labelled: list[int]) -> dict[str, float]:
    """What ppi_py says of ``lang``'s gap to English (lower is better: English − lang), by its own λ."""
    from ppi_py import ppi_mean_ci, ppi_mean_pointestimate
    from ppi_py.ppi import _calc_lam_glm
    from scipy.stats import norm

    (h, j), (h_en, j_en) = world[lang], world["en"]
    d, dhat, du = -(h[labelled] - h_en[labelled]), -(j[labelled] - j_en[labelled]), -(j - j_en)
    point = ppi_mean_pointestimate(d, dhat, du, lam=1)
    lam = float(_calc_lam_glm((d - point)[:, None], (dhat - point)[:, None], (du - point)[:, None], np.eye(1),
                              clip=True))  # fmt: skip
    lo, hi = (float(b[0]) for b in ppi_mean_ci(d, dhat, du, alpha=2 * ALPHA))  # ppi_py chooses λ itself
    value = float(ppi_mean_pointestimate(d, dhat, du, lam=lam)[0])
    se = (hi - lo) / (2 * norm.ppf(1 - ALPHA))
    return {
        "difference": value, "lower": lo, "upper": hi, "p_noninferior": float(norm.sf((value + MARGIN) / se)),
        "p_inferior": float(norm.cdf((value + MARGIN) / se)),
        "value_lang": float(ppi_mean_pointestimate(h[labelled], j[labelled], j, lam=lam)[0]),
        "value_reference": float(ppi_mean_pointestimate(h_en[labelled], j_en[labelled], j_en, lam=lam)[0]),
    }  # fmt: skip


def test_the_held_out_scenario_corrected_in_every_column_and_equal_to_ppi_py() -> None:
    from statsmodels.stats.multitest import multipletests

    world = _world()
    labelled = sorted(int(i) for i in np.random.default_rng(7).choice(N, 300, replace=False))
    judged = {v.lang: v for v in _section(world, None).raw}
    done = _section(world, labelled)
    records: list[Verdict] = done.raw
    got = {v.lang: v for v in records}
    assert all(isinstance(v, Verdict) for v in records)
    es, zh = got["es"], got["zh"]
    # the judge alone finds Spanish inferior (its strictness); the humans' labels overturn it
    assert judged["es"].verdict == INFERIOR and judged["es"].method == PAIRED_BOOTSTRAP
    assert es.verdict == NONINFERIOR and es.judge_corrected and es.human_labels == 300
    assert es.method == PPI and zh.method == PPI, (es.reason, zh.reason)
    expected = {lang: _ppi(world, lang, labelled) for lang in ("es", "zh")}
    holm = {k: multipletests([expected["es"][k], expected["zh"][k]], method="holm")[1] for k in
            ("p_noninferior", "p_inferior")}  # fmt: skip
    for k, lang in enumerate(("es", "zh")):
        v = got[lang]
        for key, value in expected[lang].items():
            assert v[key] == pytest.approx(value, rel=1e-9, abs=1e-12), (lang, key)
        assert v.p_noninferior_holm == pytest.approx(holm["p_noninferior"][k], rel=1e-6, abs=1e-12)
        assert v.p_inferior_holm == pytest.approx(holm["p_inferior"][k], rel=1e-6, abs=1e-12)
        # the languages' values differ by the gap (lower is better: reference − language)
        assert v.value_reference - v.value_lang == pytest.approx(v.difference, abs=1e-12)
        assert v.upper > v.lower  # never a verdict on an interval of no width
        # the judge's own figures are kept, every one, under judge_only_*
        for key in ("verdict", "difference", "lower", "upper", "value_lang", "value_reference", "p_noninferior_holm",
                    "p_inferior_holm", "method"):  # fmt: skip
            assert v.judge_only[key] == judged[lang][key], (lang, key)
    # the misreading: the corrected row's p-values are the corrected ones, not the judge's
    assert es.p_noninferior_holm < ALPHA and es.judge_only["p_noninferior_holm"] > 0.5
    assert es.value_lang == pytest.approx(expected["es"]["value_lang"]) != judged["es"].value_lang
    # the CSV row, the HTML table, the paragraph, the footnotes and the model comparison: all the record's
    row = es.row()
    assert list(row)[:3] == ["task", "outcome", "metric"] and row["judge_only_p_noninferior_holm"] > 0.5
    assert Verdict.from_row(row).row() == row
    (html,) = [r for r in done.rows if r.cells[1] == "es"]
    assert html.cells[6:9] == [cell(es.value_reference), cell(es.value_lang), cell(es.difference)]
    assert "Spanish: non-inferior on contradictory‡." in done.paragraph
    notes = " ".join(done.footnotes)
    assert "items resampled" not in notes and "prediction-powered (PPI++)" in notes
    assert "(prediction-powered (PPI++); judge alone: inferior)" in notes
    forest = forest_rows({"m": records}).set_index("lang")
    assert forest.loc["es", "effect"] == pytest.approx(100 * es.difference)
    assert forest.loc["es", "low"] == pytest.approx(100 * es.lower) and forest.loc["es", "method"] == PPI


def test_no_verdict_on_an_interval_of_no_width() -> None:
    """14 labelled questions none of which differs between Spanish and English: PPI++'s λ goes to 0 and ppi_py's
    bounds are [0, 0]. The verdict is drawn on the small-sample interval instead: inconclusive, why, and how many
    labels would decide it."""
    world = _world()
    (h_es, j_es), (h_en, _) = world["es"], world["en"]
    alike = [i for i in range(N) if h_es[i] == h_en[i]]
    strict = [i for i in alike if j_es[i] != h_es[i]][:3]  # the judge's strictness among them
    labelled = sorted(strict + [i for i in alike if i not in strict][:11])
    got = {v.lang: v for v in _section(world, labelled).raw}
    es = got["es"]
    assert es.human_labels == 14 and es.method == PPI_SMALL
    assert es.verdict == INCONCLUSIVE and es.upper - es.lower > 0.2
    assert "only 0 of 14 labels tell the judge's error (PPI's [+0, +0] has no width)" in es.reason
    assert es.labels_needed is not None and es.labels_needed > 14
    assert es.judge_only["verdict"] == INFERIOR


def test_a_verdicts_csv_of_0_1_is_read_as_records() -> None:
    """The columns 0.1 wrote (no method, the judge's p-values beside a corrected verdict) stay readable: the
    record names the method from the row's kind."""
    old = {"task": "correctness", "outcome": "contradictory", "metric": "contradictory", "lang": "es",
           "verdict": NONINFERIOR, "difference": 0.0039, "lower": -0.02, "upper": 0.03, "judge_corrected": True,
           "human_labels": 40, "judge_only_verdict": INFERIOR, "design": "paired", "margin": 0.05}  # fmt: skip
    (v,) = as_verdicts([old])
    assert v.method == PPI and v.judge_only == {"verdict": INFERIOR} and v.human_labels == 40
    plain = as_verdicts([{**old, "judge_corrected": False, "design": "unpaired"}])[0]
    assert plain.method == "unpaired bootstrap" and not math.isnan(plain.difference or math.nan)
