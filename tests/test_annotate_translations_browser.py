"""Translation rating end to end in headless Chromium (XLingEval App. A, Table A2): the real ``xlingmed annotate
serve``; two annotators rate every translation by clicking the 1–5 scales; an Arabic translation renders right to
left beside its left-to-right English source, Hindi as Devanagari; the engine is never on the page; a ``<script>``
in a translation is shown as text and never runs; one annotator's token neither sees nor writes the other's
ratings; ``annotate export`` gives the Table A2 figures that follow from what was clicked."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import chromium_page, free_port, keep_artifact
from typer.testing import CliRunner

from xlingmed.annotate import RatingStore, build_translation_set, load_annotation_set
from xlingmed.cli import app

GPT, SMOL = "openai/gpt-4o", "llamacpp/smollm2"
XSS = "<script>window.__pwned = 1</script><img src=x onerror=window.__pwned=2>"
EN = {"q1": "What is the usual adult dose of paracetamol?", "q2": "Can I take ibuprofen with food?"}
TRANSLATED = {
    (GPT, "ar", "q1"): "ما هي الجرعة المعتادة من الباراسيتامول للبالغين؟",
    (GPT, "ar", "q2"): "هل يمكنني تناول الإيبوبروفين مع الطعام؟",
    (GPT, "hi", "q1"): "वयस्कों के लिए पैरासिटामोल की सामान्य खुराक क्या है?",
    (SMOL, "ar", "q1"): "ما الجرعة العادية للباراسيتامول عند الكبار؟",
    (SMOL, "ar", "q2"): f"هل آخذ الإيبوبروفين مع الأكل؟ {XSS}",
    (SMOL, "hi", "q1"): "वयस्क के लिए पेरासिटामोल की आम मात्रा क्या है?",
}
# what each annotator clicks: GPT-4o (fluency 5, meaning 4), SmolLM2 (3, 2); ben differs on two items
CLICKS = {
    "ana": lambda it: (5, 4) if it["translator"] == GPT else (3, 2),
    "ben": lambda it: {("q2", "ar", GPT): (4, 4), ("q1", "hi", SMOL): (3, 3)}.get(
        (it["item_id"], it["lang"], it["translator"]), (5, 4) if it["translator"] == GPT else (3, 2)
    ),
}


def _row(item_id: str, lang: str, question: str, engine: str = "") -> dict[str, Any]:
    return {
        "item_id": item_id,
        "lang": lang,
        "question": question,
        "reference": "",
        "source_lang": "en" if engine else "",
        "translator": engine,
        "qe_chrf": 55.0 if engine else None,
        "flagged": False,
        "flag_reason": "",
    }


@pytest.fixture
def rating_set(tmp_path: Path) -> Path:
    gpt = tmp_path / "engine_a.jsonl"
    gpt.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in
                [*(_row(i, "en", q) for i, q in EN.items()),
                 *(_row(i, lang, text, e) for (e, lang, i), text in TRANSLATED.items() if e == GPT)]),
        encoding="utf-8",
    )  # fmt: skip
    smol = tmp_path / "engine_b.csv"
    with smol.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(_row("q", "en", "")))
        writer.writeheader()
        for (e, lang, i), text in TRANSLATED.items():
            if e == SMOL:
                writer.writerow({k: "" if v is None else v for k, v in _row(i, lang, text, e).items()})
    build_translation_set([gpt, smol], tmp_path / "set", per_language=5, seed=2, annotators=["ana", "ben"])
    return tmp_path / "set"


class Server:
    def __init__(self, set_dir: Path) -> None:
        self.set_dir, self.port = set_dir, free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "xlingmed.cli", "annotate", "serve", str(set_dir), "--port", str(self.port)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        # polled until it answers: the deadline only stops a server that never starts, no outcome hangs on it
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.base + "/", timeout=1)
            except urllib.error.HTTPError:
                return  # the root answers 404: the server is up
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("annotation server did not start")


@pytest.fixture
def server(rating_set: Path) -> Iterator[Server]:
    s = Server(rating_set)
    yield s
    s.proc.terminate()
    s.proc.wait()


@pytest.mark.slow
def test_two_annotators_rate_translations_in_a_real_browser(server: Server, rating_set: Path, tmp_path: Path) -> None:
    aset = load_annotation_set(rating_set)
    items = aset.items
    assert len(items) == 6
    link = {who: f"{server.base}/a/{aset.annotators[who]}" for who in ("ana", "ben")}
    problems: list[str] = []
    with chromium_page(problems, width=1200, height=900) as page:
        dialogs: list[str] = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))

        # ana: every item, by clicking the radios and the save button
        page.goto(link["ana"])
        assert page.url.endswith("/1") and page.locator("#progress").inner_text() == "1 of 6 · 0 of 6 done"
        for k, it in enumerate(items, start=1):
            assert page.url.endswith(f"/{k}")
            html = page.content()
            assert not any(name in html for name in (GPT, SMOL, "gpt-4o", "smollm2", "engine_"))  # blind
            assert page.locator("#source").inner_text() == EN[it["item_id"]]
            assert (page.locator("#source").get_attribute("lang"), page.locator("#source").get_attribute("dir")) == (
                "en", "ltr",
            )  # fmt: skip
            translation = page.locator("#translation")
            assert translation.inner_text() == TRANSLATED[(it["translator"], it["lang"], it["item_id"])]
            if it["lang"] == "ar":
                assert (translation.get_attribute("lang"), translation.get_attribute("dir")) == ("ar", "rtl")
                assert translation.evaluate("e => getComputedStyle(e).direction") == "rtl"
                assert page.locator("#source").evaluate("e => getComputedStyle(e).direction") == "ltr"
                assert page.locator("#fluency-question").inner_text() == (
                    "Is the Arabic version a good translation of the English text?"
                )
                assert page.locator("#meaning-question").inner_text() == (
                    "Does the Arabic version faithfully convey the same meaning as the English text?"
                )
                if XSS in translation.inner_text():  # shown as text, never run
                    shot = tmp_path / "translation_rating.png"
                    page.screenshot(path=str(shot), full_page=True)
                    keep_artifact(shot, "translation_rating.png")
            else:
                assert (translation.get_attribute("lang"), translation.get_attribute("dir")) == ("hi", "ltr")
                assert "Hindi version" in page.locator("#fluency-question").inner_text()
            assert page.locator(".choices label").first.inner_text().strip() == "1 strongly disagree"
            fluency, meaning = CLICKS["ana"](it)
            page.check(f"#fluency-{fluency}")
            page.check(f"#meaning-{meaning}")
            with page.expect_navigation():
                page.click("#save")
        assert page.locator("#progress").inner_text() == "6 of 6 · 6 of 6 done"
        assert page.evaluate("window.__pwned") is None and not dialogs

        # previous ratings come back checked
        page.goto(f"{link['ana']}/1")
        first = CLICKS["ana"](items[0])
        assert page.locator(f"#fluency-{first[0]}").is_checked() and page.locator(f"#meaning-{first[1]}").is_checked()
        assert page.locator("#saved").inner_text() == f"Saved: fluency {first[0]}, meaning {first[1]}"
        csrf_ana = page.locator("input[name=csrf]").get_attribute("value") or ""

        # ben's link: none of ana's ratings; a rating without meaning is refused by the server (the browser's
        # `required` stops it before that); his first item by keyboard, the rest by mouse
        page.goto(link["ben"])
        assert page.url.endswith("/1") and page.locator("#saved").count() == 0
        assert page.locator("input[type=radio]:checked").count() == 0
        csrf_ben = page.locator("input[name=csrf]").get_attribute("value") or ""
        refused = page.request.post(f"{link['ben']}/1", form={"csrf": csrf_ben, "fluency": "4"})
        assert refused.status == 400 and "rate meaning" in refused.text()
        fluency, meaning = CLICKS["ben"](items[0])
        page.keyboard.press(str(fluency))
        page.keyboard.press(str(meaning))
        with page.expect_navigation():
            page.keyboard.press("Enter")
        for k, it in enumerate(items[1:], start=2):
            assert page.url.endswith(f"/{k}")
            fluency, meaning = CLICKS["ben"](it)
            page.check(f"#fluency-{fluency}")
            page.check(f"#meaning-{meaning}")
            with page.expect_navigation():
                page.click("#save")
        assert page.locator("#progress").inner_text() == "6 of 6 · 6 of 6 done"

        # neither token writes the other's ratings: ben's form token on ana's link, ana's on ben's; a made-up link
        assert (
            page.request.post(f"{link['ana']}/1", form={"csrf": csrf_ben, "fluency": "1", "meaning": "1"}).status == 403
        )
        assert (
            page.request.post(f"{link['ben']}/1", form={"csrf": csrf_ana, "fluency": "1", "meaning": "1"}).status == 403
        )
        assert page.request.get(f"{server.base}/a/not-a-token/1").status == 404
        assert page.request.get(f"{link['ben']}/7").status == 404
        assert page.evaluate("window.__pwned") is None
    assert not problems and not dialogs, (problems, dialogs)

    ratings = RatingStore(rating_set / "ratings.sqlite").all()
    assert {(r.annotator, r.item): (r.fluency, r.meaning) for r in ratings} == {
        (who, it["id"]): CLICKS[who](it) for who in ("ana", "ben") for it in items
    }
    res = CliRunner().invoke(app, ["annotate", "export", str(rating_set)], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    print(res.output)
    cells = {
        line.strip("│ ").split()[0]: [c.strip() for c in line.strip().strip("│").split("│")]
        for line in res.output.splitlines()
        if line.startswith("│")
    }
    # 12 pairs (6 items × fluency, meaning), 10 equal; ana's scores 5,4,3,2 three times each, ben's 2,4,4,2 times:
    # p_e = (6+12+12+6)/144 = 1/4, κ = (5/6 − 1/4)/(3/4) = 7/9. Arabic: p_o = 7/8, p_e = 1/4 → 5/6; Hindi: 2/3
    # means: GPT-4o fluency (5+5+5 + 4+5+5)/6 overall, (5+5 + 4+5)/4 in Arabic; SmolLM2 meaning (2+2+2 + 2+2+3)/6
    assert cells["all"] == ["all", "4.83", "3.00", "4.00", "2.17", "0.778 (cohen)"]
    assert cells["ar"] == ["ar", "4.75", "3.00", "4.00", "2.00", "0.833 (cohen)"]
    assert cells["hi"] == ["hi", "5.00", "3.00", "4.00", "2.50", "0.667 (cohen)"]
    header = (rating_set / "translation_quality.csv").read_text(encoding="utf-8").splitlines()[0].split(",")
    assert header[5:9] == [f"fluency:{GPT}", f"fluency:{SMOL}", f"meaning:{GPT}", f"meaning:{SMOL}"]
