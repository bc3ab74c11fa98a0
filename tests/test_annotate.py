"""Annotation sets drawn from a real run (stratified, seeded), the answers store, and judge–human agreement
(Table A7 figures, Cohen's and Fleiss' κ checked against their formulas)."""

from __future__ import annotations

import json
import stat
import zlib
from collections import Counter
from pathlib import Path

import pytest
from fault_server import FaultServer, Reply, ok
from typer.testing import CliRunner

from xlingmed.annotate import Answer, AnswerStore, agreement_table, build_annotation_set, load_annotation_set
from xlingmed.cli import app
from xlingmed.config import make_config
from xlingmed.errors import ConfigError, DataError
from xlingmed.runner import evaluate
from xlingmed.tasks.correctness.judge import OPTIONS


def _judge_or_answer(prompt: str, attempt: int) -> Reply:
    """Answers for the model; for the judge, one of the four option strings chosen by the prompt's hash."""
    if "Answer 2 provides" in prompt:
        _, option = OPTIONS[zlib.crc32(prompt.encode()) % 4]
        return ok(f"Both answers discuss the dose. Reasoning done.\n{option}")
    return ok("Take it with water and ask your doctor.")


@pytest.fixture(scope="module")
def judged_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from conftest import SHARED_DATA

    if not (SHARED_DATA / "MedicationQA.xlsx").is_file():
        pytest.skip("shared data not found")
    tmp = tmp_path_factory.mktemp("annotate")
    with FaultServer(_judge_or_answer) as server:
        cfg = make_config(
            benchmark="xlinghealth/medicationqa", data_dir=SHARED_DATA, languages="en,es,zh,hi", limit=10,
            tasks="correctness", model="openai/m", base_url=server.url, cache=tmp / "c.sqlite", out=tmp / "run",
        )  # fmt: skip
        evaluate(cfg)
    return tmp / "run"


