"""Issue 61: tables in the layouts and with the quirks of real published sets (MedAraBench's authors' CSV, the
AfriMed-QA expert set), with invented text: one odd row never stops a set, each is counted by reason, and
``--strict-data`` / ``xlingmed data check`` say which row and column."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from xlingmed.benchmarks import custom
from xlingmed.errors import DataError

# MedAraBench's published columns (nyuad-cai/MedAraBench, medarabench-test_split.csv), its answer-key forms
ROWS = [
    # (question, options A–F, key)
    ("Which nerve supplies the deltoid?", ["axillary", "radial", "ulnar", "median", "", ""], "A"),
    ("Which vessel is end-arterial?", ["renal artery", "aorta", "iliac", "femoral", "", ""], "a"),  # lower case
    ("Which cell makes insulin?", ["alpha", "beta", "delta", "PP", "", ""], "beta"),  # the option's text
    ("Which are muscles of mastication?", ["masseter", "temporalis", "buccinator", "orbicularis", "", ""], "A+B"),
    ("Which is a carpal bone?", ["scaphoid", "talus", "navicular", "cuboid", "", ""], "AorB"),  # either: skipped
    ("Which hormone is from the pineal gland?", ["melatonin", "renin", "TSH", "GH", "", ""], "E"),  # empty slot
    ("Which vitamin is fat-soluble?", ["C", "B1", "K", "B12", "-", ""], "C"),  # "-" placeholder: not shown
    ("Which lobe holds Broca's area?", ["frontal", "parietal", "occipital", "temporal", "", ""], "None of these"),
]


@pytest.fixture
def medarabench_csv(tmp_path: Path) -> Path:
    frame = pd.DataFrame(
        [
            {"Question Number": k + 1, "Question": q, **{f"Option {x}": t for x, t in zip("ABCDEF", opts, strict=True)},
             "Correct Answer": key, "Level": "Y2", "Medical Specialty": "Anatomy"}
            for k, (q, opts, key) in enumerate(ROWS)
        ]
    )  # fmt: skip
    path = tmp_path / "medarabench-test_split.csv"
    frame.to_csv(path, index=False)
    return path


def test_a_published_layout_loads_its_rows_and_counts_the_odd_ones(medarabench_csv: Path) -> None:
    items, prov = custom.load_items(f"mcq:{medarabench_csv}", ("ar",))
    assert prov["columns"] == {"item_id": "Question Number", "question": "Question", "answer": "Correct Answer",
                               "category": "Medical Specialty"}  # fmt: skip
    assert prov["option_columns"] == [f"Option {x}" for x in "ABCDEF"]
    gold = {it.item_id: it.gold_label for it in items}
    assert gold == {"1": "A", "2": "A", "3": "B", "4": "A,B", "7": "C"}
    assert prov["skipped"] == {"ar": {"alternative_answers": 1, "answer_empty_option": 1, "answer_not_an_option": 1}}
    assert [(r["row"], r["column"], r["reason"]) for r in prov["skipped_rows"]] == [
        (6, "Correct Answer", "alternative_answers"), (7, "Correct Answer", "answer_empty_option"),
        (9, "Correct Answer", "answer_not_an_option")]  # fmt: skip
    vitamin = next(it for it in items if it.item_id == "7")
    assert [c.text for c in vitamin.choices] == ["C", "B1", "K", "B12"]  # the "-" slot is never shown


def test_strict_data_stops_at_the_first_odd_row(medarabench_csv: Path) -> None:
    with pytest.raises(DataError, match=r"row 6, column 'Correct Answer'.*alternative_answers"):
        custom.load_items(f"mcq:{medarabench_csv}", ("ar",), strict=True)


def test_option_columns_can_be_named_as_published(tmp_path: Path) -> None:
    path = tmp_path / "set.csv"
    pd.DataFrame([{"stem": "Which?", "first": "x", "second": "y", "third": "z", "key": "B"}]).to_csv(path, index=False)
    items, prov = custom.load_items(f"mcq:{path}", ("en",),
                                    columns={"question": "stem", "answer": "key", "options": "first|second|third"})
    assert [(c.label, c.text) for c in items[0].choices] == [("A", "x"), ("B", "y"), ("C", "z")]
    assert items[0].gold_label == "B" and prov["option_columns"] == ["first", "second", "third"]


def test_data_check_prints_counts_skips_and_the_verification_record(medarabench_csv: Path) -> None:
    res = subprocess.run([sys.executable, "-m", "xlingmed.cli", "data", "check", f"mcq:{medarabench_csv}",
                          "--languages", "ar"], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "COLUMNS": "250"})  # fmt: skip
    assert res.returncode == 0, res.stderr
    text = " ".join(res.stdout.split())
    assert "5 items" in text and "answer_empty_option 1" in text and "A,B:1" in text
    assert "skipped: row 6, column 'Correct Answer' (ar): alternative_answers" in text and "verified on:" in text
    bad = subprocess.run([sys.executable, "-m", "xlingmed.cli", "data", "check", f"mcq:{medarabench_csv}",
                          "--languages", "ar", "--strict-data"], capture_output=True, text=True,
                         timeout=120)  # fmt: skip
    assert bad.returncode == 2 and "row 6" in bad.stderr + bad.stdout


def test_dry_run_says_what_the_data_lost_before_any_request(medarabench_csv: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from xlingmed.cli import app

    result = CliRunner().invoke(app, ["run", "--benchmark", f"mcq:{medarabench_csv}", "--languages", "ar",
                                      "--dry-run", "--out", str(tmp_path / "run")], env={"COLUMNS": "400"})  # fmt: skip
    text = " ".join(result.output.split())
    assert result.exit_code == 0, result.output
    assert ("3 row(s) of the data could not be items and were skipped (ar: alternative_answers 1, "
            "answer_empty_option 1, answer_not_an_option 1)") in text  # fmt: skip
    assert not (tmp_path / "run").exists()


def test_multimed_x_nli_as_the_authors_sample_files_hold_it(tmp_path: Path) -> None:
    """Only Japanese rows, English in an ``EN`` column beside each, one hypothesis marker mid-line (the authors'
    BioNLI sample, astridesa/Med-CoReasoner, with invented text)."""
    import json

    from xlingmed.benchmarks import load_benchmark

    folder = tmp_path / "li-lab" / "MultiMed-X"
    folder.mkdir(parents=True)
    rows = [
        {"id": "bionli-jp-001", "lang": "jp", "task": "nli", "label": "entailment",
         "text": "\n前提:\n薬は血圧を下げた。\n\n仮説:\n薬は血圧を下げる",
         "EN": "Premise: it lowered.\nHypothesis: it lowers"},
        {"id": "bionli-jp-002", "lang": "jp", "task": "nli", "label": "contradiction",
         "text": "前提: 薬は血圧を下げた。仮説: 薬は血圧を上げる", "EN": "Premise: it lowered.\nHypothesis: it raises"},
        {"id": "bionli-jp-003", "lang": "jp", "task": "nli", "label": "entailment",
         "text": "前提: 薬は血圧を下げた。", "EN": "Premise: it lowered.\nHypothesis: it lowers"},
    ]  # fmt: skip
    (folder / "multimed_x.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    items, prov = load_benchmark("multimed-x/nli", tmp_path, ["en", "ja"])
    by = {(it.lang, it.item_id): it for it in items}
    assert sorted(by) == [("en", f"bionli-00{k}") for k in (1, 2, 3)] + [("ja", "bionli-001"), ("ja", "bionli-002")]
    assert by[("ja", "bionli-002")].negatives == ("薬は血圧を上げる",)  # its hypothesis marker mid-line
    assert by[("en", "bionli-002")].negatives == ("it raises",)
    assert prov["skipped"] == {"ja": {"no_hypothesis_marker": 1}}


def test_the_liveqa_join_finds_copies_the_authors_edited() -> None:
    """MultiMed-X's English copies of LiveQA questions as its files hold them (invented text): HTML entities
    decoded, a subject line put first, names and places masked; a short question is never a long one's match."""
    from xlingmed.benchmarks.hub.multimed_x_liveqa import join_by_text

    liveqa = {
        "l1": "I was a drinker for years &amp; have trouble walking &amp; take thiamin. What else can I take?",
        "l2": "Can sepsis be prevented. Can someone get this from a hospital?",
        "l3": "Hello, my name is Ana Lopez and I study at Grant High School in Fresno. I write a report on SIDS and "
              "would like to know whether parents should worry about crib death and where to read more about it.",
        "l4": "Is aspirin safe?",
    }  # fmt: skip
    multimed = {
        "001": "I was a drinker for years & have trouble walking & take thiamin. What else can I take?",
        "002": "Sepsis. Can sepsis be prevented. Can someone get this from a hospital?",
        "003": "Hello, my name is [NAME] and I study at [LOCATION] in [LOCATION]. I write a report on SIDS and "
               "would like to know whether parents should worry about crib death and where to read more about it.",
        "004": "Is aspirin safe for a child of four with a fever of 39 degrees and a rash on both arms?",
    }  # fmt: skip
    joined, counts = join_by_text(multimed, liveqa)
    assert joined == {"001": ("l1", "exact"), "002": ("l2", "edited"), "003": ("l3", "edited")}
    assert (counts["exact"], counts["near"], counts["edited"], counts["unmatched"]) == (1, 0, 2, 1)


