"""Translation-rating sets (XLingEval App. A, Table A2): a seeded draw of translated benchmark items, paired across
engines; errors that name file, row and column; the ratings store; the Table A2 figures (means per engine, Cohen's
κ, quadratic-weighted κ and Fleiss' κ) checked against values worked out by hand; the CLI."""

from __future__ import annotations

import csv
import json
import stat
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from xlingmed.annotate import (
    Rating,
    RatingStore,
    agreement_table,
    build_translation_set,
    load_annotation_set,
    translation_table,
)
from xlingmed.cli import app
from xlingmed.errors import ConfigError, DataError

SMOL, GPT = "llamacpp/smollm2", "openai/gpt-4o"
EN = {
    f"q{i}": (f"What is the safe daily dose of medicine number {i}?", f"Up to {i} grams a day, with food.")
    for i in range(1, 7)
}
# two engines' translations, in each language's own script
TEXTS = {
    SMOL: {
        "ar": lambda i: (f"ما هي الجرعة اليومية الآمنة من الدواء رقم {i}؟", f"حتى {i} غرام يوميًا مع الطعام."),
        "zh": lambda i: (f"第{i}号药物的安全每日剂量是多少？", f"每天最多{i}克，随餐服用。"),
        "hi": lambda i: (f"दवा संख्या {i} की सुरक्षित दैनिक खुराक क्या है?", f"भोजन के साथ प्रतिदिन {i} ग्राम तक।"),
    },
    GPT: {
        "ar": lambda i: (f"كم تبلغ الجرعة اليومية الآمنة للدواء رقم {i}؟", f"ما يصل إلى {i} غرام في اليوم مع الطعام."),
        "zh": lambda i: (f"{i}号药的每日安全剂量是多少？", f"每日不超过{i}克，与食物同服。"),
        "hi": lambda i: (f"दवा नंबर {i} की सुरक्षित रोज़ाना मात्रा कितनी है?", f"खाने के साथ रोज़ {i} ग्राम तक।"),
    },
}
COLUMNS = ("item_id", "lang", "question", "reference", "source_lang", "translator", "translation_prompt",
           "translated_at", "qe_chrf", "qe_bertscore", "flagged", "flag_reason")  # fmt: skip


def _rows(engine: str, *, source: bool, skip: frozenset[tuple[str, str]] = frozenset()) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for item_id, (q, ref) in EN.items():
        if source:
            rows.append({"item_id": item_id, "lang": "en", "question": q, "reference": ref, "source_lang": "",
                         "translator": "", "translation_prompt": "", "translated_at": "", "qe_chrf": None,
                         "qe_bertscore": None, "flagged": False, "flag_reason": ""})  # fmt: skip
        for lang, make in TEXTS[engine].items():
            if (item_id, lang) in skip:
                continue
            tq, tr = make(int(item_id[1:]))
            rows.append({"item_id": item_id, "lang": lang, "question": tq, "reference": tr, "source_lang": "en",
                         "translator": engine, "translation_prompt": "Translate the following…",
                         "translated_at": "2025-01-01T00:00:00Z", "qe_chrf": 61.5, "qe_bertscore": 0.91,
                         "flagged": item_id == "q2", "flag_reason": "low chrF" if item_id == "q2" else ""})  # fmt: skip
    return rows


