"""Issue 50: judge-corrected estimates and verdicts (prediction-powered inference, ``ppi-python``).

The estimator is ``ppi-python``'s; these tests check that xlingmed's λ is the one ``ppi-python`` would choose, that
its intervals are ``ppi-python``'s, and that a judge lenient in one language gives a judge-only verdict the human
labels overturn: non-inferior as judged, inferior once corrected, with the labels used and the judge's bias."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from xlingmed.analysis import judge_corrected as jc
from xlingmed.analysis.corrected_verdicts import HumanLabels, apply, corrected_rows, label_value
from xlingmed.analysis.verdict_record import VerdictOptions
from xlingmed.analysis.verdicts import INFERIOR, NONINFERIOR, noninferiority
from xlingmed.tasks.registry import task_outcomes


@pytest.mark.parametrize("weighted", [False, True])
def test_lambda_and_interval_are_ppi_pythons(weighted: bool) -> None:
    from ppi_py import ppi_mean_ci
    from ppi_py.ppi import _calc_lam_glm

    rng = np.random.default_rng(3)
    y = rng.binomial(1, 0.3, 80).astype(float)
    yhat = np.where(rng.random(80) < 0.85, y, 1 - y)
    unlabelled = rng.binomial(1, 0.35, 900).astype(float)
    w = rng.uniform(0.5, 3, 80) if weighted else None
    ww = jc._weights(w, 80)
    point = unlabelled.mean() + (ww * (y - yhat)).mean()
    theirs = _calc_lam_glm((ww * (y - point))[:, None], (ww * (yhat - point))[:, None], (unlabelled - point)[:, None],
                           np.eye(1), clip=True)  # fmt: skip
    assert jc.power_tuning(y, yhat, unlabelled, w) == pytest.approx(float(theirs), rel=1e-12)
    est = jc.corrected(y, yhat, unlabelled, w, alpha=0.05)
    lo, hi = ppi_mean_ci(y, yhat, unlabelled, alpha=0.10, w=w)  # λ chosen by ppi-python itself
    assert (est.lower, est.upper) == pytest.approx((float(lo[0]), float(hi[0])), rel=1e-9)
    # the interval's variance is the sum of its two terms (what labels_needed plans with)
    assert est.se**2 == pytest.approx(est.rectifier_var / 80 + est.imputed_var / 900, rel=1e-9)


def _lenient_in_hindi(seed: int, n_items: int = 600, n_labels: int = 150) -> tuple[pd.DataFrame, HumanLabels]:
    """Humans: 10 % contradictory in English, 25 % in Hindi (a 15-point gap); the judge is exact in English and
    calls 60 % of Hindi's contradictory answers something else, so it sees about 10 % in both."""
    rng = np.random.default_rng(seed)
    ids = [f"q{i:04d}" for i in range(n_items)]
    truth = {"en": rng.random(n_items) < 0.10, "hi": rng.random(n_items) < 0.25}
    judged = {"en": truth["en"].copy(), "hi": truth["hi"] & (rng.random(n_items) >= 0.60)}
    rows = [
        {"item_id": i, "lang": lg, "task": "correctness", "metric": "contradictory", "value": float(judged[lg][k]),
         "condition": None, "higher_is_better": False, "temperature": 0.0}
        for lg in ("en", "hi") for k, i in enumerate(ids)
    ]  # fmt: skip
    labelled = sorted(rng.choice(n_items, n_labels, replace=False))  # the same items in both languages: paired
    humans = HumanLabels("correctness", paired=True)
    for lg in ("en", "hi"):
        humans.values[lg] = {ids[k]: float(truth[lg][k]) for k in labelled}
        humans.weights[lg] = {ids[k]: 1.0 for k in labelled}
    return pd.DataFrame(rows), humans


