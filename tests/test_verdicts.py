"""Non-inferiority verdicts (``analysis.verdicts``) on constructed Scores whose answer is known."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from xlingmed.analysis.verdict_record import VerdictOptions
from xlingmed.analysis.verdicts import (
    INCONCLUSIVE,
    INFERIOR,
    MIN_ITEMS,
    NONINFERIOR,
)
from xlingmed.analysis.verdicts import noninferiority as _noninferiority
from xlingmed.analysis.verdicts import parse_margins as _parse_margins
from xlingmed.errors import ConfigError
from xlingmed.output import SCORE_COLUMNS
from xlingmed.tasks.registry import task_outcomes

# the registry's tasks, handed to the statistics as the report hands them (analysis imports no task)
noninferiority = partial(_noninferiority, tasks=task_outcomes())
parse_margins = partial(_parse_margins, tasks=task_outcomes())


def _frame(records: list[dict[str, object]]) -> pd.DataFrame:
    return pd.DataFrame(records).reindex(columns=list(SCORE_COLUMNS))


def _mc(values: dict[str, list[int]]) -> pd.DataFrame:
    """Multiple-choice ``correct`` Scores: ``values[lang][i]`` is item i's outcome in that language."""
    return _frame(
        [
            {"item_id": f"q{i}", "lang": lang, "task": "multiple_choice", "metric": "correct", "value": float(v),
             "temperature": 0.0, "kind": "binary", "higher_is_better": True}
            for lang, vs in values.items()
            for i, v in enumerate(vs)
        ]
    )  # fmt: skip


def _by_lang(rows: list[dict[str, object]]) -> dict[object, dict[str, object]]:
    return {r["lang"]: r for r in rows}


def test_ten_points_worse_is_inferior_identical_is_noninferior_tiny_is_inconclusive() -> None:
    en = [1] * 400 + [0] * 100  # 80 % correct
    worse = list(en)
    for i in range(0, 100):  # 50 of the correct answers turn wrong: 70 %, 10 points worse
        if i % 2 == 0:
            worse[i] = 0
    tiny = en[:8]
    df = _mc({"en": en, "es": list(en), "hi": worse, "zh": tiny})
    rows = noninferiority(df, ["en", "es", "hi", "zh"], margins={"accuracy": 0.05})
    v = _by_lang(rows)
    assert set(v) == {"es", "hi", "zh"} and all(r["outcome"] == "accuracy" for r in rows)
    assert v["hi"]["difference"] == pytest.approx(-0.10)
    assert v["hi"]["value_reference"] == pytest.approx(0.8) and v["hi"]["value_lang"] == pytest.approx(0.7)
    assert v["hi"]["verdict"] == INFERIOR and v["hi"]["upper"] < -0.05
    assert v["es"]["verdict"] == NONINFERIOR and v["es"]["difference"] == 0.0 and v["es"]["lower"] == 0.0
    assert v["zh"]["verdict"] == INCONCLUSIVE and v["zh"]["n_items"] == 8
    assert v["zh"]["n_items_needed"] >= MIN_ITEMS
    assert "fewer than" in v["zh"]["reason"]
    # the same worse language is non-inferior at a margin wider than its gap and its uncertainty
    wide = _by_lang(noninferiority(df, ["en", "hi"], margins={"accuracy": 0.2}))
    assert wide["hi"]["verdict"] == NONINFERIOR


def test_lower_is_better_outcome_is_oriented_and_holm_corrected() -> None:
    """Correctness "contradictory" (lower is better): 10 points more contradictions is a difference of −0.10."""
    en = [0] * 450 + [1] * 50
    more = [1 if i < 50 else v for i, v in enumerate(en)]  # 50 more contradictory answers
    df = _frame(
        [
            {"item_id": f"q{i}", "lang": lang, "task": "correctness", "metric": "contradictory", "value": float(v),
             "kind": "binary", "higher_is_better": False}
            for lang, vs in (("en", en), ("hi", more), ("es", en))
            for i, v in enumerate(vs)
        ]
    )  # fmt: skip
    v = _by_lang(noninferiority(df, ["en", "es", "hi"]))
    assert v["hi"]["difference"] == pytest.approx(-0.10) and v["hi"]["verdict"] == INFERIOR
    assert v["es"]["verdict"] == NONINFERIOR
    assert v["hi"]["margin"] == 0.05  # the documented default
    for r in v.values():  # Holm over two languages: the smaller p doubled, never below the raw one
        assert r["p_inferior_holm"] >= r["p_inferior"] and r["p_noninferior_holm"] >= r["p_noninferior"]


