"""Two real models (SmolLM2 and Gemma 3 270M, in process) on a user's multiple-choice file in English and Arabic,
compared in one report: the model comparison, the verdicts, and the item explorer driven in headless Chromium
(filters, pages, right-to-left text, and a ``<script>`` planted in a stored answer that must never run).

The two runs take about 40 s together (16 short answers each); the browser part a few seconds.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from conftest import chromium_page, keep_artifact
from replay_server import write_mcq_file

from xlingmed import evaluate, make_config
from xlingmed.report import build_report

pytestmark = pytest.mark.slow

MODELS = ("llamacpp/smollm2", "llamacpp/gemma3-270m")
PLANTED = '<script>window.__planted = 1</script><img src="x" onerror="window.__planted = 2">'


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    tmp = tmp_path_factory.mktemp("two")
    data = write_mcq_file(tmp / "set.csv")
    runs = []
    for k, model in enumerate(MODELS):
        out = tmp / f"run{k}"
        evaluate(
            make_config(benchmark=f"mcq:{data}", languages="en,ar", model=model, temperatures="0,1", max_tokens=8,
                        out=out, cache=tmp / "cache.sqlite")
        )  # fmt: skip
        runs.append(out)
    # a stored answer with markup in it: the report must show it as text
    csv = runs[0] / "multiple_choice.csv"
    table = pd.read_csv(csv, dtype={"item_id": str})
    first = table.index[(table["lang"] == "ar") & (table["item_id"] == "q0")][0]
    table.loc[first, "response"] = PLANTED
    table.to_csv(csv, index=False)
    return runs


def test_two_models_compared_item_by_item(two_runs: list[Path], tmp_path: Path) -> None:
    index = build_report(two_runs, tmp_path / "report", n_resamples=200)
    html = index.read_text(encoding="utf-8")
    assert "Models compared item by item" in html and "No item-by-item comparison" not in html
    pairs = pd.read_csv(tmp_path / "report" / "stats" / "models_pairs.csv")
    assert set(pairs["lang"]) == {"en", "ar"} and set(pairs["outcome"]) == {"accuracy"}
    assert list(pairs["model_a"].unique()) == [MODELS[0]] and list(pairs["model_b"].unique()) == [MODELS[1]]
    assert set(pairs["n_items"]) == {4}
    # the pair's values are the runs' own accuracies, each item's mean over the two temperatures; McNemar where
    # every item's mean is 0 or 1, else Wilcoxon
    means = {}
    for model, side in zip(MODELS, ("value_a", "value_b"), strict=True):
        rows = pd.read_csv(two_runs[MODELS.index(model)] / "multiple_choice.csv", dtype={"item_id": str})
        for lang, v in pairs.set_index("lang")[side].items():
            means[(model, lang)] = per_item = rows[rows["lang"] == lang].groupby("item_id")["correct"].mean()
            assert v == pytest.approx(per_item.mean())
    for lang, test in pairs.set_index("lang")["test"].items():
        binary = all(set(means[(m, lang)]) <= {0.0, 1.0} for m in MODELS)
        assert test == ("mcnemar" if binary else "wilcoxon")
    ranking = pd.read_csv(tmp_path / "report" / "stats" / "models_ranking.csv")
    assert len(ranking) == 4 and set(ranking["rank"]) <= {1, 2}
    assert (tmp_path / "report" / "figures" / "models_forest.png").is_file()
    agreement = pd.read_csv(tmp_path / "report" / "stats" / "run1_crosslingual_agreement.csv")
    assert sorted(zip(agreement["lang"], agreement["temperature"], strict=True)) == [
        ("all", 0.0),
        ("all", 1.0),
        ("ar", 0.0),
        ("ar", 1.0),
    ]
    assert set(agreement["n_items"] + agreement["n_unread"]) == {4}  # 4 items, read or not in both languages
    verdicts = pd.read_csv(tmp_path / "report" / "stats" / "run1_verdicts.csv")
    assert list(verdicts["lang"]) == ["ar"] and verdicts["verdict"].iloc[0] == "inconclusive"


def test_explorer_filters_pages_rtl_and_never_runs_model_text(two_runs: list[Path], tmp_path: Path) -> None:

    index = build_report(two_runs, tmp_path / "report", n_resamples=200)
    # expected counts from the stored rows: per item × τ, does a model answer right in en and wrong in ar?
    rows = {
        m: pd.read_csv(r / "multiple_choice.csv", dtype={"item_id": str}) for m, r in zip(MODELS, two_runs, strict=True)
    }
    units = {(i, t) for r in rows.values() for i, t in zip(r["item_id"], r["temperature"], strict=True)}
    assert len(units) == 8

    def good_en_bad_ar(model: str, unit: tuple[str, float]) -> bool:
        r = rows[model].set_index(["item_id", "temperature", "lang"])["correct"]
        return bool(r.get((*unit, "en")) == 1 and r.get((*unit, "ar")) == 0)

    expected = sum(any(good_en_bad_ar(m, u) for m in MODELS) for u in units)
    problems: list[str] = []
    with chromium_page(problems) as page:
        page.goto(index.as_uri(), wait_until="load")
        status = page.locator("#x-status")
        assert status.inner_text() == "8 of 8 shown"
        assert page.locator("#explorer-body section.item").count() == 8
        # pages: 5 per page gives two pages
        page.select_option("#f-size", "5")
        assert page.locator("#explorer-body section.item").count() == 5
        assert page.locator("#x-page").inner_text() == "page 1 of 2"
        page.click("#x-next")
        assert page.locator("#explorer-body section.item").count() == 3
        assert page.locator("#x-page").inner_text() == "page 2 of 2"
        page.select_option("#f-size", "20")
        # "good in English, bad in Arabic"
        page.select_option("#f-good", "en")
        page.select_option("#f-bad", "ar")
        assert status.inner_text() == f"{expected} of 8 shown"
        page.select_option("#f-good", "(any)")
        page.select_option("#f-bad", "(any)")
        # one model only: every unit still shown, one model row each
        page.select_option("#f-model", MODELS[1])
        assert page.locator("#explorer-body tr[data-model]").count() == 8
        page.select_option("#f-model", "(any)")
        # the planted markup is text, in a right-to-left cell, and nothing of it ran
        cell = page.locator("#explorer-body td[lang=ar]", has_text="window.__planted").first
        assert cell.get_attribute("dir") == "rtl"
        assert PLANTED in cell.inner_text()
        assert page.evaluate("window.__planted") is None
        assert page.locator("#x-items script, #x-items img").count() == 0  # no element from model text
        # issue 49: the page's own script runs by its hash (the explorer works above), no other inline script may
        policy = page.locator("meta[http-equiv=Content-Security-Policy]").get_attribute("content") or ""
        assert "'sha256-" in policy and "unsafe-inline' ;" not in policy and "script-src 'unsafe-inline'" not in policy
        assert "form-action 'none'" in policy and "base-uri 'none'" in policy
        before = len(problems)
        page.evaluate("document.body.insertAdjacentHTML('beforeend', '<img src=x onerror=\"window.__inline=1\">')")
        page.wait_for_timeout(200)
        assert page.evaluate("window.__inline") is None  # an inline handler is blocked, not only escaped
        blocked = problems[before:]
        assert blocked and all("Content Security Policy" in p for p in blocked), blocked
        del problems[before:]  # the blocks this check provoked; anything else is still a problem
        shot = tmp_path / "explorer.png"
        page.select_option("#f-size", "5")
        page.locator("#explorer-body").screenshot(path=str(shot))
    assert problems == []
    keep_artifact(shot, "explorer.png")  # the closing note and docs/img keep the screenshot