def test_a_word_that_is_an_answer_is_never_a_placeholder(tmp_path: Path) -> None:
    """HEAD-QA's chemistry: "Na" (sodium) is an option and the answer; CareQA: two options alike are flagged."""
    path = tmp_path / "set.csv"
    pd.DataFrame([
        {"id": "q1", "question": "Which ion is mostly outside cells?", "A": "Na", "B": "Mg.", "C": "Cl-.", "D": "Zn.",
         "answer": "A"},
        {"id": "q2", "question": "Which is a viral rash?", "A": "Measles.", "B": "Measles.", "C": "Acne.", "D": "N/A",
         "answer": "A"},
    ]).to_csv(path, index=False)  # fmt: skip
    items, prov = custom.load_items(f"mcq:{path}", ("en",))
    assert [c.text for c in items[0].choices] == ["Na", "Mg.", "Cl-.", "Zn."] and items[0].gold_label == "A"
    assert [c.text for c in items[1].choices] == ["Measles.", "Measles.", "Acne."]
    assert prov["flagged_items"] == {"q2/en": ["duplicate_option_text"]} and prov["skipped"] == {}


def test_head_qa_reads_the_authors_release_json(tmp_path: Path) -> None:
    """HEAD-QA v1 as aghie/head-qa publishes it (``test_HEAD.json``, ``HEAD_EN.json``; invented text): numbered
    options, ``ra`` and ``qid`` as strings, a figure's path in ``image``; paired by exam name and qid."""
    import json

    from xlingmed.benchmarks import load_benchmark

    def release(lang: str, texts: tuple[str, str]) -> dict[str, object]:
        data = [{"qid": "1", "qtext": texts[0], "ra": "2", "image": "",
                 "answers": [{"aid": 1, "atext": "Fibronectin."}, {"aid": 2, "atext": "Collagen."},
                             {"aid": 3, "atext": "Integrins."}, {"aid": 4, "atext": "Na"}]},
                {"qid": "2", "qtext": texts[1], "ra": "4", "image": "images/fig2.png",
                 "answers": [{"aid": k, "atext": f"option {k}"} for k in range(1, 5)]}]  # fmt: skip
        return {"version": "1.0", "language": lang,
                "exams": {"Cuaderno_2016_1_B": {"name": "Cuaderno_2016_1_B", "category": "biology", "year": "2016",
                                                "data": data}}}  # fmt: skip

    spanish, english = release("es", ("¿Qué forma fibras?", "Vea la figura.")), release("en", ("What?", "See it."))
    (tmp_path / "test_HEAD.json").write_text(json.dumps(spanish), "utf-8")
    (tmp_path / "HEAD_EN.json").write_text(json.dumps(english), "utf-8")
    items, prov = load_benchmark("head-qa", tmp_path, ["es", "en"], hf_split="test")
    assert [(it.lang, it.item_id, it.gold_label) for it in items] == [
        ("es", "Cuaderno_2016_1_B_1", "B"), ("en", "Cuaderno_2016_1_B_1", "B"),
        ("es", "Cuaderno_2016_1_B_2", "D"), ("en", "Cuaderno_2016_1_B_2", "D")]  # fmt: skip
    assert [c.raw_label for c in items[0].choices] == ["1", "2", "3", "4"] and items[1].choices[3].text == "Na"
    assert prov["paired_items"] == 2 and prov["reference_rules"] == {"es": {"figure_not_shown": 1},
                                                                     "en": {"figure_not_shown": 1}}  # fmt: skip