def test_inconclusive_estimate_makes_the_same_data_conclusive() -> None:
    """An inconclusive language's n_items_needed, filled with the same per-item pattern, gives a verdict."""
    pattern_en = [1, 1, 1, 1, 1, 1, 1, 1, 0, 0] * 3
    pattern_x = [1, 1, 1, 1, 1, 1, 1, 0, 1, 0] * 3  # one item flips each way per 10: no true difference
    pattern_x[0] = 0  # and one more wrong: 1/30 worse
    small = noninferiority(_mc({"en": pattern_en, "x": pattern_x}), ["en", "x"], margins={"accuracy": 0.1})
    (row,) = small
    assert row["verdict"] == INCONCLUSIVE and row["n_items"] == 30
    needed = row["n_items_needed"]
    assert needed is not None and needed > 30
    copies = -(-needed // 30)  # the pattern repeated to at least the estimate
    big = noninferiority(
        _mc({"en": pattern_en * copies, "x": pattern_x * copies}), ["en", "x"], margins={"accuracy": 0.1}
    )
    assert big[0]["verdict"] == NONINFERIOR
    assert big[0]["difference"] == pytest.approx(row["difference"])


def test_verifiability_macro_f1_pools_the_claims_of_resampled_items() -> None:
    from sklearn.metrics import f1_score

    rng = np.random.default_rng(3)
    records = []
    truth = {}
    for lang, flip in (("en", 0.1), ("es", 0.1), ("hi", 0.45)):
        local = np.random.default_rng(11)  # en and es read the same claims the same way
        for i in range(120):
            for c in range(5):
                target = "yes" if c == 0 else "no"
                wrong = (local.random() < flip) if lang != "hi" else (rng.random() < flip)
                answer = ("no" if target == "yes" else "yes") if wrong else target
                truth.setdefault(lang, []).append((target, answer))
                records.append(
                    {"item_id": f"q{i}", "lang": lang, "task": "verifiability", "metric": "correct",
                     "value": float(answer == target), "unit": f"c{c}", "temperature": 0.0, "kind": "binary",
                     "higher_is_better": True, "answer": answer, "target": target}
                )  # fmt: skip
    records.append(  # an unread claim: excluded from macro-F1, as in the paper
        {"item_id": "q0", "lang": "en", "task": "verifiability", "metric": "correct", "value": None, "unit": "c9",
         "temperature": 0.0, "kind": "binary", "higher_is_better": True, "answer": None, "target": "no"}
    )  # fmt: skip
    v = _by_lang(noninferiority(_frame(records), ["en", "es", "hi"], options=VerdictOptions(equivalence=True)))
    expected = f1_score([t for t, _ in truth["en"]], [a for _, a in truth["en"]], average="macro")
    assert v["es"]["value_reference"] == pytest.approx(expected)
    assert v["es"]["outcome"] == "verifiability_f1" and v["es"]["margin"] == 0.03
    assert v["es"]["verdict"] == NONINFERIOR and v["es"]["equivalent"] is True
    assert v["hi"]["verdict"] == INFERIOR and v["hi"]["equivalent"] is False


def test_margins_are_parsed_and_checked() -> None:
    assert parse_margins("accuracy=0.05, contradictory=0.1") == {"accuracy": 0.05, "contradictory": 0.1}
    assert parse_margins(None) == {}
    with pytest.raises(ConfigError, match=r"unknown outcome 'acc'.*accuracy"):
        parse_margins("acc=0.05")
    with pytest.raises(ConfigError, match="a margin is a number"):
        parse_margins("accuracy=five")
    with pytest.raises(ConfigError, match="positive"):
        parse_margins("accuracy=-0.05")


def test_judged_verdicts_carry_the_judge_kappa_and_are_unverified_without_it(tmp_path: Path) -> None:
    """Correctness is judged: with two annotators agreeing with the judge in Spanish (κ 1) and disagreeing half
    the time in Hindi, Spanish is verified, Hindi (κ below 0.6) and Chinese (unmeasured) are not."""
    from xlingmed.annotate.agreement import judge_reliability
    from xlingmed.annotate.answers import Answer
    from xlingmed.annotate.sample import AnnotationSet

    labels = ["more", "equal", "less", "contradictory"]
    items, answers = [], []
    for lang in ("es", "hi"):
        for i in range(40):
            judge = labels[i % 4]
            items.append({"id": f"{lang}{i}", "lang": lang, "label": judge})
            human = judge if lang == "es" or i % 2 == 0 else labels[(i + 1) % 4]
            answers += [Answer(a, f"{lang}{i}", "agree" if human == judge else "disagree", human) for a in ("a", "b")]
    aset = AnnotationSet(tmp_path, {"task": "correctness", "labels": labels}, items, {"a": "t1", "b": "t2"})
    judges = judge_reliability([(aset, answers)])
    assert judges[("correctness", "es")] == {"judge_kappa": 1.0, "n_items": 40}
    assert judges[("correctness", "hi")]["judge_kappa"] < 0.6

    en = [0] * 450 + [1] * 50
    df = _frame(
        [
            {"item_id": f"q{i}", "lang": lang, "task": "correctness", "metric": "contradictory", "value": float(v),
             "kind": "binary", "higher_is_better": False}
            for lang in ("en", "es", "hi", "zh")
            for i, v in enumerate(en)
        ]
    )  # fmt: skip
    v = _by_lang(noninferiority(df, ["en", "es", "hi", "zh"], options=VerdictOptions(judges=judges)))
    assert v["es"]["judge_verified"] is True and v["es"]["judge_kappa"] == 1.0 and v["es"]["judge_items"] == 40
    assert v["hi"]["judge_verified"] is False and v["zh"]["judge_verified"] is False
    assert v["zh"]["judge_kappa"] is None and v["zh"]["judge_items"] == 0
    assert all(r["verdict"] == NONINFERIOR for r in v.values())  # the statistics are unchanged by the mark
    mc = noninferiority(_mc({"en": [1] * 30, "hi": [1] * 30}), ["en", "hi"], options=VerdictOptions(judges=judges))
    assert mc[0]["judge_verified"] is None  # multiple choice has no judge

    from xlingmed.report.verdicts import footnotes, paragraph

    text = paragraph("openai/x", "xlinghealth/liveqa", list(v.values()), 0.05)
    assert "Hindi: non-inferior on contradictory*." in text and "Spanish: non-inferior on contradictory." in text
    note = footnotes(list(v.values()), 0.05)[0]
    assert note.startswith("* Judge-unverified") and "contradictory: " in note and "Hindi (judge–human κ" in note
    assert "Chinese (no judge–human agreement measured)" in note and "Spanish" not in note