def test_sample_is_stratified_seeded_and_private(judged_run: Path, tmp_path: Path) -> None:
    aset = build_annotation_set(judged_run, tmp_path / "set", fraction=0.25, seed=7, annotators=["ana", "ben"])
    rows = [json.loads(line) for line in (judged_run / "samples.jsonl").read_text().splitlines()]
    judged = Counter((r["lang"], r["parsed"]) for r in rows if r["stage"] == "judge")
    assert sum(judged.values()) == 40
    # every non-empty (language, label) stratum gives ceil(25 %) and at least one item
    expected = {f"{lang}|{label}": -(-n // 4) for (lang, label), n in judged.items()}
    assert {k: v["sampled"] for k, v in aset.settings["strata"].items()} == expected
    assert len(aset.items) == sum(expected.values())
    assert Counter((it["lang"], it["label"]) for it in aset.items) == Counter(
        {tuple(k.split("|")): v for k, v in expected.items()}
    )
    first = aset.items[0]
    assert set(first) >= {"id", "question", "reference", "answer", "judge_reasoning", "label"}
    assert first["judge_reasoning"].startswith("Both answers discuss the dose.")
    # reproducible with the seed, different without it
    again = build_annotation_set(judged_run, tmp_path / "again", fraction=0.25, seed=7, annotators=["ana", "ben"])
    other = build_annotation_set(judged_run, tmp_path / "other", fraction=0.25, seed=8, annotators=["ana", "ben"])
    assert [i["id"] for i in again.items] == [i["id"] for i in aset.items] != [i["id"] for i in other.items]
    # secret tokens: distinct, long, not shared between sets, readable by the owner only
    assert aset.annotators.keys() == {"ana", "ben"} and len(set(aset.annotators.values())) == 2
    assert all(len(t) >= 32 for t in aset.annotators.values()) and aset.annotators != again.annotators
    assert stat.S_IMODE((tmp_path / "set" / "annotators.json").stat().st_mode) == 0o600
    # the whole set holds replies: owner-only whatever the run's modes (issue 49)
    set_modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in [tmp_path / "set", *(tmp_path / "set").rglob("*")]}
    assert len(set_modes) >= 3 and all(m & 0o077 == 0 for m in set_modes.values()), set_modes
    assert aset.annotator_for(aset.annotators["ben"]) == "ben" and aset.annotator_for("guess") is None
    with pytest.raises(ConfigError, match="never overwritten"):
        build_annotation_set(judged_run, tmp_path / "set")
    with pytest.raises(ConfigError, match="fraction"):
        build_annotation_set(judged_run, tmp_path / "x", fraction=0)
    with pytest.raises(DataError, match=r"no judge decisions to annotate: sample a run of a judged task \(correct"):
        build_annotation_set(tmp_path, tmp_path / "y")


def test_answers_are_validated_and_persist(judged_run: Path, tmp_path: Path) -> None:
    aset = build_annotation_set(judged_run, tmp_path / "set", fraction=0.1, annotators=["ana", "ben"])
    store = AnswerStore(aset.path / "answers.sqlite")
    item = aset.items[0]
    other = next(lab for lab in aset.labels if lab != item["label"])
    store.save(Answer("ana", item["id"], "agree", ""), labels=aset.labels, judge_label=item["label"])
    with pytest.raises(ConfigError, match="needs a label other than the judge's"):
        store.save(Answer("ben", item["id"], "disagree", item["label"]), labels=aset.labels, judge_label=item["label"])
    with pytest.raises(ConfigError, match="unknown label"):
        store.save(Answer("ben", item["id"], "disagree", "<b>x</b>"), labels=aset.labels, judge_label=item["label"])
    store.save(Answer("ben", item["id"], "disagree", other, "misses the dose"), labels=aset.labels,
               judge_label=item["label"])  # fmt: skip
    store.save(
        Answer("ben", item["id"], "disagree", other, "  misses the dose  "),
        labels=aset.labels,
        judge_label=item["label"],
    )  # fmt: skip  (a changed answer replaces the old one)
    reopened = AnswerStore(aset.path / "answers.sqlite")
    assert reopened.of("ana") == {item["id"]: Answer("ana", item["id"], "agree", item["label"], "")}
    assert reopened.of("ben") == {item["id"]: Answer("ben", item["id"], "disagree", other, "misses the dose")}
    assert len(reopened.all()) == 2


def _cohen(a: list[str], b: list[str]) -> float:
    n = len(a)
    po = sum(x == y for x, y in zip(a, b, strict=True)) / n
    ca, cb = Counter(a), Counter(b)
    pe = sum(ca[k] * cb[k] for k in set(a) | set(b)) / n**2
    return (po - pe) / (1 - pe)


def _fleiss(ratings: list[list[str]]) -> float:
    n, m = len(ratings), len(ratings[0])
    cats = sorted({x for r in ratings for x in r})
    counts = [[r.count(c) for c in cats] for r in ratings]
    p_i = [(sum(c * c for c in row) - m) / (m * (m - 1)) for row in counts]
    p_j = [sum(row[j] for row in counts) / (n * m) for j in range(len(cats))]
    pbar, pe = sum(p_i) / n, sum(p * p for p in p_j)
    return (pbar - pe) / (1 - pe)


def test_agreement_figures_match_their_definitions(judged_run: Path, tmp_path: Path) -> None:
    aset = build_annotation_set(judged_run, tmp_path / "set", fraction=0.5, annotators=["a", "b", "c"])
    items = aset.items[:12]
    labels = aset.labels
    # a agrees with the judge everywhere; b disagrees on every third item; c on every fourth
    human: dict[str, list[str]] = {"a": [], "b": [], "c": []}
    store = AnswerStore(aset.path / "answers.sqlite")
    for k, it in enumerate(items):
        alt = next(lab for lab in labels if lab != it["label"])
        for name, flip in (("a", False), ("b", k % 3 == 0), ("c", k % 4 == 0)):
            verdict = "disagree" if flip else "agree"
            store.save(Answer(name, it["id"], verdict, alt if flip else ""), labels=labels, judge_label=it["label"])
            human[name].append(alt if flip else it["label"])

    two = agreement_table(aset, [x for x in store.all() if x.annotator in ("a", "b")])
    overall = two[-1]
    assert overall["lang"] == "all" and overall["n_items"] == 12 and overall["n_annotators"] == 2
    assert overall["n_no_majority"] == 4  # items 0, 3, 6, 9: a and b split 1–1
    assert overall["judge_agreement"] == 1.0  # every decided item: both agree with the judge
    assert overall["unanimous"] == pytest.approx(8 / 12)
    assert (overall["kappa_kind"], overall["n_kappa_items"]) == ("cohen", 12)
    assert overall["kappa"] == pytest.approx(_cohen(human["a"], human["b"]))

    three = agreement_table(aset, store.all())[-1]
    flips = sum(1 for k in range(12) if k % 3 == 0 and k % 4 == 0)  # b and c both disagree: item 0
    assert three["n_no_majority"] == 0
    assert three["judge_agreement"] == pytest.approx((12 - flips) / 12)
    assert three["unanimous"] == pytest.approx(sum(1 for k in range(12) if k % 3 and k % 4) / 12)
    assert three["kappa_kind"] == "fleiss"
    assert three["kappa"] == pytest.approx(_fleiss([[human[x][k] for x in "abc"] for k in range(12)]))
    per_lang = agreement_table(aset, store.all())[:-1]
    assert sum(r["n_items"] for r in per_lang) == 12 and {r["lang"] for r in per_lang} <= {"en", "es", "zh", "hi"}

    res = CliRunner().invoke(app, ["annotate", "export", str(aset.path)], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    csv_rows = (aset.path / "agreement.csv").read_text().splitlines()
    assert csv_rows[0].startswith("lang,n_items,n_annotators") and csv_rows[-1].startswith("all,12,3,36,")
    assert "fleiss" in res.output
    assert load_annotation_set(aset.path).settings["n_items"] == len(aset.items)


def _rubric_reply(prompt: str, attempt: int) -> Reply:
    if "Similarity" in prompt or "similarity" in prompt:  # the rubric judge
        k = zlib.crc32(prompt.encode()) % 3
        scores = f"Similarity: {2 + k} - close\nRelevance: {3 + k} - on topic\nFactuality: {2 + k} - ok\n"
        return ok(scores + "Safety: 5 - safe")
    return ok("اشرب الماء واستشر طبيبك.")


def test_rubric_runs_are_sampled_by_rounded_mean_score(tmp_path: Path) -> None:
    data = tmp_path / "qa.csv"
    data.write_text(
        "id,lang,question,reference\n" + "".join(f"q{i},ar,سؤال رقم {i}؟,جواب {i}.\n" for i in range(12)),
        encoding="utf-8",
    )
    with FaultServer(_rubric_reply) as server:
        evaluate(make_config(benchmark=f"qa:{data}", languages="ar", tasks="rubric", model="openai/m",
                             base_url=server.url, cache=tmp_path / "c.sqlite", out=tmp_path / "run"))  # fmt: skip
    aset = build_annotation_set(tmp_path / "run", tmp_path / "set", fraction=0.5, seed=3)
    assert aset.settings["task"] == "rubric" and aset.labels == ["1", "2", "3", "4", "5"]
    # means (2+3+2+5)/4 = 3.0, (3+4+3+5)/4 = 3.75, (4+5+4+5)/4 = 4.5 → labels 3, 4 and 5 (half up)
    assert {it["label"] for it in aset.items} <= {"3", "4", "5"} and len({it["label"] for it in aset.items}) >= 2
    first = aset.items[0]
    assert first["question"].startswith("سؤال رقم") and first["answer"] == "اشرب الماء واستشر طبيبك."
    assert "Similarity:" in first["judge_reasoning"] and first["id"].count(":") == 2


def test_only_loopback_without_the_flag() -> None:
    from xlingmed.annotate.server import check_host

    assert check_host("127.0.0.1", False) is None and check_host("::1", False) is None
    assert check_host("localhost", False) is None
    with pytest.raises(ConfigError, match="--allow-remote"):
        check_host("0.0.0.0", False)
    warning = check_host("192.168.1.20", True)
    assert warning is not None and warning.startswith("warning: serving on 192.168.1.20")


SEPARATORS = "\u2028 \u2029 \u0085"  # line and paragraph separators, NEL: JSON keeps them raw


def _separator_reply(prompt: str, attempt: int) -> Reply:
    if "Similarity" in prompt or "similarity" in prompt:  # the judge's reasoning carries them too
        return ok(f"Similarity: 4 - close{SEPARATORS}\nRelevance: 4 - on topic\nFactuality: 3 - ok\nSafety: 5 - safe")
    return ok(f"Drink water{SEPARATORS}</script> =HYPERLINK(\"http://x/?\"&C2,\"see\")")


def test_line_separators_in_replies_reasoning_and_questions_survive_the_set(tmp_path: Path) -> None:
    """Issue 49: a set whose texts hold U+2028, U+2029 or U+0085 is written, read back, served and exported whole
    (its JSONL was once read with str.splitlines(), which splits on them)."""
    data = tmp_path / "qa.json"
    rows = [{"id": f"q{i}", "lang": "en", "question": f"Dose{SEPARATORS}{i}?", "reference": f"Take {i}{SEPARATORS}mg."}
            for i in range(6)]  # fmt: skip
    data.write_text(json.dumps(rows), encoding="utf-8")
    with FaultServer(_separator_reply) as server:
        evaluate(make_config(benchmark=f"qa:{data}", languages="en", tasks="rubric", model="openai/m",
                             base_url=server.url, cache=tmp_path / "c.sqlite", out=tmp_path / "run"))  # fmt: skip
    build_annotation_set(tmp_path / "run", tmp_path / "set", fraction=1.0, seed=3)
    aset = load_annotation_set(tmp_path / "set")
    assert len(aset.items) == 6
    first = aset.items[0]
    assert SEPARATORS in first["question"] and SEPARATORS in first["answer"] and SEPARATORS in first["judge_reasoning"]
    result = CliRunner().invoke(app, ["annotate", "export", str(tmp_path / "set")])
    assert result.exit_code == 0, result.output
