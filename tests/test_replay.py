"""Realistic replies through the real CLI: every item answered correctly in fourteen phrasings (bare letters to
reasoning through every option, then a conclusion), or with no option (refusals, negations, bare discussion).

A local scripted OpenAI-compatible server (``replay_server``) answers each multiple-choice item of the synthetic
MedArabiQ files (mcq, fitb_choices in Arabic and English, mcq_bias with its five conditions) and of a user's
mcq:FILE in all five languages the project knows. A correct answer in any phrasing must score 100 %; a reply
that names no option must be invalid, never mapped to a plausible option (issue: the first-character rule read
"ال" as A and "Doctors" as D).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import medarabiq_fixtures as fx
import pandas as pd
import pytest
from fault_server import FaultServer, Reply, ok
from replay_server import NO_OPTION, PHRASINGS, ReplayPolicy, write_mcq_file
from typer.testing import CliRunner

from xlingmed.benchmarks import custom, medarabiq
from xlingmed.cli import app

BENCHMARKS = {  # name -> (languages, limit)
    "medarabiq/mcq": ("ar", None),
    "medarabiq/fitb_choices": ("ar,en", None),
    "medarabiq/mcq_bias": ("ar", 14),
    "mcq": ("en,es,zh,hi,ar", None),
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("replay")
    fx.write_all(path)
    write_mcq_file(path / "mine.csv")
    return path


def _items(folder: Path) -> list[Any]:
    items = []
    for task, langs in (("mcq", ("ar",)), ("fitb_choices", ("ar", "en")), ("mcq_bias", ("ar",))):
        items += medarabiq.load_items(task, folder, langs)[0]
    items += custom.load_items(f"mcq:{folder / 'mine.csv'}", ("en", "es", "zh", "hi", "ar"))[0]
    return items


def run_all(folder: Path, phrasing: str, out: Path, *extra: str) -> dict[str, dict[str, Any]]:
    """Each benchmark through ``xlingmed run`` against the scripted server; name -> its multiple_choice summary."""
    policy = ReplayPolicy(_items(folder), phrasing)
    results = {}
    with FaultServer(policy) as server:
        for name, (langs, limit) in BENCHMARKS.items():
            bench = f"mcq:{folder / 'mine.csv'}" if name == "mcq" else name
            args = ["run", "--benchmark", bench, "--languages", langs, "--model", "openai/m", "--base-url", server.url,
                    "--out", str(out / name.replace("/", "_")), "--no-report", "--cache", str(out / "cache.sqlite"),
                    *extra]  # fmt: skip
            if name.startswith("medarabiq"):
                args += ["--data-dir", str(folder)]
            if limit:
                args += ["--limit", str(limit)]
            res = CliRunner().invoke(app, args, env={"COLUMNS": "250"})
            assert res.exit_code == 0, res.output
            summary = json.loads((out / name.replace("/", "_") / "summary.json").read_text(encoding="utf-8"))
            results[name] = summary["tasks"]["multiple_choice"]
    assert policy.unmatched == 0
    return results


def _cells(mc: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """(lang, condition, cell) of every language × temperature × condition."""
    out = []
    for lang, per_t in mc["languages"].items():
        for cell in per_t.values():
            for cond, c in cell.get("conditions", {"original": cell}).items():
                out.append((lang, cond, c))
    return out


@pytest.mark.parametrize("phrasing", list(PHRASINGS))
def test_correct_answers_score_100_percent_in_every_phrasing(folder: Path, tmp_path: Path, phrasing: str) -> None:
    results = run_all(folder, phrasing, tmp_path)
    for name, mc in results.items():
        # the fixture's duplicate option texts (FITB row 0, Arabic): the text alone names two options
        ambiguous = {"ar": 1} if (phrasing == "option text only" and name == "medarabiq/fitb_choices") else {}
        for lang, cond, cell in _cells(mc):
            dup = ambiguous.get(lang, 0)
            assert cell["n"] > 0
            assert (cell["n_correct"], cell["n_invalid"]) == (cell["n"] - dup, dup), (name, lang, cond)
        parsing = mc["parsing"]
        for lang, methods in parsing["methods"].items():
            assert "invalid" not in methods and "first_char" not in methods, (name, lang, methods)
            assert methods.get("ambiguous", 0) == ambiguous.get(lang, 0)
            assert parsing["kinds"][lang]["fallback"] == 0
        # 1 of 12 is above 5 %: the one language with the ambiguous item is warned about, no other
        assert [w.split(":")[0] for w in parsing["warnings"]] == list(ambiguous)


@pytest.mark.parametrize("phrasing", list(NO_OPTION))
def test_replies_that_name_no_option_are_invalid_or_refused(folder: Path, tmp_path: Path, phrasing: str) -> None:
    results = run_all(folder, phrasing, tmp_path)
    for name, mc in results.items():
        for lang, cond, cell in _cells(mc):
            assert (cell["n_correct"], cell["n_invalid"]) == (0, cell["n"]), (name, lang, cond)
        warned = {w.split(":")[0] for w in mc["parsing"]["warnings"]}
        for lang, methods in mc["parsing"]["methods"].items():
            # "I cannot choose" refuses to choose (the model's doing, not the parser's: no parse warning); a reply
            # that only names no option is unread
            assert set(methods) <= {"invalid", "refused"}, (name, lang)
            share = mc["parsing"]["not_read_share"][lang]
            assert share == methods.get("invalid", 0) / sum(methods.values())
            assert (lang in warned) == (share > 0.05)
    if phrasing == "cannot choose (en)":
        assert all(set(m) == {"refused"} for mc in results.values() for m in mc["parsing"]["methods"].values())


def test_the_old_first_character_rule_stays_available_by_name(folder: Path, tmp_path: Path) -> None:
    # what the issue measured: the Arabic answer phrase read as option A ("ال…"), "Doctors" read as D
    gold = [it.gold_label for it in medarabiq.load_items("mcq", folder, ("ar",))[0]]
    arabic = run_all(folder, "answer phrase (item's language)", tmp_path / "a", "--letter-parser", "first_char")
    cell = arabic["medarabiq/mcq"]["languages"]["ar"]["0"]
    assert cell["n_correct"] == gold.count("A") and cell["n_invalid"] == 0
    none = run_all(folder, "cannot choose (en)", tmp_path / "b", "--letter-fallback", "first_char")
    cell = none["medarabiq/mcq"]["languages"]["ar"]["0"]
    assert cell["n_correct"] == gold.count("D") and cell["n_invalid"] == 0
    assert none["medarabiq/mcq"]["settings"]["letter_parser"] == "first_char"
    assert set(none["medarabiq/mcq"]["parsing"]["methods"]["ar"]) == {"first_char"}


def test_a_refusal_is_counted_as_refused_and_wrong(folder: Path, tmp_path: Path) -> None:
    from fault_server import Reply, completion_body

    with FaultServer(lambda p, a: Reply(200, completion_body(None, refusal="I can't help with that."))) as server:
        res = CliRunner().invoke(app, ["run", "--benchmark", "medarabiq/mcq", "--data-dir", str(folder),
                                       "--model", "openai/m", "--base-url", server.url, "--out", str(tmp_path / "r"),
                                       "--no-report"], env={"COLUMNS": "250"})  # fmt: skip
    assert res.exit_code == 0, res.output
    mc = json.loads((tmp_path / "r" / "summary.json").read_text(encoding="utf-8"))["tasks"]["multiple_choice"]
    cell = mc["languages"]["ar"]["0"]
    assert (cell["n_correct"], cell["n_invalid"], cell["n"]) == (0, fx.MCQ_ROWS, fx.MCQ_ROWS)
    assert mc["parsing"]["methods"]["ar"] == {"refused": fx.MCQ_ROWS}
    assert mc["parsing"]["kinds"]["ar"]["refused"] == fx.MCQ_ROWS and mc["parsing"]["warnings"] == []


# per language: reasoning through every option then the set; a negation then the set; the set in the item's letters
SEVERAL = {
    "en": ("Option A is right. Option B is wrong. Option C is right. Option D is wrong.\nAnswer: A, C",
           "It is not B, and not D.\nAnswer: C and A", "A, C"),
    "es": ("La A es correcta, la B no, la C sí, la D no.\nRespuesta: A y C", "No es la B ni la D.\nRespuesta: C y A",
           "A y C"),
    "zh": ("A正确，B错误，C正确，D错误。\n答案：A、C", "不是B，也不是D。\n答案：C、A", "A、C"),
    "hi": ("A सही है, B गलत है, C सही है, D गलत है।\nउत्तर: A, C", "B नहीं है, D नहीं है।\nउत्तर: C, A", "A, C"),
    "ar": ("أ صحيحة، ب خاطئة، ج صحيحة، د خاطئة.\nالإجابة: أ، ج", "ليست ب ولا د.\nالإجابة: ج و أ", "أ، ج"),
}  # fmt: skip


def test_several_right_options_read_in_every_language_through_the_cli(tmp_path: Path) -> None:
    """Items with two right options (answer cell "A,C") in five languages and scripts, through `xlingmed run` against
    a scripted server that answers in the shapes real models write: reasoning through every option then the set, a
    negation then the set, the bare set in the item's letters, one option only, a refusal. The sets are read and
    right; one option is read as one (wrong); the refusal becomes no value."""
    shapes = ("reasoning", "negation", "bare", "one", "refusal")
    rows, replies = [], {}
    for lang, said in SEVERAL.items():
        for k, shape in enumerate(shapes):
            stem = f"{lang}-q{k}: which two statements are true?"
            rows.append({"id": f"q{k}", "language": lang, "question": stem, "A": "first", "B": "second",
                         "C": "third", "D": "fourth", "answer": "A,C"})  # fmt: skip
            replies[stem] = {"reasoning": said[0], "negation": said[1], "bare": said[2], "one": "The answer is C.",
                             "refusal": "I'm sorry, but I can't help with that."}[shape]  # fmt: skip
    pd.DataFrame(rows).to_csv(tmp_path / "several.csv", index=False)

    def policy(prompt: str, attempt: int) -> Reply:
        return ok(next(text for stem, text in replies.items() if stem in prompt))

    with FaultServer(policy) as server:
        res = CliRunner().invoke(app, ["run", "--benchmark", f"mcq:{tmp_path / 'several.csv'}", "--languages",
                                       ",".join(SEVERAL), "--model", "openai/m", "--base-url", server.url, "--out",
                                       str(tmp_path / "run"), "--no-report", "--cache", str(tmp_path / "c.sqlite")],
                                 env={"COLUMNS": "250"})  # fmt: skip
    assert res.exit_code == 0, res.output
    table = pd.read_csv(tmp_path / "run" / "multiple_choice.csv")
    for lang in SEVERAL:
        mine = table[table["lang"] == lang].sort_values("item_id")
        assert list(mine["gold"]) == ["A,C"] * 5
        assert list(mine["prediction"].fillna("-")) == ["A,C", "A,C", "A,C", "C", "-"], lang
        assert list(mine["parse_method"])[:3] == ["label_list"] * 3
        assert list(mine["correct"]) == [True] * 3 + [False] * 2
    methods = json.loads((tmp_path / "run" / "summary.json").read_text())["tasks"]["multiple_choice"]["parsing"]
    assert all(m.get("refused", 0) == 1 and m["label_list"] == 3 for m in methods["methods"].values())
