"""Disparity statistics checked against scipy/statsmodels called directly on fixed data."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from xlingmed.analysis import (
    anova_oneway,
    cochran_q,
    complete_items,
    friedman,
    gap_vs_reference,
    mcnemar,
    paired_pairwise,
    tukey_hsd,
    unpaired_t,
)

LANGS = ["en", "es", "zh", "hi"]


def _long(table: dict[str, list[float | None]]) -> pd.DataFrame:
    rows = [
        {"item_id": f"q{i:03d}", "lang": lang, "value": v}
        for lang, vals in table.items()
        for i, v in enumerate(vals)
        if v is not None
    ]
    return pd.DataFrame(rows)


RNG = np.random.default_rng(7)
BASE = RNG.normal(0.6, 0.2, size=30)
FIXED = _long(
    {
        "en": list(BASE),
        "es": list(BASE - 0.02 + RNG.normal(0, 0.01, 30)),
        "zh": list(BASE - 0.05 + RNG.normal(0, 0.01, 30)),
        "hi": [*list(BASE[:-2] - 0.10 + RNG.normal(0, 0.01, 28)), None, None],  # 2 items missing in Hindi
    }
)


def test_listwise_deletion_counts() -> None:
    wide, counts = complete_items(FIXED, LANGS)
    assert len(wide) == 28 and counts["n_items"] == 28
    assert counts["excluded_missing_in_hi"] == 2 and counts["excluded_missing_in_en"] == 0


def test_paper_tests_equal_statsmodels_and_scipy() -> None:
    import statsmodels.api as sm
    from statsmodels.formula.api import ols
    from statsmodels.stats.multicomp import pairwise_tukeyhsd

    wide, _ = complete_items(FIXED, LANGS)
    long = wide.reset_index().melt(id_vars="item_id", var_name="lang", value_name="value")
    direct = sm.stats.anova_lm(ols("value ~ C(lang)", data=long).fit(), typ=2)
    ours = anova_oneway(FIXED, LANGS)
    assert ours["F"] == pytest.approx(direct.loc["C(lang)", "F"], rel=1e-12)
    assert ours["p"] == pytest.approx(direct.loc["C(lang)", "PR(>F)"], rel=1e-12)
    assert (ours["df_between"], ours["df_within"], ours["n_items"]) == (3, 108, 28)
    # one-way ANOVA is also scipy's f_oneway
    assert ours["F"] == pytest.approx(stats.f_oneway(*(wide[lang] for lang in LANGS)).statistic, rel=1e-9)

    tk = pairwise_tukeyhsd(long["value"], long["lang"], alpha=0.05)
    rows = tukey_hsd(FIXED, LANGS)
    assert [(r["group1"], r["group2"]) for r in rows] == [
        ("en", "es"),
        ("en", "hi"),
        ("en", "zh"),
        ("es", "hi"),
        ("es", "zh"),
        ("hi", "zh"),
    ]
    for r, diff, p, ci in zip(rows, tk.meandiffs, tk.pvalues, tk.confint, strict=True):
        assert r["meandiff"] == pytest.approx(diff) and r["p_adj"] == pytest.approx(p)
        assert (r["lower"], r["upper"]) == pytest.approx(tuple(ci))
    en_hi = rows[1]
    assert en_hi["meandiff"] == pytest.approx(wide["hi"].mean() - wide["en"].mean())

    for r in unpaired_t(FIXED, LANGS):
        direct_t = stats.ttest_ind(wide[r["lang_a"]], wide[r["lang_b"]], equal_var=True)
        assert r["t"] == pytest.approx(direct_t.statistic) and r["p"] == pytest.approx(direct_t.pvalue)


def test_paired_and_unpaired_disagree_when_items_vary_more_than_languages() -> None:
    # Questions differ a lot (sd 0.2); Hindi is lower by a small, consistent 0.03 on every question.
    en = BASE
    hi = BASE - 0.03 + RNG.normal(0, 0.005, 30)
    values = _long({"en": list(en), "hi": list(hi)})
    unpaired = unpaired_t(values, ["en", "hi"])[0]
    paired = paired_pairwise(values, ["en", "hi"], reference="en")[0]
    assert unpaired["p"] > 0.05  # the unpaired test sees no difference ...
    assert paired["p_t"] < 1e-10  # ... the paired one is certain
    direct = stats.ttest_rel(hi, en)
    assert paired["t"] == pytest.approx(direct.statistic) and paired["p_t"] == pytest.approx(direct.pvalue)
    assert paired["p_wilcoxon"] == pytest.approx(stats.wilcoxon(hi, en).pvalue)
    assert paired["mean_diff"] == pytest.approx(float(np.mean(hi - en)))


def test_holm_correction_across_pairs() -> None:
    from statsmodels.stats.multitest import multipletests

    rows = paired_pairwise(FIXED, LANGS)
    assert len(rows) == 6
    expected = multipletests([r["p_t"] for r in rows], method="holm")[1]
    assert [r["p_t_holm"] for r in rows] == pytest.approx(list(expected))
    en_hi = next(r for r in rows if (r["lang_a"], r["lang_b"]) == ("en", "hi"))
    assert en_hi["n_items"] == 28 and en_hi["excluded_missing_b"] == 2


@pytest.mark.parametrize("seed", range(5))
def test_holm_equals_statsmodels_with_ties_and_extremes(seed: int) -> None:
    from statsmodels.stats.multitest import multipletests

    from xlingmed.analysis.paired import holm

    rng = np.random.default_rng(seed)
    p = np.concatenate([rng.uniform(0, 1, 7), rng.uniform(0, 0.01, 3), [0.0, 1.0, 0.03, 0.03]])
    rng.shuffle(p)
    assert holm(p) == pytest.approx(multipletests(p, method="holm")[1], abs=1e-15)
    assert holm([0.2]).tolist() == [0.2]


def test_mcnemar_and_cochran_equal_statsmodels() -> None:
    from statsmodels.stats.contingency_tables import cochrans_q
    from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

    en = np.array([1] * 40 + [0] * 10 + [1] * 8 + [0] * 2)
    hi = np.array([1] * 40 + [0] * 10 + [0] * 8 + [1] * 2)
    res = mcnemar(en, hi)
    assert (res["a_only"], res["b_only"], res["exact"]) == (8, 2, True)
    direct = sm_mcnemar(np.array([[40, 8], [2, 10]]), exact=True)
    assert res["p"] == pytest.approx(direct.pvalue)
    assert res["p"] == pytest.approx(stats.binomtest(2, 10, 0.5).pvalue)  # exact McNemar = binomial on discordant
    values = _long({"en": list(en), "hi": list(hi), "zh": list(np.roll(hi, 3))})
    row = paired_pairwise(values, ["en", "hi", "zh"], kind="binary", reference="en")[0]
    assert row["p_mcnemar"] == pytest.approx(direct.pvalue) and row["mean_diff"] == pytest.approx(-0.1)
    q = cochran_q(values, ["en", "hi", "zh"])
    direct_q = cochrans_q(np.column_stack([en, hi, np.roll(hi, 3)]))
    assert q["statistic"] == pytest.approx(direct_q.statistic) and q["p"] == pytest.approx(direct_q.pvalue)


def test_friedman_equals_scipy() -> None:
    wide, _ = complete_items(FIXED, LANGS)
    res = friedman(FIXED, LANGS)
    direct = stats.friedmanchisquare(*(wide[lang] for lang in LANGS))
    assert res["statistic"] == pytest.approx(direct.statistic) and res["p"] == pytest.approx(direct.pvalue)
    assert res["n_items"] == 28


def test_bootstrap_gap_and_effect_size() -> None:
    gap = gap_vs_reference(FIXED, "hi", "en", n_resamples=2000, seed=1)
    pv_en = BASE[:28]
    hi = FIXED[FIXED.lang == "hi"]["value"].to_numpy()
    d = hi - pv_en
    assert gap["n_items"] == 28 and gap["excluded_missing_lang"] == 2
    assert gap["gap"] == pytest.approx(d.mean())
    assert gap["ci_low"] < gap["gap"] < gap["ci_high"] < 0  # Hindi is clearly worse
    direct = stats.bootstrap(
        (pv_en, hi),
        lambda a, b, axis=-1: np.mean(b - a, axis=axis),
        paired=True,
        vectorized=True,
        n_resamples=2000,
        method="percentile",
        rng=np.random.default_rng(1),
    )
    assert (gap["ci_low"], gap["ci_high"]) == pytest.approx(
        (direct.confidence_interval.low, direct.confidence_interval.high)
    )
    assert gap["effect_size"] == pytest.approx(d.mean() / d.std(ddof=1))
    assert gap["gap_pct"] == pytest.approx(d.mean() / pv_en.mean() * 100)
    # binary: Cohen's h
    en = _long({"en": [1, 1, 1, 0], "es": [1, 0, 0, 0]})
    b = gap_vs_reference(en, "es", kind="binary", n_resamples=500)
    assert b["gap"] == pytest.approx(-0.5)
    assert b["effect_size"] == pytest.approx(2 * math.asin(math.sqrt(0.25)) - 2 * math.asin(math.sqrt(0.75)))


def test_bad_tables_are_rejected() -> None:
    with pytest.raises(ValueError, match="lacks column"):
        anova_oneway(pd.DataFrame({"item_id": ["q1"], "lang": ["en"]}), ["en"])
    dup = pd.DataFrame({"item_id": ["q1", "q1"], "lang": ["en", "en"], "value": [1.0, 2.0]})
    with pytest.raises(ValueError, match="repeats item 'q1' in language 'en'"):
        anova_oneway(dup, ["en"])


def test_analyse_run_reads_every_task_table(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from xlingmed.analysis.run import analyse_run, metric_values
    from xlingmed.tasks.registry import task_outcomes

    langs = ["en", "hi"]
    items = [f"liveqa-{i:04d}" for i in range(12)]
    corr = pd.DataFrame(
        [
            {"item_id": it, "lang": lang, "label": ("contradictory" if (lang == "hi" and i % 3 == 0) else "neither")}
            for i, it in enumerate(items)
            for lang in langs
        ]
        + [{"item_id": "liveqa-0099", "lang": "en", "label": None}]  # a failed request: no label, excluded
    )
    corr.to_csv(tmp_path / "correctness.csv", index=False)
    ver = pd.DataFrame(
        [
            {
                "item_id": it,
                "lang": lang,
                "temperature": 0.0,
                "candidate_index": c,
                "label": int(c == 0),
                "prediction": (int(c == 0) if lang == "en" or i % 2 else -1),
            }
            for i, it in enumerate(items)
            for lang in langs
            for c in range(2)
        ]
    )
    ver.to_csv(tmp_path / "verifiability.csv", index=False)
    cons = pd.DataFrame(
        [
            {
                "item_id": it,
                "lang": lang,
                "temperature": t,
                "mode": "paper",
                "skipped": "",
                "sim_1gram": BASE[i] - (0.1 if lang == "hi" else 0.0) + 0.01 * (i % 3),
                "sim_lda20_sd": 0.1,
            }
            for i, it in enumerate(items)
            for lang in langs
            for t in (0.0, 1.0)
        ]
    )
    cons.to_csv(tmp_path / "consistency.csv", index=False)

    found = {(m.criterion, m.metric, m.temperature) for m in metric_values(tmp_path, task_outcomes())}
    assert found == {
        ("correctness", "more_comprehensive", None),
        ("correctness", "contradictory", None),
        ("correctness", "less_comprehensive", None),
        ("verifiability", "correct", 0.0),
        ("consistency", "sim_1gram", 0.0),
        ("consistency", "sim_1gram", 1.0),
        ("consistency", "sim_1gram", None),
    }
    tables = analyse_run(tmp_path, langs, tasks=task_outcomes(), n_resamples=500)
    contra = next(r for r in tables["paired"] if r["metric"] == "contradictory")
    assert (contra["n_items"], contra["a_only"], contra["b_only"]) == (12, 0, 4)
    ver_gap = next(r for r in tables["gaps"] if r["criterion"] == "verifiability")
    # Hindi claims of even items were unparsed: those claims are excluded, not counted as wrong
    assert ver_gap["n_items"] == 12 and ver_gap["excluded_missing_lang"] == 12 and ver_gap["gap"] == 0.0
    sim = next(r for r in tables["gaps"] if r["metric"] == "sim_1gram" and r["temperature"] == 1.0)
    assert sim["gap"] == pytest.approx(-0.1) and sim["n_items"] == 12
    assert {r["metric"] for r in tables["paper_anova"]} == {"sim_1gram"}  # paper tests: continuous metrics only
    assert all(r["test"] == "cochran_q" for r in tables["omnibus"] if r["criterion"] != "consistency")


def test_the_papers_headline_numbers_from_its_table_1() -> None:
    from xlingmed.analysis.paper import headline_numbers

    labels = ("more", "less", "neither", "contradictory")
    table1 = {  # XLingEval Table 1 (GPT-3.5), columns en, es, zh, hi
        "healthqa": [(1013, 891, 878, 575), (98, 175, 185, 402), (20, 63, 57, 110), (3, 5, 14, 47)],
        "liveqa": [(226, 213, 212, 142), (3, 12, 16, 59), (14, 20, 14, 32), (3, 1, 4, 13)],
        "medicationqa": [(618, 547, 509, 407), (18, 50, 41, 125), (49, 70, 92, 107), (5, 23, 48, 51)],
    }
    counts = {
        ds: {lang: {lab: rows[i][j] for i, lab in enumerate(labels)} for j, lang in enumerate(("en", "es", "zh", "hi"))}
        for ds, rows in table1.items()
    }
    h = headline_numbers(counts)
    assert round(h["fewer_comprehensive_pp"], 2) == 18.12
    assert round(h["times_more_contradictory"], 2) == 5.82
    per = h["per_dataset"]
    assert [round(per[d]["fewer_comprehensive_pp"], 2) for d in table1] == [20.43, 15.04, 18.89]
    assert [round(per[d]["times_more_contradictory"], 2) for d in table1] == [7.33, 2.0, 8.13]
    print(f"headline: {h['fewer_comprehensive_pp']:.2f} % fewer comprehensive, "
          f"{h['times_more_contradictory']:.2f}x more contradictory")  # fmt: skip
    assert per["liveqa"]["contradictory_reference"] == 3 and per["liveqa"]["contradictory_others_mean"] == 6.0

    # a dataset without a contradictory English answer is left out of the × mean, and says so
    counts["liveqa"]["en"]["contradictory"] = 0
    h = headline_numbers(counts)
    assert h["used"] == {"fewer_comprehensive_pp": ["healthqa", "liveqa", "medicationqa"],
                         "times_more_contradictory": ["healthqa", "medicationqa"]}  # fmt: skip
    why = "no contradictory answer in en: the ratio is undefined"
    assert h["dropped"]["times_more_contradictory"] == {"liveqa": why}
    assert round(h["times_more_contradictory"], 2) == round((7.33333 + 8.13333) / 2, 2)
    from xlingmed.analysis.paper import headline_rows

    rows = headline_rows(h)
    assert [r["row"] for r in rows] == ["dataset"] * 3 + ["mean"] * 2
    assert rows[-1]["dataset"] == "healthqa,medicationqa" and rows[-1]["dropped"].startswith("liveqa: no contradictory")


def test_consistency_boxes_use_the_complete_item_set_of_the_tests() -> None:
    from xlingmed.tasks.consistency.figures import box_data, consistency_boxes

    rows = pd.DataFrame(
        [
            {
                "item_id": f"q{i}",
                "lang": lang,
                "temperature": t,
                "bertscore_f1": None if (i, lang, t) == (1, "hi", 0.0) else 0.5 + i / 10,
            }
            for i in range(4)
            for lang in ("en", "hi")
            for t in (0.0, 1.0)
        ]
    )
    at0, at1 = box_data(rows, "bertscore_f1", ["en", "hi"], [0.0, 1.0])
    # q1 has no Hindi value at τ=0: it leaves the English box too, as it leaves the paired tests
    assert list(at0.index) == ["q0", "q2", "q3"] and list(at1.index) == ["q0", "q1", "q2", "q3"]
    assert consistency_boxes(rows, {"bertscore_f1": "BERTScore"}, ["en", "hi"], "t").startswith(b"\x89PNG")


def test_outcomes_per_language_from_the_scores() -> None:
    from xlingmed.analysis.overview import by_language
    from xlingmed.types import Score

    scores = [
        Score("q1", "en", "verifiability", "correct", 1.0, 0.0, unit="c0", kind="binary"),
        Score("q1", "en", "verifiability", "correct", 0.0, 0.0, unit="c1", kind="binary"),
        Score("q1", "hi", "verifiability", "correct", 1.0, 0.0, unit="c0", kind="binary"),
        Score("q1", "hi", "verifiability", "correct", None, 0.0, unit="c1", kind="binary", parse_method="unparsed"),
        Score("q1", "hi", "multiple_choice", "correct", 0.0, 0.2, condition="biased|recency", kind="binary"),
    ]
    rows = by_language(pd.DataFrame([s.to_json() for s in scores]), ["en", "hi"])
    assert rows == [
        {"task": "verifiability", "metric": "correct", "τ": "0", "en": "0.5000 (2)", "hi": "1.0000 (1) +1 not scored"},
        {"task": "multiple_choice", "metric": "correct[biased|recency]", "τ": "0.2", "en": "–", "hi": "0.0000 (1)"},
    ]


def test_anova_without_variance_reports_no_f_rather_than_rounding_noise() -> None:
    """Constant values (consistency's similarities all 1): OLS's residuals are rounding noise and F their ratio to
    other noise, which the BLAS kernels decided (0.89, 0.62 or 1.53 for the same run, issue 58). None, not a guess;
    and F = inf, p = 0 where each language is constant but they differ (scipy's f_oneway convention)."""
    ones = pd.DataFrame({"item_id": ["q1", "q2", "q3"] * 4, "lang": [lg for lg in LANGS for _ in range(3)],
                         "value": [1.0] * 12})  # fmt: skip
    flat = anova_oneway(ones, LANGS)
    assert (flat["F"], flat["p"], flat["df_between"], flat["df_within"], flat["n_items"]) == (None, None, 3, 8, 3)
    steps = ones.assign(value=[0.9 if lg == "hi" else 1.0 for lg in ones["lang"]])
    apart = anova_oneway(steps, LANGS)
    assert (apart["F"], apart["p"]) == (math.inf, 0.0)
    assert stats.f_oneway(*(steps[steps["lang"] == lg]["value"] for lg in LANGS)).statistic == math.inf