def test_multimed_x_reads_the_authors_sample_spreadsheets(tmp_path: Path) -> None:
    """``MultiMed-X/liveqa/liveqa_jp_200.xlsx`` (``EN``, ``jp``) and ``bionli/bionli_jp_150.xlsx`` (and
    ``gold_label``) as astridesa/Med-CoReasoner publishes them (invented text): loaded as they are, paired."""
    from xlingmed.benchmarks import load_benchmark

    root = tmp_path / "MultiMed-X"
    (root / "liveqa").mkdir(parents=True)
    (root / "bionli").mkdir()
    pd.DataFrame({
        "EN": ["Question:\nIs aspirin safe?\nAnswer:\nMostly.", "Question:\nWhat is gout?\nAnswer:\nA joint disease."],
        "jp": ["質問:\nアスピリンは安全ですか？\n回答:\n概ね安全です。", "質問:\n痛風とは？\n回答:\n関節の病気です。"],
    }).to_excel(root / "liveqa" / "liveqa_jp_2.xlsx", index=False)  # fmt: skip
    pd.DataFrame({
        "EN": ["\nPremise:\nIt lowered pressure.\nHypothesis:\nIt lowers pressure."],
        "jp": ["前提: 血圧を下げた。仮説: 血圧を下げる。"], "gold_label": ["entailment"],
    }).to_excel(root / "bionli" / "bionli_jp_1.xlsx", index=False)  # fmt: skip
    qa, _ = load_benchmark("multimed-x", tmp_path, ["en", "ja"])
    assert sorted((it.lang, it.item_id) for it in qa) == [(lg, f"qa-00{k}") for lg in ("en", "ja") for k in (1, 2)]
    assert next(it for it in qa if it.lang == "ja" and it.item_id == "qa-002").reference == "関節の病気です。"
    nli, _ = load_benchmark("multimed-x/nli", tmp_path, ["en", "ja"])
    assert [(it.lang, it.reference) for it in nli] == [("en", "It lowers pressure."), ("ja", "血圧を下げる。")]


