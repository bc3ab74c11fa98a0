"""Bad input, tried systematically through the command line: every case exits non-zero with a message that names
the file and row/column (or the config field), prints no traceback, and writes no run folder."""

from __future__ import annotations

import codecs
import json
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from xlingmed.cli import app

runner = CliRunner()

QA_HEADER = "id,lang,question,reference\n"
QA_ROWS = "q1,en,What is aspirin?,A pain reliever.\nq2,en,What is insulin?,A hormone.\nq3,en,What is a fever?,Heat.\n"


def _csv(text: str | bytes, name: str = "items.csv", *, strict: bool = False) -> Callable[[Path], list[str]]:
    """A qa:FILE benchmark from this CSV content (``strict``: ``--strict-data``, an odd row stops the run)."""

    def make(tmp: Path) -> list[str]:
        path = tmp / name
        path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
        strict_args = ["--strict-data"] if strict else []
        return ["--benchmark", f"qa:{path}", "--languages", "en", "--tasks", "verifiability", *strict_args]

    return make


def _mcq(text: str, *extra: str) -> Callable[[Path], list[str]]:
    def make(tmp: Path) -> list[str]:
        path = tmp / "mcq.csv"
        path.write_text(text, encoding="utf-8")
        return ["--benchmark", f"mcq:{path}", "--languages", "en", *extra]

    return make


def _xlsx(frame: dict[str, list[object]], sheet: str = "Sheet1") -> Callable[[Path], list[str]]:
    """A LiveQA.xlsx in a data folder of its own."""

    def make(tmp: Path) -> list[str]:
        data = tmp / "data"
        data.mkdir()
        pd.DataFrame(frame).to_excel(data / "LiveQA.xlsx", sheet_name=sheet, index=False)
        return ["--benchmark", "xlinghealth/liveqa", "--data-dir", str(data), "--languages", "en"]

    return make


def _yaml(text: str) -> Callable[[Path], list[str]]:
    def make(tmp: Path) -> list[str]:
        (tmp / "run.yaml").write_text(text, encoding="utf-8")
        (tmp / "items.csv").write_text(QA_HEADER + QA_ROWS, encoding="utf-8")
        return ["--config", str(tmp / "run.yaml"), "--benchmark", f"qa:{tmp / 'items.csv'}", "--languages", "en"]

    return make


def _flags(*flags: str) -> Callable[[Path], list[str]]:
    def make(tmp: Path) -> list[str]:
        (tmp / "items.csv").write_text(QA_HEADER + QA_ROWS, encoding="utf-8")
        return ["--benchmark", f"qa:{tmp / 'items.csv'}", "--languages", "en", "--tasks", "verifiability", *flags]

    return make


def _not_xlsx(tmp: Path) -> list[str]:
    (tmp / "data").mkdir()
    (tmp / "data" / "LiveQA.xlsx").write_text("id,label\n")
    return ["--benchmark", "xlinghealth/liveqa", "--data-dir", str(tmp / "data"), "--languages", "en"]


def _medarabiq(content: bytes) -> Callable[[Path], list[str]]:
    """A MedArabiQ multiple-choice file (synthetic) in a data folder of its own."""

    def make(tmp: Path) -> list[str]:
        (tmp / "mq").mkdir()
        (tmp / "mq" / "multiple-choice-questions.csv").write_bytes(content)
        return ["--benchmark", "medarabiq/mcq", "--data-dir", str(tmp / "mq")]

    return make


LIVEQA_OK = {"id": [0, 0], "label": [1, 0], "question_English": ["q", "q"], "answer_English": ["a", "b"]}

