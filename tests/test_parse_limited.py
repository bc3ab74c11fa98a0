"""Parse-limited verdicts (``analysis.parse_limits``): where more than 5 % of a language's replies were not read by
a direct rule, the verdict is computed under both extremes, and one that differs between them is inconclusive.

Constructed Scores whose answer is known, then one run through the real CLI against the local scripted server in
which Hindi has 10 % unread replies: ``summary.json``, ``stats/verdicts.csv`` and the verdict paragraph say so.
"""

from __future__ import annotations

import csv
import json
from functools import partial
from pathlib import Path

import pandas as pd
import pytest
from fault_server import FaultServer, Reply, ok
from typer.testing import CliRunner

from xlingmed.analysis.verdict_record import VerdictOptions
from xlingmed.analysis.verdicts import INCONCLUSIVE, INFERIOR, NONINFERIOR
from xlingmed.analysis.verdicts import noninferiority as _noninferiority
from xlingmed.cli import app
from xlingmed.output import SCORE_COLUMNS
from xlingmed.tasks.registry import task_outcomes

# the registry's tasks, handed to the statistics as the report hands them (analysis imports no task)
noninferiority = partial(_noninferiority, tasks=task_outcomes())


N = 500


def _mc(values: dict[str, list[tuple[int, str]]]) -> pd.DataFrame:
    """Multiple-choice Scores: ``values[lang][i]`` is item i's (correct, parse method) in that language."""
    return pd.DataFrame(
        [
            {"item_id": f"q{i}", "lang": lang, "task": "multiple_choice", "metric": "correct", "value": float(v),
             "temperature": 0.0, "kind": "binary", "higher_is_better": True, "parse_method": m}
            for lang, vs in values.items()
            for i, (v, m) in enumerate(vs)
        ]
    ).reindex(columns=list(SCORE_COLUMNS))  # fmt: skip


EN = [(1, "phrase")] * 400 + [(0, "phrase")] * 100  # 80 % correct, every reply read


def test_a_verdict_the_unread_replies_could_change_is_inconclusive() -> None:
    # Hindi: the same answers as English, except 40 correct ones unread (8 %): 72 % as read, 80 % if they were right
    hi = [(0, "invalid") if i < 40 else x for i, x in enumerate(EN)]
    # Spanish: 1 % unread, under the 5 % line: its verdict stands as read
    es = [(0, "ambiguous") if i < 5 else x for i, x in enumerate(EN)]
    rows = {r["lang"]: r for r in noninferiority(_mc({"en": EN, "hi": hi, "es": es}), ["en", "hi", "es"])}
    h = rows["hi"]
    assert h["not_read_share"] == pytest.approx(0.08) and h["not_read_share_reference"] == 0.0
    assert h["parse_limited"] is True
    assert (h["verdict_unread_wrong"], h["verdict_unread_right"]) == (INFERIOR, NONINFERIOR)
    assert h["difference"] == pytest.approx(-0.08) and h["difference_unread_wrong"] == pytest.approx(-0.08)
    assert h["difference_unread_right"] == 0.0
    assert h["verdict"] == INCONCLUSIVE and h["reason"].startswith("parse-limited: 8.0% of the hi replies")
    e = rows["es"]
    assert e["parse_limited"] is False and e["not_read_share"] == pytest.approx(0.01)
    assert e["verdict"] == NONINFERIOR and "verdict_unread_wrong" not in e


def test_a_verdict_both_extremes_agree_on_stands_and_is_marked() -> None:
    # 6 % read by a fallback (fuzzy option match), the answers those of English: at δ = 0.2 no extreme changes it
    zh = [(x[0], "option_match") if i % 16 == 0 else x for i, x in enumerate(EN)]
    (row,) = noninferiority(_mc({"en": EN, "zh": zh}), ["en", "zh"], margins={"accuracy": 0.2})
    assert row["parse_limited"] is True and row["not_read_share"] == pytest.approx(32 / 500)
    assert row["verdict"] == row["verdict_unread_wrong"] == row["verdict_unread_right"] == NONINFERIOR


