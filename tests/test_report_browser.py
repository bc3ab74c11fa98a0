"""The report of the suite's real run with all three criteria (``conftest.full_run``), built by the CLI and opened
in headless Chromium.

Chromium is Debian's ``chromium`` package (``apt-get install chromium``), driven through Playwright with that
executable; Playwright's own browser download is never used. Without the executable the browser test is
skipped with the reason (``.ci/run`` installs it).
"""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import FullRun, chromium_page, keep_artifact
from typer.testing import CliRunner

from xlingmed.cli import app

pytestmark = pytest.mark.slow


def test_run_writes_report_with_every_criterion(full_run: FullRun) -> None:
    report = full_run.out / "report"
    figures = {p.name for p in (report / "figures").iterdir()}
    assert figures == {
        "forest.png",
        "correctness.png",
        "consistency_lines.png",
        "consistency_boxes.png",
        "verifiability.png",
    }
    for name in figures:
        png = (report / "figures" / name).read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = struct.unpack(">II", png[16:24])
        assert width >= 400 and height >= 200, (name, width, height)
    stats = {p.name for p in (report / "stats").iterdir()}
    assert {"gaps.csv", "paired.csv", "omnibus.csv", "paper_anova.csv", "paper_tukey.csv"} <= stats
    html = (report / "index.html").read_text(encoding="utf-8")
    assert html.count("data:image/png;base64,") == len(figures)
    assert re.search(r'(src|href)="(?!data:|#)', html) is None  # no external resource
    assert "built-in method" not in html and "items per language\nen: 2, zh: 2, hi: 2;" in html
    assert "Engines: llamacpp/smollm2: llama-cpp-python 0." in html  # the engine behind model, judge, translator
    summary = json.loads((full_run.out / "summary.json").read_text(encoding="utf-8"))
    assert set(summary["tasks"]) == {"correctness", "verifiability", "consistency"}