CASES: dict[str, tuple[Callable[[Path], list[str]], list[str]]] = {
    # spreadsheets: sheet, header, types, duplicates
    "xlsx wrong sheet": (_xlsx(LIVEQA_OK, sheet="Data"), ["LiveQA.xlsx", "unknown layout", "found sheets ['Data']"]),
    "xlsx wrong header": (
        _xlsx({**{k: v for k, v in LIVEQA_OK.items() if k != "question_English"}, "Question_english": ["q", "q"]}),
        ["LiveQA.xlsx", "sheet 'Sheet1'", "missing column(s) question_English"],
    ),
    "xlsx wrong type": (
        _xlsx({**LIVEQA_OK, "id": [0, "zero"]}),
        ["LiveQA.xlsx", "row 3", "column 'id'", "expected an integer, found 'zero'"],
    ),
    "xlsx label not 0/1": (_xlsx({**LIVEQA_OK, "label": [1, 2]}), ["row 3", "column 'label'", "must be 0 or 1"]),
    "xlsx duplicate positive": (_xlsx({**LIVEQA_OK, "label": [1, 1]}), ["LiveQA.xlsx", "row 3", "positive"]),
    "not an xlsx": (_not_xlsx, ["LiveQA.xlsx", "cannot read as xlsx"]),
    # CSV files of one's own: columns, cells, languages, ids, sizes, encodings
    "csv missing column": (_csv("id,lang,prompt_text,reference\nq1,en,x,y\n"), ["items.csv", "no question column"]),
    "csv mapped column absent": (
        lambda tmp: [*_csv(QA_HEADER + QA_ROWS)(tmp), "--columns", "question=stem"],
        ["items.csv", "no column 'stem' (mapped to question)"],
    ),
    "csv whitespace cell": (
        _csv(QA_HEADER + "q1,en,What is aspirin?,A pain reliever.\nq2,en,   ,A hormone.\n", strict=True),
        ["items.csv", "row 3", "column 'question'", "empty question"],
    ),
    "csv empty reference": (
        _csv(QA_HEADER + "q1,en,What is aspirin?,\n"),
        ["items.csv", "row 2", "column 'reference'", "empty reference"],
    ),
    "csv unknown language": (
        _csv(QA_HEADER + "q1,en,What is aspirin?,A pain reliever.\nq1,xx,Was ist das?,Ein Mittel.\n"),
        ["items.csv", "row 3", "column 'lang'", "unknown language code 'xx'"],
    ),
    "csv duplicate id": (
        _csv(QA_HEADER + QA_ROWS + "q2,en,What is insulin again?,A hormone.\n"),
        ["items.csv", "row 5", "column 'id'", "duplicate item id 'q2'"],
    ),
    "csv huge cell": (
        _csv(QA_HEADER + QA_ROWS + "q4,en," + "x" * 250_000 + ",y\n"),
        ["items.csv", "row 5", "column 'question'", "250,000 characters"],
    ),
    "csv unclosed quote": (
        _csv(QA_HEADER + 'q1,en,"What is aspirin?,A pain reliever.\n' + ("q9,en,x,y\n" * 30_000)),
        ["items.csv", "row 2", "unclosed quote"],
    ),
    "csv extra field in every row": (
        _csv("id,lang,question,reference\nq1,en,What dose?,500 mg, at most 4 g\nq2,en,And?,Food, water\n"),
        ["items.csv", "row 2", "5 fields where the header has 4"],
    ),
    "csv extra field": (
        _csv(QA_HEADER + "q1,en,What is aspirin?,A pain reliever.\nq2,en,What is it, really?,A hormone.\n"),
        ["items.csv", "row 3", "5 fields where the header has 4"],
    ),
    "csv latin-1": (
        _csv((QA_HEADER + "q1,en,Qu'est-ce que la fièvre?,Chaleur.\n").encode("latin-1")),
        ["items.csv", "row 2", "not UTF-8 (byte 0xe8 at line 2)"],
    ),
    "csv bad utf-16": (_csv(codecs.BOM_UTF16_LE + b"\x00\xd8"), ["items.csv", "not valid UTF-16"]),
    "csv unknown extension": (_csv(QA_HEADER + QA_ROWS, name="items.xls"), ["items.xls", "unknown file type"]),
    "jsonl truncated": (
        _csv('{"question": "q", "reference": "r"}\n{"question": "q2", "refer', name="i.jsonl"),
        ["i.jsonl", "cannot read"],
    ),
    "medarabiq not utf-8": (
        _medarabiq("Category,Question,Answer\nx,\u00e9t\u00e9 A. a B. b,A\n".encode("latin-1")),
        ["multiple-choice-questions.csv", "not UTF-8 (byte 0xe9 at line 2"],
    ),
    "medarabiq wrong header": (
        _medarabiq(b"Categry,Question,Answer\nx,q,A\n"),
        ["multiple-choice-questions.csv", "Category"],
    ),
    # multiple choice answers of the wrong type
    "mcq answer not an option": (
        _mcq("question,A,B,C,D,answer\nWhich?,x,y,z,w,E\n"),
        ["mcq.csv", "row 2", "column 'answer'"],
    ),
    "mcq index out of range": (
        _mcq("question,A,B,C,D,answer\nWhich?,x,y,z,w,9\n", "--answer-format", "index1"),
        ["mcq.csv", "row 2", "column 'answer'"],
    ),
    # configuration
    "yaml malformed": (_yaml("limit: 2\ntasks: [verifiability\n"), ["run.yaml", "line 2"]),
    "yaml not a mapping": (_yaml("- limit\n- 2\n"), ["run.yaml", "expected a mapping"]),
    "yaml unknown field": (_yaml("limt: 2\n"), ["run.yaml", "limt: Extra inputs are not permitted"]),
    "yaml wrong type": (_yaml("limit: many\n"), ["run.yaml", "limit: Input should be a valid integer"]),
    "yaml bad choice": (
        _yaml("mc_prompt: fancy\n"), ["run.yaml", "mc_prompt: Input should be 'raw', 'structured' or 'answer_line'"]
    ),
    "unknown provider": (_flags("--model", "anthropicx/claude"), ["unknown model provider 'anthropicx'"]),
    "model without provider": (_flags("--model", "gpt-4o"), ["must be named provider/model"]),
    "unknown language flag": (_flags("--languages", "en,klingon"), ["unknown language code 'klingon'"]),
    "malformed price": (_flags("--price", "openai/m=cheap"), ["prices: openai/m: expected two numbers"]),
    "negative limit": (_flags("--limit", "0"), ["limit: Input should be greater than or equal to 1"]),
    "out is a foreign folder": (
        lambda tmp: (tmp / "run").mkdir() or ((tmp / "run" / "notes.txt").write_text("mine") and _flags()(tmp)),
        ["--out", "is not an xlingmed run folder"],
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_bad_input_is_named_and_writes_nothing(case: str, tmp_path: Path) -> None:
    make, expected = CASES[case]
    args = make(tmp_path)
    out = tmp_path / "run"
    preexisting = sorted(p.name for p in out.iterdir()) if out.exists() else None
    result = runner.invoke(app, ["run", *args, "--out", str(out), "--quiet"], env={"COLUMNS": "400"})
    text = " ".join(result.output.split())
    assert result.exit_code == 2, (result.exit_code, text, result.exception)
    assert "Traceback" not in text
    for fragment in expected:
        assert fragment in text, (fragment, text)
    if preexisting is None:
        assert not out.exists()
    else:
        assert sorted(p.name for p in out.iterdir()) == preexisting  # a foreign folder is left alone


@pytest.mark.parametrize(
    "encoding", ["utf-8", "utf-8-sig", "utf-16"], ids=["utf-8", "utf-8 with BOM", "utf-16 with BOM"]
)
def test_accepted_encodings_read_the_same_items(encoding: str, tmp_path: Path) -> None:
    path = tmp_path / "items.csv"
    path.write_bytes((QA_HEADER + QA_ROWS + "q4,en,¿Qué es la fiebre? 发烧,Calor.\n").encode(encoding))
    result = runner.invoke(
        app,
        ["run", "--benchmark", f"qa:{path}", "--languages", "en", "--tasks", "verifiability", "--dry-run",
         "--out", str(tmp_path / "run")],
        env={"COLUMNS": "400"},
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "(dry run: no model called)" in result.output
    from xlingmed.benchmarks.custom import load_items

    items, _ = load_items(f"qa:{path}", ["en"])
    assert [it.question for it in items] == ["What is aspirin?", "What is insulin?", "What is a fever?",
                                             "¿Qué es la fiebre? 发烧"]  # fmt: skip
    assert not (tmp_path / "run").exists()


def test_bad_input_cases_cover_the_issue_list() -> None:
    kinds = " ".join(CASES)
    for kind in ("sheet", "header", "missing column", "whitespace", "wrong type", "unknown language", "duplicate",
                 "huge", "latin-1", "utf-16", "yaml malformed", "unknown provider"):  # fmt: skip
        assert kind in kinds, kind
    json.dumps(sorted(CASES))
