"""Cross-lingual answer agreement (``analysis.crosslingual``) on constructed readings with known agreement."""

from __future__ import annotations

from functools import partial

import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

from xlingmed.analysis.crosslingual import answer_agreement as _answer_agreement
from xlingmed.output import SCORE_COLUMNS
from xlingmed.tasks.registry import task_outcomes

# the registry's tasks, handed to the statistics as the report hands them (analysis imports no task)
answer_agreement = partial(_answer_agreement, tasks=task_outcomes())


def test_same_accuracy_different_answers_is_visible_as_disagreement() -> None:
    """English and Hindi are both right on 6 of 12 items, on different items: equal accuracy, little agreement."""
    gold = ["A", "B", "C", "D"] * 3
    en = [g if i < 6 else "A" if g != "A" else "B" for i, g in enumerate(gold)]
    hi = [g if i >= 6 else "C" if g != "C" else "D" for i, g in enumerate(gold)]
    es = list(en)  # Spanish chooses as English does
    es[0] = None  # one reply not read
    records = []
    for lang, chosen in (("en", en), ("es", es), ("hi", hi)):
        for i, (c, g) in enumerate(zip(chosen, gold, strict=True)):
            records.append(
                {"item_id": f"q{i}", "lang": lang, "task": "multiple_choice", "metric": "correct",
                 "value": float(c == g), "temperature": 0.0, "kind": "binary", "higher_is_better": True,
                 "answer": c, "target": g}
            )  # fmt: skip
            records.append(  # a second Score of the same reply must not count twice
                {"item_id": f"q{i}", "lang": lang, "task": "multiple_choice", "metric": "correct",
                 "value": float(c == g), "temperature": 0.0, "kind": "binary", "higher_is_better": True,
                 "answer": c, "target": g, "condition": "biased|recency"}
            )  # fmt: skip
    df = pd.DataFrame(records).reindex(columns=list(SCORE_COLUMNS))
    rows = {r["lang"]: r for r in answer_agreement(df, ["en", "es", "hi"])}
    assert rows["es"]["n_items"] == 11 and rows["es"]["n_unread"] == 1 and rows["es"]["agreement"] == 1.0
    assert rows["es"]["kappa"] == pytest.approx(1.0)
    agree = sum(a == b for a, b in zip(en, hi, strict=True)) / 12
    assert rows["hi"]["agreement"] == pytest.approx(agree) and rows["hi"]["n_items"] == 12
    assert rows["hi"]["kappa"] == pytest.approx(cohen_kappa_score(en, hi))
    # all three languages, on the 11 items read in each
    keep = [i for i in range(12) if es[i] is not None]
    table, _ = aggregate_raters([[ord(x[i]) for x in (en, es, hi)] for i in keep])
    assert rows["all"]["n_items"] == 11 and rows["all"]["kappa_kind"] == "fleiss"
    assert rows["all"]["kappa"] == pytest.approx(fleiss_kappa(table, method="fleiss"))
    assert rows["all"]["agreement"] == pytest.approx(sum(en[i] == es[i] == hi[i] for i in keep) / 11)


def test_judge_labels_and_claims_compare_per_temperature_and_unit() -> None:
    records = []
    for lang, labels in (("en", ["more", "less", "more"]), ("zh", ["more", "contradictory", "more"])):
        for i, lab in enumerate(labels):
            records.append(
                {"item_id": f"q{i}", "lang": lang, "task": "correctness", "metric": "contradictory",
                 "value": float(lab == "contradictory"), "kind": "binary", "higher_is_better": False, "answer": lab}
            )  # fmt: skip
    for lang, yes in (("en", [1, 0, 0, 1]), ("zh", [1, 0, 1, 1])):
        for t in (0.0, 1.0):
            for c, y in enumerate(yes):
                records.append(
                    {"item_id": "q0", "lang": lang, "task": "verifiability", "metric": "correct", "unit": f"c{c}",
                     "value": 1.0, "temperature": t, "kind": "binary", "answer": "yes" if y else "no"}
                )  # fmt: skip
    rows = answer_agreement(pd.DataFrame(records).reindex(columns=list(SCORE_COLUMNS)), ["en", "zh"])
    corr = [r for r in rows if r["task"] == "correctness" and r["lang"] == "zh"]
    assert corr[0]["agreement"] == pytest.approx(2 / 3) and corr[0]["temperature"] is None
    ver = [r for r in rows if r["task"] == "verifiability" and r["lang"] == "zh"]
    assert [r["temperature"] for r in ver] == [0.0, 1.0]
    assert all(r["n_items"] == 4 and r["agreement"] == 0.75 for r in ver)  # the claims of one item are its units
