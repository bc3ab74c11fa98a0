"""Issue 62: human labels collected elsewhere come in through ``xlingmed annotate import SET FILE``, checked row by
row against the set and stored as the app stores them; ``annotate sample --for-verdict`` plans with the report's
margins and refuses the options it would ignore.

The acceptance: a CSV with one bad row of each kind (an unknown item, a label outside the scheme, a duplicate, a
wrong language, an unknown annotator) is refused whole, one line each naming file, row and column; the clean file
then gives a report equal to the one built from the same labels entered through the app's own storage path."""

from __future__ import annotations

import csv
import json
import shutil
import zlib
from pathlib import Path

import pytest
from fault_server import FaultServer, Reply, ok
from typer.testing import CliRunner

from xlingmed.annotate import AnswerStore, build_annotation_set, load_annotation_set
from xlingmed.annotate.for_verdict import planning
from xlingmed.annotate.label_import import LabelFileError, import_labels
from xlingmed.annotate.server import _JudgePages
from xlingmed.cli import app
from xlingmed.config import make_config
from xlingmed.errors import ConfigError, DataError
from xlingmed.report import build_report
from xlingmed.runner import evaluate
from xlingmed.tasks.correctness.judge import LABEL_NAMES, OPTIONS

FIELDS = ("item_id", "lang", "annotator", "label", "reason")