def test_data_check_on_a_hub_fixture_with_broken_rows(tmp_path: Path) -> None:
    """AfriMed-QA's hub layout with a key naming an "n/a" slot, a row outside the reference's population and a
    crowd row: the expert set, the skipped row by reason, the verification record."""
    from hub_fixtures import afrimed_qa

    root = afrimed_qa(tmp_path / "data")
    res = subprocess.run([sys.executable, "-m", "xlingmed.cli", "data", "check", "afrimed-qa", "--data-dir", str(root)],
                         capture_output=True, text=True, timeout=120, env={**os.environ, "COLUMNS": "250"})  # fmt: skip
    assert res.returncode == 0, res.stderr
    text = " ".join(res.stdout.split())
    assert "afrimed-qa: 6 items" in text and "answer_empty_option 1" in text
    assert "verified on: intron-innovation/AfriMed-QA @9bb0ffc03ef4" in text


def test_list_benchmarks_shows_what_each_loader_was_run_on() -> None:
    res = subprocess.run([sys.executable, "-m", "xlingmed.cli", "list", "benchmarks"], capture_output=True, text=True,
                         timeout=120, env={**os.environ, "COLUMNS": "300"})  # fmt: skip
    assert res.returncode == 0, res.stderr
    text = " ".join(res.stdout.replace("│", " ").split())
    assert "real files each loader was run on" in text and "nyuad-cai/MedAraBench @be4d68064bc9" in text
    assert "kormedmcqa unverified: layout from the dataset card" in text