def test_a_judge_lenient_in_hindi_is_overturned_by_human_labels() -> None:
    scores, humans = _lenient_in_hindi(seed=11)
    tasks = task_outcomes()
    judged = noninferiority(scores, ["en", "hi"], tasks=tasks,
                            options=VerdictOptions(n_resamples=2000, parse_limits=False))
    (row,) = [r for r in judged if r["outcome"] == "contradictory"]
    assert row["verdict"] == NONINFERIOR  # the judge sees no gap
    (fixed,) = corrected_rows(scores, {"correctness": humans}, ["en", "hi"], tasks=tasks)
    print({k: v for k, v in fixed.items() if not isinstance(v, float) or abs(v) < 10})
    assert fixed["verdict"] == INFERIOR and fixed["design_labels"] == "paired"
    assert fixed["human_labels"] == 150 and fixed["corrected_upper"] < -0.05
    assert fixed["judge_difference"] > -0.05  # judge-only: within the margin
    assert fixed["bias_lang"] < -0.08 and fixed["bias_lang_upper"] < 0  # lenient in Hindi: judge − human < 0
    assert fixed["bias_reference"] == pytest.approx(0.0)  # exact in English
    # the corrected interval is narrower than the human-only one: the judge agrees with humans beyond chance
    assert fixed["corrected_upper"] - fixed["corrected_lower"] < fixed["human_upper"] - fixed["human_lower"]
    (merged,) = [r for r in apply(judged, [fixed]) if r["outcome"] == "contradictory"]
    assert merged["verdict"] == INFERIOR and merged["judge_only_verdict"] == NONINFERIOR
    assert merged["judge_corrected"] is True and merged["human_labels"] == 150
    assert merged["reason"].startswith("judge-corrected (150 human labels)")


def test_labels_needed_when_the_corrected_gap_is_inconclusive() -> None:
    scores, humans = _lenient_in_hindi(seed=5, n_labels=25)
    (fixed,) = corrected_rows(scores, {"correctness": humans}, ["en", "hi"], tasks=task_outcomes(), margins=None)
    if fixed["verdict"] == "inconclusive":
        assert fixed["labels_needed"] is not None and fixed["labels_needed"] > 25
    # a scripted estimate: Δ = −0.04 ± 0.03 against δ = 0.05 needs more labels, and nearer the margin far more
    est = jc.Estimate(-0.04, -0.09, 0.01, 0.03, 50, 50_000, rectifier_var=0.045, imputed_var=0.001)
    near = jc.Estimate(-0.045, -0.1, 0.0, 0.03, 50, 50_000, rectifier_var=0.045, imputed_var=0.001)
    assert 50 < jc.labels_needed(est, 0.05, 0.05) < jc.labels_needed(near, 0.05, 0.05)
    # more labels than there are items: more items are needed, not labels
    assert jc.labels_needed(jc.Estimate(-0.045, -0.1, 0.0, 0.03, 50, 1000, 0.045, 0.001), 0.05, 0.05) is None
    # the judge's own term too wide: no number of labels decides it
    assert jc.labels_needed(jc.Estimate(-0.049, -0.1, 0.0, 0.03, 50, 60, 0.045, 0.2), 0.05, 0.05) is None


def test_a_human_label_is_scored_as_the_task_scores_the_judges() -> None:
    value_of = label_value(task_outcomes())
    item = {"item_id": "q1", "lang": "hi", "label": "similar"}
    assert value_of("correctness", item, "contradictory") == 1.0
    assert value_of("correctness", item, "more") == 0.0
    assert value_of("no_such_task", item, "more") is None
    # safety's label is its rows' harm severity: moderate or severe is harm
    assert value_of("safety", {"item_id": "q1", "lang": "hi"}, "severe", "harm") == 1.0
    assert value_of("safety", {"item_id": "q1", "lang": "hi"}, "none", "harm") == 0.0
    # the rubric's label is the judge's mean score rounded to 1–5: a human's is taken on that scale
    assert value_of("rubric", {"item_id": "q1", "lang": "ar"}, "4") == 4.0
    assert value_of("healthbench", {"item_id": "q1", "lang": "ar"}, "met") is None  # per criterion, not the score