def test_report_rebuilds_offline_in_under_a_minute(full_run: FullRun, tmp_path: Path, minilm_path: str) -> None:
    margins = "contradictory=0.5,verifiability_f1=0.25"
    result = CliRunner().invoke(
        app,
        ["report", str(full_run.out), "--out", str(tmp_path / "again"), "--margin", margins, "--equivalence",
         "--answer-encoder", minilm_path],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert (tmp_path / "again" / "index.html").is_file()
    # the verdicts: 2 items per language can decide nothing, whatever the margin, and say how many would
    verdicts = pd.read_csv(tmp_path / "again" / "stats" / "verdicts.csv")
    assert sorted(zip(verdicts["outcome"], verdicts["lang"], strict=True)) == [
        (o, lg) for o in ("contradictory", "verifiability_f1") for lg in ("hi", "zh")
    ]
    # correctness pairs both items; macro-F1 pairs the items with a claim read yes or no in both languages
    assert set(verdicts["verdict"]) == {"inconclusive"}
    assert set(verdicts[verdicts["outcome"] == "contradictory"]["n_items"]) == {2}
    assert set(verdicts["margin"]) == {0.5, 0.25} and "p_equivalence_holm" in verdicts
    for n, reason in zip(verdicts["n_items"], verdicts["reason"], strict=True):
        if n:
            assert reason == f"{n} paired item{'' if n == 1 else 's'}, fewer than 20"
        else:
            assert reason.startswith("no item scored in both")
    html = (tmp_path / "again" / "index.html").read_text(encoding="utf-8")
    assert "llamacpp/smollm2 on xlinghealth/medicationqa, each language against English" in html
    assert "Chinese: inconclusive on contradictory*" in html and "(2 paired items, " in html
    assert "Margins: contradictory δ = 50.0 percentage points" in html
    text = (tmp_path / "again" / "verdict.txt").read_text(encoding="utf-8")
    assert text.startswith("llamacpp/smollm2 on xlinghealth/medicationqa")
    assert " ".join(text.split()) in " ".join(result.output.split())  # the CLI printed it (rich wraps lines)
    # cross-lingual agreement of the judge's labels and the claims' yes/no with English, per language and τ
    agree = pd.read_csv(tmp_path / "again" / "stats" / "crosslingual_agreement.csv")
    assert set(agree["task"]) == {"correctness", "verifiability"}
    assert set(agree["lang"]) == {"zh", "hi", "all"}
    corr = agree[agree["task"] == "correctness"]
    assert len(corr) == 3 and set(corr["n_items"] + corr["n_unread"]) == {2}
    assert set(agree[agree["task"] == "verifiability"]["temperature"]) == {0.0, 1.0}
    # the answers themselves against the English answer to the same item, embedded by the named encoder
    similar = pd.read_csv(tmp_path / "again" / "stats" / "crosslingual_similarity.csv", dtype={"item_id": str})
    assert set(similar["task"]) == {"correctness"} and set(similar["lang"]) == {"zh", "hi"}
    from xlingmed.metrics.embedding import SentenceSimilarity, cosine_matrix

    answers = pd.read_csv(full_run.out / "correctness.csv", dtype={"item_id": str}).set_index(["lang", "item_id"])
    hi = similar.set_index("lang").loc["hi"]
    pairs = [(answers.loc[("en", i), "answer"], answers.loc[("hi", i), "answer"]) for i in answers.loc["en"].index]
    pairs = [(a, b) for a, b in pairs if isinstance(a, str) and a.strip() and isinstance(b, str) and b.strip()]
    assert hi["n_items"] == len(pairs) and pairs  # the toy model answers every question in both languages
    enc = SentenceSimilarity(minilm_path)
    sims = [cosine_matrix(np.stack([enc.encode([a])[a], enc.encode([b])[b]]))[0, 1] for a, b in pairs]
    assert hi["mean"] == pytest.approx(float(np.mean(sims)), abs=1e-5)
    # the run's own report used the documented default margins
    default = pd.read_csv(full_run.out / "report" / "stats" / "verdicts.csv")
    assert set(default["margin"]) == {0.05, 0.03}
    bad = CliRunner().invoke(app, ["report", str(full_run.out), "--out", str(tmp_path / "bad"), "--margin", "acc=1"])
    assert bad.exit_code != 0 and "unknown outcome 'acc'" in bad.output and not (tmp_path / "bad").exists()


def test_report_opens_in_headless_chromium(full_run: FullRun, tmp_path: Path) -> None:
    index = full_run.out / "report" / "index.html"
    problems: list[str] = []
    requests: list[str] = []
    with chromium_page(problems) as page:
        page.on("request", lambda r: requests.append(r.url))
        page.goto(index.as_uri(), wait_until="load")
        images = page.evaluate(
            "Array.from(document.images).map(i => ({alt: i.alt, ok: i.complete, w: i.naturalWidth,"
            " h: i.naturalHeight}))"
        )
        headings = page.evaluate("Array.from(document.querySelectorAll('h2')).map(h => h.textContent)")
        shot = tmp_path / "report.png"
        page.screenshot(path=str(shot), full_page=True)
        verdict = tmp_path / "verdict.png"
        page.locator("#verdict1").screenshot(path=str(verdict))
        paragraph = page.locator("#verdict1 p.verdict").inner_text()
        notes = page.locator("#verdict1 p.verdict-note").all_inner_texts()
    assert problems == []
    # every figure decoded, and nothing was fetched beyond the page itself and its data: URIs
    assert len(images) == 5
    assert all(im["ok"] and im["w"] >= 400 and im["h"] >= 200 for im in images), images
    assert [u for u in requests if not u.startswith(("data:", "file:"))] == []
    assert paragraph.startswith("llamacpp/smollm2 on xlinghealth/medicationqa, each language against English")
    assert notes[0].startswith("* Judge-unverified")  # the toy judge was never compared with humans
    assert headings, "the page has no sections"
    data = shot.read_bytes()
    width, height = struct.unpack(">II", data[16:24])
    assert width == 1280 and height > 2000  # a long page: tables and five figures
    assert len(data) > 100_000
    keep_artifact(shot, "report.png")  # CI and the closing note keep the screenshots
    keep_artifact(verdict, "verdict.png")