def test_the_reference_language_unread_limits_every_verdict() -> None:
    en = [(0, "invalid") if i < 40 else x for i, x in enumerate(EN)]  # English itself: 8 % unread
    hi = [(0, "phrase") if i < 40 else x for i, x in enumerate(EN)]
    (row,) = noninferiority(_mc({"en": en, "hi": hi}), ["en", "hi"])
    assert row["parse_limited"] is True and row["not_read_share"] == 0.0
    assert row["not_read_share_reference"] == pytest.approx(0.08)
    # as read both are 72 %; if English's unread were right, Hindi is 8 points worse
    assert row["verdict_unread_wrong"] == INFERIOR and row["verdict"] == INCONCLUSIVE


def test_outcomes_without_parsed_replies_carry_no_parse_columns() -> None:
    df = _mc({"en": EN, "hi": EN})
    df["parse_method"] = None
    (row,) = noninferiority(df, ["en", "hi"])
    assert row["parse_limited"] is None and row["not_read_share"] is None and row["verdict"] == NONINFERIOR
    (plain,) = noninferiority(_mc({"en": EN, "hi": EN}), ["en", "hi"], options=VerdictOptions(parse_limits=False))
    assert "parse_limited" not in plain


QUESTIONS = 40  # per language: enough paired items for a verdict (MIN_ITEMS 20)
UNREAD_HI = 8  # 20 % of the Hindi replies discuss the options and conclude nothing


def test_a_run_with_unread_replies_is_parse_limited_in_summary_verdicts_and_paragraph(tmp_path: Path) -> None:
    rows = [
        {"id": f"q{k}", "language": lang, "question": f"{word} {k}?", "A": f"alpha {k}", "B": f"beta {k}",
         "C": f"gamma {k}", "D": f"delta {k}", "answer": "ABCD"[k % 4]}
        for lang, word in (("en", "Question number"), ("hi", "प्रश्न संख्या"))
        for k in range(QUESTIONS)
    ]  # fmt: skip
    pd.DataFrame(rows).to_csv(tmp_path / "mine.csv", index=False)

    def policy(prompt: str, attempt: int) -> Reply:
        # the longest question the prompt holds: "… 12?" names item 12, never item 1
        r = max((r for r in rows if f"{r['question']}" in prompt), key=lambda r: len(str(r["question"])))
        k = int(str(r["id"])[1:])
        if r["language"] == "hi" and k < UNREAD_HI:
            return ok("A. यह संभव है।\nB. यह भी संभव है।\nC. यह कम संभव है।\nD. यह असंभव है।")
        return ok(f"The correct answer is {r['answer']}.")

    with FaultServer(policy) as server:
        res = CliRunner().invoke(app, ["run", "--benchmark", f"mcq:{tmp_path / 'mine.csv'}", "--languages", "en,hi",
                                       "--model", "openai/m", "--base-url", server.url, "--out", str(tmp_path / "r"),
                                       "--cache", str(tmp_path / "c.sqlite")], env={"COLUMNS": "250"})  # fmt: skip
    assert res.exit_code == 0, res.output
    summary = json.loads((tmp_path / "r" / "summary.json").read_text("utf-8"))
    assert summary["parse_limited"] == {"multiple_choice": ["hi"]}
    assert summary["tasks"]["multiple_choice"]["parsing"]["parse_limited"] == ["hi"]
    with open(tmp_path / "r" / "report" / "stats" / "verdicts.csv", encoding="utf-8") as fh:
        (hi,) = list(csv.DictReader(fh))
    assert hi["lang"] == "hi" and hi["parse_limited"] == "True" and float(hi["not_read_share"]) == 0.2
    # 80 % as read against 100 %: worse by 20 points if the unread are wrong, identical if they are right
    assert (hi["verdict_unread_wrong"], hi["verdict_unread_right"]) == (INFERIOR, NONINFERIOR)
    assert hi["verdict"] == INCONCLUSIVE and hi["reason"].startswith("parse-limited")
    assert hi["verdict_as_read"] == INFERIOR
    text = (tmp_path / "r" / "report" / "verdict.txt").read_text("utf-8")
    assert "Hindi: inconclusive on accuracy† (inferior as read; unread replies decide)." in text
    assert "† Parse-limited" in text and "accuracy: Hindi 20.0% (inferior / non-inferior)." in text