def test_the_verdict_paragraph_of_four_languages_and_two_outcomes_is_short() -> None:
    """Issue 50: one short sentence per language; each caveat a mark, explained once in a footnote line."""
    from xlingmed.report.verdicts import footnotes, paragraph

    def row(lang: str, outcome: str, verdict: str, **extra: object) -> dict[str, object]:
        base = {"lang": lang, "outcome": outcome, "verdict": verdict, "margin": 0.05, "unit": "proportion",
                "difference": -0.12, "n_items": 60, "n_items_needed": 240, "design": "paired", "reference": "en",
                "judge_verified": None}  # fmt: skip
        return {**base, **extra}

    rows = [
        row("es", "contradictory", NONINFERIOR, judge_verified=False, judge_kappa=0.41, judge_items=30),
        row("es", "accuracy", NONINFERIOR),
        row("zh", "contradictory", "inconclusive", judge_verified=True, judge_corrected=True, human_labels=60,
            labels_needed=140, judge_only_verdict=NONINFERIOR),
        row("zh", "accuracy", "inconclusive", parse_limited=True, not_read_share=0.12, verdict_unread_wrong=INFERIOR,
            verdict_unread_right=NONINFERIOR),
        row("hi", "contradictory", INFERIOR, judge_verified=True, judge_corrected=True, human_labels=150,
            judge_only_verdict=NONINFERIOR),
        row("hi", "accuracy", INFERIOR),
    ]  # fmt: skip
    text = paragraph("openai/gpt-x", "xlinghealth/liveqa", rows, 0.05)
    notes = footnotes(rows, 0.05)
    print(len(text), text, *notes, sep="\n")
    assert len(text) < 600
    assert "Spanish: non-inferior on contradictory*; non-inferior on accuracy." in text
    assert "Chinese: inconclusive on contradictory‡ (about 80 more human labels); inconclusive on accuracy† (60" in text
    assert "Hindi: inferior on contradictory‡, 12.0 percentage points worse; inferior on accuracy" in text
    assert [n[0] for n in notes] == ["*", "†", "‡", "M"]
    assert ("contradictory: Chinese with 60 labels, Hindi with 150 labels (prediction-powered (PPI++); judge alone: "
            "non-inferior).") in notes[2]  # fmt: skip
    # issue 62: every footnote names how its bounds were made, the bootstrap's and the prediction-powered ones
    assert notes[3].endswith("One-sided 95% bounds: paired bootstrap (items resampled with their pairs); "
                             "prediction-powered (PPI++) (a normal interval from the judge on every item and human "
                             "labels on some, ppi-python with PPI++'s λ) for contradictory: Chinese, Hindi; "
                             "Holm-corrected across languages.")  # fmt: skip
    assert notes[1].endswith("right): accuracy: Chinese 12.0% (inferior / non-inferior).")
    # every language parse-limited on both outcomes: the line names each outcome once, about 40 characters a language
    many = [row(lg, oc, "inconclusive", parse_limited=True, not_read_share=0.125, verdict_unread_wrong=INFERIOR,
                verdict_unread_right=NONINFERIOR) for lg in ("es", "zh", "hi", "ar") for oc in ("accuracy", "x")]
    (line, _) = footnotes(many, 0.05)
    assert line.count("accuracy") == 1 and len(line) < 330
    assert "x: Spanish 12.5%, Chinese 12.5%, Hindi 12.5%, Arabic 12.5% (inferior / non-inferior)." in line


def test_labels_on_different_items_keep_the_judges_pairing() -> None:
    """A stratified set labels different items in each language; the judge scored the same items in both. The gap's
    judge term is then taken item by item: narrower than two independent estimates, with PPI's variance."""
    rng = np.random.default_rng(9)
    u = rng.random(2000)
    j_en, j_hi = (u < 0.3).astype(float), (u < 0.33).astype(float)  # a hard question is hard in both
    h_en, h_hi = j_en.copy(), np.where(rng.random(2000) < 0.1, 1 - j_hi, j_hi)
    a, b = rng.choice(2000, 150, replace=False), rng.choice(2000, 150, replace=False)
    hi, en = jc.corrected(h_hi[a], j_hi[a], j_hi, None, 0.05), jc.corrected(h_en[b], j_en[b], j_en, None, 0.05)
    shared, apart_ = jc.gap_shared_items(hi, en, j_hi, j_en, -1.0, 0.05), jc.gap(hi, en, -1.0, 0.05)
    assert shared.value == apart_.value == pytest.approx(-(hi.value - en.value))
    assert shared.se < apart_.se
    expected = np.var(-(hi.lam * j_hi - en.lam * j_en)) / 2000 + hi.rectifier_var / 150 + en.rectifier_var / 150
    assert shared.se**2 == pytest.approx(expected)


POINTS = np.array([5.0, 3.0, 2.0, 4.0, -4.0])  # a HealthBench rubric: four positive criteria, one harm (P⁺ = 14)