def _judge_or_answer(prompt: str, attempt: int) -> Reply:
    if "Answer 2 provides" in prompt:  # the judge: one of its four options, by the prompt's hash
        _, option = OPTIONS[zlib.crc32(prompt.encode()) % 4]
        return ok(f"Both answers discuss the dose.\n{option}")
    return ok("Take it with water and ask your doctor.")


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(a run judged in en and es on 14 questions, a paired set of all of them, unanswered)."""
    from conftest import SHARED_DATA

    if not (SHARED_DATA / "MedicationQA.xlsx").is_file():
        pytest.skip("shared data not found")
    tmp = tmp_path_factory.mktemp("import")
    with FaultServer(_judge_or_answer) as server:
        evaluate(make_config(
            benchmark="xlinghealth/medicationqa", data_dir=SHARED_DATA, languages="en,es", limit=14,
            tasks="correctness", model="openai/m", base_url=server.url, cache=tmp / "c.sqlite", out=tmp / "run",
        ))  # fmt: skip
    build_annotation_set(tmp / "run", tmp / "set", fraction=1.0, paired=True, annotators=["ana", "ben"])
    return tmp / "run", tmp / "set"


def _human(item: dict[str, str], who: str) -> tuple[str, str]:
    """A scripted annotator's (label, reason): the judge's label on most items, another on some, and the two
    annotators apart on a few."""
    labels = ("more", "less", "neither", "contradictory")
    h = zlib.crc32(f"{item['id']}|{'x' if who == 'ana' or zlib.crc32(item['id'].encode()) % 5 else who}".encode())
    label = item["label"] if h % 3 else labels[h % 4]
    return label, ("" if label == item["label"] else "=HYPERLINK(\"http://x\") the dose is wrong")


def _rows(aset_path: Path) -> list[dict[str, str]]:
    aset = load_annotation_set(aset_path)
    return [{"item_id": it["item_id"], "lang": it["lang"], "annotator": who, "label": _human(it, who)[0],
             "reason": _human(it, who)[1]} for it in aset.items for who in ("ana", "ben")]  # fmt: skip


def _write_csv(path: Path, rows: list[dict[str, str]]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


def _answers(aset_path: Path) -> list[tuple[str, str, str, str, str]]:
    return sorted((a.annotator, a.item, a.verdict, a.label, a.reason)
                  for a in AnswerStore.read_all(aset_path / "answers.sqlite"))  # fmt: skip


def test_bad_rows_are_refused_whole_and_the_clean_file_reports_as_the_app(judged: tuple[Path, Path],
                                                                          tmp_path: Path) -> None:  # fmt: skip
    run, fresh = judged
    by_app, by_file = tmp_path / "app" / "labels", tmp_path / "file" / "labels"  # one name: the report's batch
    shutil.copytree(fresh, by_app)
    shutil.copytree(fresh, by_file)
    # the app's own storage path: each annotator's form, saved as the item page saves it
    aset = load_annotation_set(by_app)
    pages = _JudgePages(aset)
    for it in aset.items:
        for who in ("ana", "ben"):
            label, reason = _human(it, who)
            verdict = "agree" if label == it["label"] else "disagree"
            pages.save(who, it, {"verdict": verdict, "label": label if verdict == "disagree" else "", "reason": reason})
    rows = _rows(by_file)
    rows[3]["label"] = LABEL_NAMES[rows[3]["label"]]  # a label by the name the app shows is that label
    first = rows[0]
    bad = [
        {**first, "item_id": "no-such-question"},  # row 2: unknown item
        {**rows[1], "label": "maybe"},  # row 3: not in the scheme
        dict(first),  # row 4: the first row's label again (duplicate of row 5's)
        {**rows[2], "lang": "ar"},  # row 6 (after the first): a language the set does not have the item in
        {**rows[4], "annotator": "zed"},  # an annotator the set does not name
    ]
    mixed = [bad[0], bad[1], bad[2], first, bad[3], *rows[1:10], bad[4], *rows[10:]]
    refused = _write_csv(tmp_path / "labels_bad.csv", mixed)
    cli = CliRunner()
    out = cli.invoke(app, ["annotate", "import", str(by_file), str(refused)])
    assert out.exit_code == 2, out.output
    lines = [ln for ln in out.output.splitlines() if ln.startswith("error:")]
    print(*lines, sep="\n")
    assert len(lines) == 5 and all(f"file {refused}" in ln and ", row " in ln and "column '" in ln for ln in lines)
    assert "row 2, column 'item_id': item 'no-such-question' is not in the set" in lines[0]
    assert "row 3, column 'label': label 'maybe' is not in the task's scheme: more, less" in lines[1]
    assert "row 5, column 'item_id': duplicate: a second label of ana on" in lines[2]
    assert "(the first is row 4)" in lines[2]
    assert "row 6, column 'lang': wrong language: the set has item" in lines[3] and "in en, es, not 'ar'" in lines[3]
    assert "row 16, column 'annotator': annotator 'zed' is not one of the set's: ana, ben" in lines[4]
    assert "nothing was stored" in out.output
    assert _answers(by_file) == []  # nothing half-written
    clean = _write_csv(tmp_path / "labels.csv", rows)
    out = cli.invoke(app, ["annotate", "import", str(by_file), str(clean)])
    assert out.exit_code == 0, out.output
    assert f"stored {len(rows)} labels" in out.output and "en 28, es 28" in out.output
    assert _answers(by_file) == _answers(by_app) and len(_answers(by_app)) == 56
    assert any(a[4].startswith("=HYPERLINK") for a in _answers(by_file))  # a formula is text, stored as given
    # the same file again changes nothing; a changed label is a duplicate unless --replace
    again = cli.invoke(app, ["annotate", "import", str(by_file), str(clean)])
    assert again.exit_code == 0 and f"{len(rows)} already there" in again.output
    # the reports: equal, file by file, and judge-corrected
    reports = {}
    for name, folder in (("app", by_app), ("file", by_file)):
        build_report([run], tmp_path / f"report_{name}", n_resamples=200, annotations=[folder])
        reports[name] = {p.name: p.read_text(encoding="utf-8")
                         for p in sorted((tmp_path / f"report_{name}" / "stats").iterdir())}  # fmt: skip
    assert reports["app"] == reports["file"]
    verdicts = list(csv.DictReader(reports["file"]["verdicts.csv"].splitlines()))
    (corrected,) = [r for r in verdicts if r["judge_corrected"] == "True"]
    assert int(corrected["human_labels"]) >= 10 and corrected["method"].startswith("prediction-powered")


def test_the_apps_export_round_trips(judged: tuple[Path, Path], tmp_path: Path) -> None:
    _, fresh = judged
    source, back, lines = tmp_path / "source", tmp_path / "back", tmp_path / "lines"
    for folder in (source, back, lines):
        shutil.copytree(fresh, folder)
    import_labels(source, _write_csv(tmp_path / "l.csv", _rows(source)))
    cli = CliRunner()
    assert cli.invoke(app, ["annotate", "export", str(source)]).exit_code == 0
    # answers.csv as exported (item = the set's id, verdict, spreadsheet-safe cells) comes back as it was
    out = cli.invoke(app, ["annotate", "import", str(back), str(source / "answers.csv")])
    assert out.exit_code == 0, out.output
    assert _answers(back) == _answers(source)
    # and as JSON Lines, one object a line, the item by its id
    exported = list(csv.DictReader((source / "answers.csv").read_text(encoding="utf-8").splitlines()))
    jsonl = tmp_path / "answers.jsonl"
    jsonl.write_text("".join(json.dumps({"item": r["item"], "annotator": r["annotator"], "label": r["label"],
                                         "reason": _answers(source)[k][4]}, ensure_ascii=False) + "\n"
                             for k, r in enumerate(sorted(exported, key=lambda r: (r["annotator"], r["item"])))),
                     encoding="utf-8")  # fmt: skip
    assert cli.invoke(app, ["annotate", "import", str(lines), str(jsonl)]).exit_code == 0
    assert _answers(lines) == _answers(source)


def test_a_hostile_label_file_is_one_line_and_stores_nothing(judged: tuple[Path, Path], tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    _, fresh = judged
    target = tmp_path / "set"
    shutil.copytree(fresh, target)
    row = _rows(target)[0]
    # not UTF-8; a JSON line that is a list; a cell that would run in a spreadsheet; bidi controls
    (tmp_path / "latin1.csv").write_bytes(b"item_id,lang,annotator,label\nq,en,ana,\xf1o\n")
    with pytest.raises(DataError, match="line 2 is not UTF-8"):
        import_labels(target, tmp_path / "latin1.csv")
    (tmp_path / "list.jsonl").write_text('["a", "b"]\n', encoding="utf-8")
    with pytest.raises(DataError, match="row 1: a line must hold a JSON object"):
        import_labels(target, tmp_path / "list.jsonl")
    formula = _write_csv(tmp_path / "formula.csv", [{**row, "label": "=1+1"}, {**row, "annotator": "ana\u202e"}])
    with pytest.raises(LabelFileError) as caught:
        import_labels(target, formula)
    said = [str(e) for e in caught.value.errors]
    assert "column 'label': label '=1+1' is not in the task's scheme" in said[0]
    assert "annotator 'ana\\u202e' is not one of the set's" in said[1]  # escaped, never shown raw
    monkeypatch.setenv("XLINGMED_MAX_LINE_BYTES", "40")
    long = _write_csv(tmp_path / "long.csv", [{**row, "reason": "x" * 100}])
    with pytest.raises(DataError, match="line 2 is longer than the cap of 40 bytes"):
        import_labels(target, long)
    monkeypatch.delenv("XLINGMED_MAX_LINE_BYTES")
    (tmp_path / "labels.xlsx").write_bytes(b"PK")
    with pytest.raises(DataError, match=r"\.csv \(or \.tsv\) or \.jsonl"):
        import_labels(target, tmp_path / "labels.xlsx")
    assert _answers(target) == []
    # a new annotator comes in only when asked, with a token of their own
    newcomer = _write_csv(tmp_path / "new.csv", [{**row, "annotator": "cleo"}])
    with pytest.raises(LabelFileError, match="--add-annotators adds a name"):
        import_labels(target, newcomer)
    done = import_labels(target, newcomer, add_annotators=True)
    assert done.added_annotators == ["cleo"] and "cleo" in load_annotation_set(target).annotators
    # a different label on an item already labelled: a duplicate, unless --replace
    changed = _write_csv(tmp_path / "changed.csv", [{**row, "annotator": "cleo", "label": "contradictory"
                                                     if row["label"] != "contradictory" else "more"}])  # fmt: skip
    with pytest.raises(LabelFileError, match="duplicate: cleo already labelled"):
        import_labels(target, changed)
    import_labels(target, changed, replace=True)
    assert [a[3] for a in _answers(target)] == ["contradictory" if row["label"] != "contradictory" else "more"]


def test_for_verdict_plans_with_the_reports_margins_and_refuses_what_it_ignores(judged: tuple[Path, Path],
                                                                                tmp_path: Path) -> None:  # fmt: skip
    run, fresh = judged
    answered = tmp_path / "answered"
    shutil.copytree(fresh, answered)
    import_labels(answered, _write_csv(tmp_path / "l.csv", _rows(answered)))
    cli = CliRunner()
    base = ["annotate", "sample", str(run), "--out", str(tmp_path / "more"), "--for-verdict", str(answered)]
    for extra, named in ((["--fraction", "0.2"], "--fraction"), (["--paired"], "--paired"),
                         (["--across-languages"], "--per-language/--across-languages"),
                         (["--stratify", "none"], "--stratify")):  # fmt: skip
        out = cli.invoke(app, [*base, *extra])
        assert out.exit_code == 2 and named in out.output and "takes no such option" in out.output, out.output
    out = cli.invoke(app, [*base, "--task", "rubric"])
    assert out.exit_code == 2 and "drop --task" in out.output
    out = cli.invoke(app, ["annotate", "sample", str(run), "--out", str(tmp_path / "x"), "--margin",
                           "contradictory=0.03"])  # fmt: skip
    assert out.exit_code == 2 and "only --for-verdict plans" in out.output
    assert not (tmp_path / "more").exists() and not (tmp_path / "x").exists()
    # the report it plans for: its margins and α, unless given
    assert planning(run, [answered]) == ({}, 0.05, "the defaults")
    build_report([run], tmp_path / "report", n_resamples=200, annotations=[answered],
                 margins="contradictory=0.02", alpha=0.1)  # fmt: skip
    margins, alpha, source = planning(run, [answered], report=tmp_path / "report")
    assert margins == {"contradictory": 0.02} and alpha == 0.1 and "the report" in source
    margins, alpha, _ = planning(run, [answered], report=tmp_path / "report", margin="contradictory=0.04", alpha=0.05)
    assert margins == {"contradictory": 0.04} and alpha == 0.05
    with pytest.raises(DataError, match="not a report folder"):
        planning(run, [answered], report=tmp_path)
    with pytest.raises(ConfigError, match="--task rubric"):
        planning(run, [answered], task="rubric")
    out = cli.invoke(app, [*base, "--report", str(tmp_path / "report")])
    assert "planned at contradictory δ = 0.02, α = 0.1 (the report" in out.output.replace("\n", " "), out.output


def test_parts_of_an_item_are_named_by_their_unit_and_ids_match_in_any_unicode_form(tmp_path: Path) -> None:
    """A set that checks parts of an item (HealthBench's criteria at a temperature: ``q1:hi:0.5:2``) takes a label
    by item, language and unit; an id written decomposed (a spreadsheet's NFD) is the set's NFC one."""
    from xlingmed.annotate.sample import write_set

    items = [{"id": f"café:hi:0.5:{k}", "item_id": "café", "lang": "hi", "question": "q", "reference": "r",
              "answer": "a", "judge_reasoning": "j", "label": "met", "weight": 0.5} for k in (1, 2)]  # fmt: skip
    settings = {"task": "healthbench", "labels": ["met", "not_met"], "label_names": {}, "paired": True}
    target = tmp_path / "set"
    write_set(target, settings, items, ["ana"])
    decomposed = "cafe\u0301"
    rows = [{"item_id": decomposed, "lang": "hi", "unit": "0.5:2", "annotator": "ana", "label": "not_met"}]
    done = import_labels(target, _write_csv(tmp_path / "parts.csv", rows))
    assert done.stored == 1 and _answers(target) == [("ana", "café:hi:0.5:2", "disagree", "not_met", "")]
    no_unit = _write_csv(tmp_path / "no_unit.csv", [{k: v for k, v in rows[0].items() if k != "unit"}])
    with pytest.raises(LabelFileError, match=r"column 'unit': no unit: the set holds several parts of item"):
        import_labels(target, no_unit)
    wrong = _write_csv(tmp_path / "wrong.csv", [{**rows[0], "unit": "0.7:1"}])
    with pytest.raises(LabelFileError, match=r"unit '0.7:1' is not one of item 'café' in hi \(0.5:1, 0.5:2\)"):
        import_labels(target, wrong)