def write_jsonl(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def write_csv(path: Path, rows: list[dict[str, object]]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows({k: "" if v is None else v for k, v in r.items()} for r in rows)
    return path


@pytest.fixture
def files(tmp_path: Path) -> list[Path]:
    """SmolLM2's file (JSONL, with the English source rows) and GPT-4o's (CSV, the source rows repeated; no q6 in
    Chinese)."""
    return [
        write_jsonl(tmp_path / "smol.jsonl", _rows(SMOL, source=True)),
        write_csv(tmp_path / "gpt.csv", _rows(GPT, source=True, skip=frozenset({("q6", "zh")}))),
    ]


def test_draw_is_paired_seeded_and_private(files: list[Path], tmp_path: Path) -> None:
    aset = build_translation_set(files, tmp_path / "set", per_language=4, seed=3, annotators=["ana", "ben"])
    assert aset.kind == "translation" and aset.settings["kind"] == "translation"
    assert aset.settings["translators"] == [SMOL, GPT] and list(aset.settings["languages"]) == ["ar", "zh", "hi"]
    assert len(aset.items) == 3 * 4 * 2 == aset.settings["n_items"]
    # the same questions for both engines of a language; Chinese drawn among the five both translated
    drawn = {}
    for lang in ("ar", "zh", "hi"):
        per_engine = {e: sorted(it["item_id"] for it in aset.items if it["lang"] == lang and it["translator"] == e)
                      for e in (SMOL, GPT)}  # fmt: skip
        assert per_engine[SMOL] == per_engine[GPT] and len(per_engine[SMOL]) == 4
        drawn[lang] = per_engine[SMOL]
    assert "q6" not in drawn["zh"]
    assert aset.settings["languages"]["zh"] == {
        "translators": [SMOL, GPT], "translated": {SMOL: 6, GPT: 5}, "translated_by_all": 5, "sampled": 4,
    }  # fmt: skip
    # each item: the English source beside one engine's translation, and the file's quality-estimation context
    it = next(x for x in aset.items if x["lang"] == "ar" and x["translator"] == GPT)
    n = int(it["item_id"][1:])
    assert it["id"] == f"{it['item_id']}:ar:question:{GPT}"
    assert (it["source_lang"], it["field"], it["source"]) == ("en", "question", EN[it["item_id"]][0])
    assert it["translation"] == TEXTS[GPT]["ar"](n)[0] and it["source_file"] == "gpt.csv"
    assert it["qe_chrf"] == 61.5 and it["flagged"] is (it["item_id"] == "q2")
    smol_q2 = [x for x in aset.items if x["translator"] == SMOL and x["item_id"] == "q2"]
    assert all(x["flagged"] is True and x["flag_reason"] == "low chrF" for x in smol_q2)
    # engines and languages mixed in the order the annotators see
    first_half = Counter(x["translator"] for x in aset.items[:12])
    assert 3 <= first_half[SMOL] <= 9, first_half
    # reproducible with the seed; another seed draws or orders differently
    again = build_translation_set(files, tmp_path / "again", per_language=4, seed=3, annotators=["ana", "ben"])
    other = build_translation_set(files, tmp_path / "other", per_language=4, seed=4, annotators=["ana", "ben"])
    assert [i["id"] for i in again.items] == [i["id"] for i in aset.items] != [i["id"] for i in other.items]
    # fewer items than asked for: all of them; the reference field doubles the items
    everything = build_translation_set(files, tmp_path / "all", fields=("question", "reference"), per_language=50)
    assert Counter((x["lang"], x["field"]) for x in everything.items) == {
        ("ar", "question"): 12, ("ar", "reference"): 12, ("zh", "question"): 10, ("zh", "reference"): 10,
        ("hi", "question"): 12, ("hi", "reference"): 12,
    }  # fmt: skip
    ref = next(
        x for x in everything.items if x["field"] == "reference" and x["lang"] == "hi" and x["translator"] == SMOL
    )
    assert (
        ref["source"] == EN[ref["item_id"]][1] and ref["translation"] == TEXTS[SMOL]["hi"](int(ref["item_id"][1:]))[1]
    )
    # secret tokens, readable by the owner only; never overwritten; a judge-check table refuses it
    assert aset.annotators.keys() == {"ana", "ben"} and all(len(t) >= 32 for t in aset.annotators.values())
    assert stat.S_IMODE((aset.path / "annotators.json").stat().st_mode) == 0o600
    assert load_annotation_set(aset.path).items == aset.items
    with pytest.raises(ConfigError, match="never overwritten"):
        build_translation_set(files, tmp_path / "set")
    with pytest.raises(ConfigError, match="translation-rating set, not a judge check"):
        agreement_table(aset, [])


def test_options_of_multiple_choice_are_rated_as_lines(tmp_path: Path) -> None:
    rows = [
        {"item_id": "m1", "lang": "en", "question": "Which organ makes insulin?", "answer": "B",
         "options": {"A": "Liver", "B": "Pancreas"}, "source_lang": "", "translator": ""},
        {"item_id": "m1", "lang": "ar", "question": "أي عضو ينتج الأنسولين؟", "answer": "B",
         "options": {"A": "الكبد", "B": "البنكرياس"}, "source_lang": "en", "translator": GPT},
    ]  # fmt: skip
    aset = build_translation_set([write_jsonl(tmp_path / "mcq.jsonl", rows)], tmp_path / "set",
                                 fields=("question", "options"))  # fmt: skip
    opts = next(x for x in aset.items if x["field"] == "options")
    assert (opts["source"], opts["translation"]) == ("A. Liver\nB. Pancreas", "A. الكبد\nB. البنكرياس")
    with pytest.raises(DataError, match=r"mcq\.jsonl.*missing column\(s\) reference"):
        build_translation_set([tmp_path / "mcq.jsonl"], tmp_path / "x", fields=("reference",))


def test_errors_name_file_row_and_column(files: list[Path], tmp_path: Path) -> None:
    # the same (item, language, engine) in two files: both named
    dup = write_csv(tmp_path / "again.csv", _rows(SMOL, source=False)[3:4])  # q2 into ar by SmolLM2
    with pytest.raises(DataError) as err:
        build_translation_set([*files, dup], tmp_path / "s1")
    assert str(err.value) == (
        f"file {dup}, row 2, column 'item_id': item 'q2' translated into ar by {SMOL} twice: also in file {files[0]} "
        "row 7"
    )
    # a translated row whose source row is in no file
    orphan = write_jsonl(tmp_path / "orphan.jsonl", [*_rows(GPT, source=True)[:4],
                         {**_rows(GPT, source=False)[0], "item_id": "q9"}])  # fmt: skip
    with pytest.raises(DataError) as err:
        build_translation_set([orphan], tmp_path / "s2")
    assert str(err.value).startswith(
        f"file {orphan}, row 6, column 'source_lang': no source row for item 'q9' in en (a row with lang en"
    )
    bad = write_csv(tmp_path / "bad.csv", [{**_rows(GPT, source=False)[0], "source_lang": ""}])
    with pytest.raises(DataError, match=r"bad\.csv, row 2, column 'source_lang': translated by 'openai/gpt-4o' but"):
        build_translation_set([bad], tmp_path / "s3")
    klingon = write_csv(tmp_path / "kl.csv", [{**_rows(GPT, source=False)[0], "lang": "tlh"}])
    with pytest.raises(DataError, match=r"kl\.csv, row 2, column 'lang': unknown language code 'tlh'"):
        build_translation_set([klingon], tmp_path / "s4")
    differs = write_csv(tmp_path / "differs.csv", [{**_rows(GPT, source=True)[0], "question": "Another text?"}])
    with pytest.raises(DataError, match=r"differs\.csv, row 2, column 'question': the source question of item 'q1'"):
        build_translation_set([files[0], differs], tmp_path / "s5")
    nocol = write_csv(tmp_path / "nocol.csv", [{"item_id": "q1", "lang": "en", "question": "x"}])
    with pytest.raises(DataError, match=r"missing column\(s\) source_lang, translator"):
        build_translation_set([nocol], tmp_path / "s6")
    with pytest.raises(ConfigError, match="--fields"):
        build_translation_set(files, tmp_path / "s7", fields=("answer",))
    with pytest.raises(ConfigError, match="--per-language"):
        build_translation_set(files, tmp_path / "s8", per_language=0)
    assert not [p for p in tmp_path.iterdir() if p.name.lstrip(".")[:2] in {f"s{k}" for k in range(1, 9)}]


def test_ratings_are_validated_and_persist(tmp_path: Path) -> None:
    store = RatingStore(tmp_path / "ratings.sqlite")
    assert store.save(Rating("ana", "q1:ar:question:x", 4, 5)) == Rating("ana", "q1:ar:question:x", 4, 5)
    for fluency, meaning in ((0, 3), (6, 3), (3, None), (True, 3), (4.0, 3), ("x", 3), (3, "")):
        with pytest.raises(ConfigError, match=r"fluency|meaning"):
            store.save(Rating("ben", "q1:ar:question:x", fluency, meaning))  # type: ignore[arg-type]
    store.save(Rating("ben", "q1:ar:question:x", 2, 2))
    store.save(Rating("ben", "q1:ar:question:x", "3", 1))  # type: ignore[arg-type]  # a form's text; replaces
    reopened = RatingStore(tmp_path / "ratings.sqlite")
    assert reopened.of("ben") == {"q1:ar:question:x": Rating("ben", "q1:ar:question:x", 3, 1)}
    assert reopened.all() == [Rating("ana", "q1:ar:question:x", 4, 5), Rating("ben", "q1:ar:question:x", 3, 1)]
    import sqlite3

    with sqlite3.connect(tmp_path / "ratings.sqlite") as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        with pytest.raises(sqlite3.IntegrityError):  # the table itself refuses what the store would
            db.execute("INSERT INTO ratings VALUES ('c', 'i', 7, 1, 0)")


# the ratings of the two annotators on the four Arabic questions (by item id) for each engine: (fluency, meaning)
AR = {
    SMOL: {"ana": [(4, 4), (4, 3), (5, 5), (3, 3)], "ben": [(4, 4), (5, 3), (5, 4), (3, 3)]},
    GPT: {"ana": [(2, 2), (3, 2), (2, 1), (1, 1)], "ben": [(2, 2), (3, 2), (3, 1), (1, 2)]},
}


def _cohen(a: list[int], b: list[int]) -> float:
    n = len(a)
    po = sum(x == y for x, y in zip(a, b, strict=True)) / n
    ca, cb = Counter(a), Counter(b)
    return (po - sum(ca[k] * cb[k] for k in ca) / n**2) / (1 - sum(ca[k] * cb[k] for k in ca) / n**2)


def rate_by_hand(aset_path: Path) -> list[Rating]:
    aset = load_annotation_set(aset_path)
    store = RatingStore(aset_path / "ratings.sqlite")
    ar_ids = sorted({it["item_id"] for it in aset.items if it["lang"] == "ar"})
    for engine, by in AR.items():
        for who, scores in by.items():
            for item_id, (f, m) in zip(ar_ids, scores, strict=True):
                store.save(Rating(who, f"{item_id}:ar:question:{engine}", f, m))
    for it in aset.items:
        if it["lang"] == "zh":  # both rate every Chinese translation 5 and 5: κ undefined
            for who in ("ana", "ben"):
                store.save(Rating(who, it["id"], 5, 5))
        if it["lang"] == "hi":  # only ana rates Hindi: no κ
            store.save(Rating("ana", it["id"], 4 if it["translator"] == SMOL else 2, 3))
    store.save(Rating("zed", aset.items[0]["id"], 1, 1))  # not an annotator of the set: ignored
    store.save(Rating("ana", "q1:es:question:nobody", 1, 1))  # not an item of the set: ignored
    return store.all()


def test_table_a2_figures_by_hand(files: list[Path], tmp_path: Path) -> None:
    aset = build_translation_set(files, tmp_path / "set", per_language=4, seed=3, annotators=["ana", "ben"])
    rows = {r["lang"]: r for r in translation_table(aset, rate_by_hand(aset.path))}
    assert list(rows) == ["ar", "zh", "hi", "all"]
    ar = rows["ar"]
    assert (ar["n_questions"], ar["n_items"], ar["n_annotators"], ar["n_ratings"]) == (4, 8, 2, 16)
    # means over items × annotators: SmolLM2 fluency (4+4+5+3 + 4+5+5+3)/8, meaning (4+3+5+3 + 4+3+4+3)/8 …
    assert ar[f"fluency:{SMOL}"] == 33 / 8 and ar[f"meaning:{SMOL}"] == 29 / 8
    assert ar[f"fluency:{GPT}"] == 17 / 8 and ar[f"meaning:{GPT}"] == 13 / 8
    assert ar[f"n_ratings:{SMOL}"] == ar[f"n_ratings:{GPT}"] == 8
    # Cohen's κ, fluency and meaning pooled (16 pairs): 12 agree, p_o = 3/4; ana's scores 1–5 occur 3,4,4,3,2
    # times, ben's 2,4,5,3,2, p_e = 55/256; κ = (192 − 55)/(256 − 55) = 137/201
    assert ar["kappa_kind"] == "cohen" and ar["kappa"] == pytest.approx(137 / 201) and ar["n_kappa_items"] == 8
    # quadratic weights (i−j)²/16: four pairs one apart, Σ w·O = 4/16; Σ w·E = (Var a + Var b + Δmean²)·16²/256
    # = 794/256; κ_w = 1 − (1/4)/(794/256) = 365/397
    assert ar["kappa_weighted"] == pytest.approx(365 / 397)
    zh = rows["zh"]
    assert zh[f"fluency:{SMOL}"] == zh[f"meaning:{GPT}"] == 5.0 and zh["n_kappa_items"] == 8
    assert (zh["kappa"], zh["kappa_kind"], zh["kappa_weighted"]) == (None, "cohen", None)  # every score 5: undefined
    hi = rows["hi"]
    assert (hi["n_annotators"], hi["kappa"], hi["kappa_kind"], hi["n_kappa_items"]) == (1, None, None, 0)
    assert hi[f"fluency:{SMOL}"] == 4.0 and hi[f"fluency:{GPT}"] == 2.0 and hi[f"meaning:{GPT}"] == 3.0
    overall = rows["all"]
    assert (overall["n_items"], overall["n_annotators"], overall["n_ratings"], overall["n_kappa_items"]) == (
        24,
        2,
        40,
        16,
    )
    # over all languages: the items both rated (Arabic and Chinese), against the formula
    scores = {(r.annotator, r.item): (r.fluency, r.meaning) for r in RatingStore(aset.path / "ratings.sqlite").all()}
    both = [it["id"] for it in aset.items if it["lang"] in ("ar", "zh")]
    flat_a, flat_b = ([v for i in both for v in scores[(who, i)]] for who in ("ana", "ben"))
    assert overall["kappa"] == pytest.approx(_cohen(flat_a, flat_b)) and overall["kappa_kind"] == "cohen"
    assert overall[f"fluency:{SMOL}"] == pytest.approx((33 + 8 * 5 + 4 * 4) / (8 + 8 + 4))


def test_fleiss_kappa_with_three_annotators(files: list[Path], tmp_path: Path) -> None:
    aset = build_translation_set(files, tmp_path / "set", per_language=1, seed=0, annotators=["a1", "a2", "a3"])
    x, y = sorted(it["id"] for it in aset.items if it["lang"] == "ar")
    store = RatingStore(aset.path / "ratings.sqlite")
    # units (fluency, meaning of x, then of y): (5,5,5), (4,4,5), (2,2,2), (1,2,2)
    for who, (fx, mx, fy, my) in {"a1": (5, 4, 2, 1), "a2": (5, 4, 2, 2), "a3": (5, 5, 2, 2)}.items():
        store.save(Rating(who, x, fx, mx))
        store.save(Rating(who, y, fy, my))
    ar = translation_table(aset, store.all())[0]
    # P_i = 1, 1/3, 1, 1/3 → P̄ = 2/3; scores 5,4,2,1 given 4,2,5,1 of 12 times → P_e = 46/144; κ = 25/49
    assert (ar["kappa_kind"], ar["n_kappa_items"], ar["n_annotators"]) == ("fleiss", 2, 3)
    assert ar["kappa"] == pytest.approx(25 / 49) and ar["kappa_weighted"] is None
    assert ar[f"fluency:{SMOL}"] == (5.0 if x.endswith(SMOL) else 2.0)
    # without a3's rating of y, only x is complete: units (5,5,5), (4,4,5): P̄ = 2/3, P_e = (16+4)/36, κ = 1/4
    partial = translation_table(aset, [r for r in store.all() if (r.annotator, r.item) != ("a3", y)])[0]
    assert (partial["n_kappa_items"], partial["n_items"]) == (1, 2) and partial["kappa"] == pytest.approx(1 / 4)


def test_cli_translations_and_export(files: list[Path], tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "set"
    res = runner.invoke(
        app,
        ["annotate", "translations", *map(str, files), "--out", str(out), "--per-language", "4", "--seed", "3",
         "--annotators", "ana,ben"],
        env={"COLUMNS": "200"},
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "24 rating items" in res.output and "annotators.json" in res.output
    zh_line = next(line for line in res.output.splitlines() if "zh" in line and GPT in line)
    assert [c.strip() for c in zh_line.strip().strip("│").split("│")] == ["zh", GPT, "5", "5", "4", "4"]
    rate_by_hand(out)
    res = runner.invoke(app, ["annotate", "export", str(out)], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    assert "Translation quality (XLingEval Table A2)" in res.output and "0.682 (cohen)" in res.output
    ar_line = next(line for line in res.output.splitlines() if line.strip("│ ").startswith("ar "))
    assert [c.strip() for c in ar_line.strip("│").split("│")] == ["ar", "4.12", "2.12", "3.62", "1.62", "0.682 (cohen)"]
    with (out / "translation_quality.csv").open(encoding="utf-8") as fh:
        table = list(csv.DictReader(fh))
    assert list(table[0]) == [
        "lang", "n_questions", "n_items", "n_annotators", "n_ratings", f"fluency:{SMOL}", f"fluency:{GPT}",
        f"meaning:{SMOL}", f"meaning:{GPT}", f"n_ratings:{SMOL}", f"n_ratings:{GPT}", "kappa", "kappa_kind",
        "kappa_weighted", "n_kappa_items",
    ]  # fmt: skip
    assert [r["lang"] for r in table] == ["ar", "zh", "hi", "all"]
    assert float(table[0][f"fluency:{SMOL}"]) == 4.125 and float(table[0]["kappa"]) == pytest.approx(137 / 201)
    assert table[1]["kappa"] == "" and table[2]["kappa_kind"] == ""
    with (out / "ratings.csv").open(encoding="utf-8") as fh:
        ratings = list(csv.DictReader(fh))
    assert len(ratings) == 42 and list(ratings[0]) == [
        "annotator", "item", "item_id", "lang", "source_lang", "field", "translator", "fluency", "meaning",
    ]  # fmt: skip
    # errors exit with a message, no traceback
    # (messages are read with their line breaks undone: rich wraps a long temporary path at the terminal's width)
    res = runner.invoke(app, ["annotate", "translations", str(files[0]), "--out", str(out)])
    assert res.exit_code == 2 and "never overwritten" in " ".join(res.output.split())
    res = runner.invoke(app, ["annotate", "translations", str(tmp_path / "none.csv"), "--out", str(tmp_path / "n")])
    assert res.exit_code == 2 and "no such file" in " ".join(res.output.split())


def test_a_report_refuses_a_translation_set_as_judge_annotations(files: list[Path], tmp_path: Path) -> None:
    from xlingmed.annotate.sample import load_judge_set
    from xlingmed.errors import ConfigError

    aset = build_translation_set(files, tmp_path / "set", per_language=2, seed=0)
    with pytest.raises(ConfigError, match="translation-rating set, not a judge check"):
        load_judge_set(aset.path)
    assert not (aset.path / "answers.sqlite").exists()  # nothing is created in the set's folder