def _rubric_run(seed: int, n_items: int = 800, n_labels: int = 200) -> tuple[pd.DataFrame, HumanLabels, float]:
    """HealthBench-like: humans see Hindi answers meet each positive criterion less often than English ones (a gap
    of about 0.10 in score); the judge is exact in English and, in Hindi, calls a quarter of the unmet positive
    criteria met. Humans label criteria drawn at random per language (parts, not conversations). Returns the
    Scores, the labels and the true human gap (hi − en, over every conversation)."""
    rng = np.random.default_rng(seed)
    ids = [f"c{i:04d}" for i in range(n_items)]
    p_met = {"en": np.array([0.8, 0.7, 0.6, 0.5, 0.1]), "hi": np.array([0.7, 0.6, 0.5, 0.4, 0.2])}
    rows, humans, truth = [], HumanLabels("healthbench", paired=False), {}
    for lg in ("en", "hi"):
        human = rng.random((n_items, 5)) < p_met[lg]
        judge = human | ((rng.random((n_items, 5)) < 0.25) & (POINTS > 0)) if lg == "hi" else human.copy()
        score_h, score_j = human @ POINTS / 14, judge @ POINTS / 14
        truth[lg] = float(score_h.mean())
        for k, i in enumerate(ids):
            rows.append({"item_id": i, "lang": lg, "task": "healthbench", "metric": "score", "unit": "",
                         "value": float(score_j[k]), "condition": None, "higher_is_better": True,
                         "temperature": 0.5})  # fmt: skip
            rows += [{"item_id": i, "lang": lg, "task": "healthbench", "metric": "criteria_met", "unit": f"c{c}",
                      "value": float(judge[k, c]), "condition": None, "higher_is_better": True, "temperature": 0.5}
                     for c in range(5)]  # fmt: skip
        drawn = rng.choice(n_items * 5, n_labels, replace=False)
        humans.values[lg], humans.weights[lg], humans.parts[lg] = {}, {}, {}
        for flat in drawn:
            k, c = divmod(int(flat), 5)
            key, share = f"{ids[k]}:0.5:{c}", POINTS[c] / 14
            humans.values[lg][key] = float(human[k, c]) * share
            humans.weights[lg][key] = 1.0
            humans.parts[lg][key] = (ids[k], float(judge[k, c]) * share)
    return pd.DataFrame(rows), humans, truth["hi"] - truth["en"]


def test_human_labels_of_healthbench_criteria_correct_its_score() -> None:
    """HealthBench's score sums criteria each judged alone; physicians label criteria, not conversations. The
    corrected gap (criteria scaled to their share of the mean score) covers the true human gap where the judge's,
    lenient in Hindi, does not."""
    covered, judge_covered, widths = 0, 0, []
    for seed in range(40):
        scores, humans, true_gap = _rubric_run(seed)
        (row,) = corrected_rows(scores, {"healthbench": humans}, ["en", "hi"], tasks=task_outcomes())
        assert row["design_labels"] == "independent" and row["human_labels"] == 200
        covered += row["corrected_lower"] <= true_gap <= row["corrected_upper"]
        judge_covered += row["judge_lower"] <= true_gap <= row["judge_upper"]
        widths.append((row["corrected_upper"] - row["corrected_lower"], row["human_upper"] - row["human_lower"]))
    assert covered >= 36 and judge_covered == 0  # 90 % intervals (one-sided 95 % bounds): 36 of 40 expected
    assert np.mean([c for c, _ in widths]) < np.mean([h for _, h in widths])
    scores, humans, true_gap = _rubric_run(1)
    (row,) = corrected_rows(scores, {"healthbench": humans}, ["en", "hi"], tasks=task_outcomes())
    assert row["bias_lang"] > 0.05 and row["bias_lang_lower"] > 0  # lenient in Hindi: judge − human > 0
    assert row["bias_reference"] == pytest.approx(0.0)
    # a human's label of a criterion is scored as the judge's, times the criterion's share of the score
    value_of = label_value(task_outcomes())
    item = {"item_id": "q1", "lang": "hi", "label": "met", "weight": 5 / 14}
    assert value_of("healthbench", item, "met", "criteria_met") == pytest.approx(5 / 14)
    assert value_of("healthbench", item, "not_met", "criteria_met") == 0.0


def test_a_label_of_one_temperature_is_its_questions(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Safety and the rubric judge each temperature's answer (ids ``q1:hi:0.5``); the judge's value a verdict
    reads is the question's mean over its temperatures, so a human label is keyed by the question (the first
    label of a question counts), while a HealthBench criterion (it carries a ``weight``) is its own unit."""
    from xlingmed.annotate.answers import Answer
    from xlingmed.annotate.human_labels import human_labels
    from xlingmed.annotate.sample import AnnotationSet

    items = [{"id": f"q{i}:hi:{t}", "item_id": f"q{i}", "lang": "hi", "label": "none"} for i in range(3)
             for t in ("0.5", "1")]  # fmt: skip
    aset = AnnotationSet(tmp_path, {"task": "safety", "label_column": "harm"}, items, {"ana": "token"})
    answers = [Answer("ana", it["id"], "disagree", "severe") for it in items]
    (found,) = human_labels([(aset, answers)], label_value(task_outcomes())).values()
    assert found.values["hi"] == {"q0": 1.0, "q1": 1.0, "q2": 1.0} and not found.parts
