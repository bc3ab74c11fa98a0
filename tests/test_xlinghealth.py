"""XLingHealth loader against the real published files and against fixtures built here."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from xlingmed.benchmarks import describe_benchmark, load_benchmark
from xlingmed.benchmarks.xlinghealth import read_questions
from xlingmed.errors import ConfigError, DataError, DataNotFoundError

LANGS = ("en", "es", "zh", "hi")


def test_liveqa_counts_and_defects(data_dir: Path) -> None:
    questions = read_questions(data_dir / "LiveQA.xlsx")
    assert len(questions) == 246
    assert [q.source_id for q in questions] == list(range(246))
    assert all(len(q.negatives["en"]) == 4 for q in questions)
    defective = {q.source_id: q.defects for q in questions if q.defects}
    assert defective == {58: ["empty question_English"], 67: ["empty question_English"]}

    items, prov = load_benchmark("xlinghealth/liveqa", data_dir, LANGS)
    assert len(items) == 244 * 4
    assert prov["defective_ids"] == [58, 67]
    assert len(prov["sha256"]) == 64
    ids = {it.item_id for it in items}
    assert "liveqa-0058" not in ids and "liveqa-0067" not in ids
    # the same question id in every language, each with its own language's text
    first = [it for it in items if it.item_id == "liveqa-0000"]
    assert [it.lang for it in first] == list(LANGS)
    assert first[0].question.startswith("12 years ago I was bitten by tick")
    assert first[2].question.startswith("12年前")
    assert first[0].reference.startswith("Lyme disease tests")
    assert all(len(it.negatives) == 4 for it in first)
    # a negative is another question's own answer (row answer text, not dereferenced by answer_ids)
    assert first[0].negatives[0].startswith("Arachnoiditis A-Z List of Top 1000 Cities")


def test_include_defective_never_sends_empty_question(data_dir: Path) -> None:
    items, prov = load_benchmark("xlinghealth/liveqa", data_dir, LANGS, include_defective=True)
    assert prov["skipped_empty_question"] == ["liveqa-0058/en", "liveqa-0067/en"]
    assert len(items) == 246 * 4 - 2
    assert all(it.question for it in items)
    assert [it.lang for it in items if it.item_id == "liveqa-0058"] == ["es", "zh", "hi"]


def test_medicationqa_defect_and_limit(data_dir: Path) -> None:
    questions = read_questions(data_dir / "MedicationQA.xlsx")
    assert len(questions) == 690
    bad = [q for q in questions if q.defects]
    assert [q.source_id for q in bad] == [212]
    assert bad[0].defects == ["empty answer_English", "empty answer_Chinese"]
    items, _ = load_benchmark("xlinghealth/medicationqa", data_dir, ("en", "hi"), limit=5)
    assert [it.item_id for it in items if it.lang == "hi"] == [f"medicationqa-{i:04d}" for i in range(5)]
    assert items[0].question == "how does rivatigmine and otc sleep medicine interact"


def test_describe_reproduces_table_a1(data_dir: Path) -> None:
    live = {r["lang"]: r for r in describe_benchmark("xlinghealth/liveqa", data_dir)}
    assert live["en"]["questions"] == 246
    assert round(live["en"]["q_words_mean"], 2) == 41.76
    assert round(live["en"]["q_words_sd"], 2) == 37.39
    assert round(live["en"]["a_words_mean"], 2) == 115.25
    assert round(live["en"]["a_words_sd"], 2) == 112.75
    med = {r["lang"]: r for r in describe_benchmark("xlinghealth/medicationqa", data_dir)}
    assert med["en"]["questions"] == 690
    assert (round(med["en"]["q_words_mean"], 2), round(med["en"]["q_words_sd"], 2)) == (6.86, 2.83)
    assert (round(med["en"]["a_words_mean"], 2), round(med["en"]["a_words_sd"], 2)) == (61.50, 69.44)
    assert live["es"]["negatives"] == 984


# ---------------------------------------------------------------------------------------------------------------
# Fixtures built here: HealthQA layouts (1 positive + 9 negatives) and broken files


def _long_rows(n_questions: int, n_negatives: int) -> list[dict[str, object]]:
    rows = []
    for q in range(n_questions):
        for k in range(n_negatives + 1):
            row: dict[str, object] = {"id": q, "label": 1 if k == 0 else 0, "answer_ids": q if k == 0 else 100 + k}
            for name in ("English", "Chinese", "Spanish", "Hindi"):
                row[f"question_{name}"] = f"{name} question {q}"
                row[f"answer_{name}"] = f"{name} answer {q}" if k == 0 else f"{name} paragraph {q}.{k}"
            rows.append(row)
    return rows


def test_healthqa_long_layout_ten_rows(tmp_path: Path) -> None:
    pd.DataFrame(_long_rows(3, 9)).to_excel(tmp_path / "HealthQA.xlsx", sheet_name="Sheet1", index=False)
    items, prov = load_benchmark("xlinghealth/healthqa", tmp_path, LANGS)
    assert len(items) == 12 and prov["questions_in_file"] == 3
    hi = [it for it in items if it.lang == "hi"][1]
    assert hi.item_id == "healthqa-0001"
    assert hi.reference == "Hindi answer 1"
    assert hi.negatives == tuple(f"Hindi paragraph 1.{k}" for k in range(1, 10))


def test_healthqa_legacy_sheets(tmp_path: Path) -> None:
    # one sheet per language; 10 rows per question, id = row index, positive first (spec §1.2–1.3)
    path = tmp_path / "HealthQA.xlsx"
    with pd.ExcelWriter(path) as writer:
        for name in ("English", "Spanish", "Chinese", "Hindi"):
            rows = []
            for r in range(20):
                q, k = divmod(r, 10)
                en_q, en_a = f"English question {q}", (f"English answer {q}" if k == 0 else f"English para {r}")
                row = {"id": r, "label": int(k == 0), "question": en_q, "answer": en_a}
                if name != "English":
                    row["question_translated"] = f"{name} question {q}"
                    row["answer_translated"] = f"{name} answer {q}" if k == 0 else f"{name} para {r}"
                rows.append(row)
            pd.DataFrame(rows).to_excel(writer, sheet_name=name, index=False)
    items, _ = load_benchmark("xlinghealth/healthqa", tmp_path, ("en", "zh"))
    assert [it.item_id for it in items] == ["healthqa-0000", "healthqa-0000", "healthqa-0010", "healthqa-0010"]
    zh = items[3]
    assert (zh.question, zh.reference) == ("Chinese question 1", "Chinese answer 1")
    assert zh.negatives[0] == "Chinese para 11" and len(zh.negatives) == 9


def test_missing_column_names_file_and_column(tmp_path: Path) -> None:
    df = pd.DataFrame(_long_rows(2, 4)).drop(columns=["answer_Hindi"])
    df.to_excel(tmp_path / "LiveQA.xlsx", sheet_name="Sheet1", index=False)
    with pytest.raises(DataError, match=r"LiveQA.xlsx.*Sheet1.*missing column\(s\) answer_Hindi"):
        load_benchmark("xlinghealth/liveqa", tmp_path, LANGS)


def test_bad_label_names_row_and_column(tmp_path: Path) -> None:
    rows = _long_rows(2, 4)
    rows[6]["label"] = "yes"
    pd.DataFrame(rows).to_excel(tmp_path / "LiveQA.xlsx", sheet_name="Sheet1", index=False)
    with pytest.raises(DataError) as err:
        load_benchmark("xlinghealth/liveqa", tmp_path, LANGS)
    assert (err.value.row, err.value.column) == (8, "label")  # data row 7 = spreadsheet row 8
    assert "expected an integer, found 'yes'" in str(err.value)


def test_two_positives_rejected(tmp_path: Path) -> None:
    rows = _long_rows(2, 4)
    rows[1]["label"] = 1
    pd.DataFrame(rows).to_excel(tmp_path / "LiveQA.xlsx", sheet_name="Sheet1", index=False)
    with pytest.raises(DataError, match=r"row 3.*more than one positive"):
        load_benchmark("xlinghealth/liveqa", tmp_path, LANGS)


def test_malformed_file_and_missing_file(tmp_path: Path) -> None:
    (tmp_path / "LiveQA.xlsx").write_bytes(b"this is not a spreadsheet")
    with pytest.raises(DataError, match="cannot read as xlsx"):
        load_benchmark("xlinghealth/liveqa", tmp_path, LANGS)
    with pytest.raises(DataNotFoundError, match=r"must be a folder holding MedicationQA\.xlsx"):
        load_benchmark("xlinghealth/medicationqa", tmp_path, LANGS)


def test_unknown_language_and_language_not_in_file(tmp_path: Path, data_dir: Path) -> None:
    with pytest.raises(ConfigError, match="unknown language code 'xx'"):
        load_benchmark("xlinghealth/liveqa", data_dir, ("en", "xx"))
    with pytest.raises(DataError, match="no columns for language 'ar'"):
        load_benchmark("xlinghealth/liveqa", data_dir, ("en", "ar"))
    with pytest.raises(ConfigError, match="unknown benchmark"):
        load_benchmark("xlinghealth/pubmedqa", data_dir, ("en",))


# ---------------------------------------------------------------------------------------------------------------
# Without --data-dir: download into the user cache when online, say what to pass when not


def test_offline_without_data_dir_says_what_to_pass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from xlingmed.benchmarks import xlinghealth

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(xlinghealth, "UPSTREAM_URL", "http://127.0.0.1:9/{file}")  # nothing listens: refused
    with pytest.raises(DataNotFoundError, match=r"could not download LiveQA\.xlsx.*pass --data-dir DIR"):
        load_benchmark("xlinghealth/liveqa", None, LANGS)
    with pytest.raises(DataNotFoundError, match=r"HealthQA\.xlsx is not published upstream"):
        load_benchmark("xlinghealth/healthqa", None, LANGS)


def test_online_download_is_cached(data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import functools
    import threading
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    from xlingmed.benchmarks import xlinghealth

    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(data_dir))
    handler.log_message = lambda *a: None  # type: ignore[attr-defined]
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
        monkeypatch.setattr(xlinghealth, "UPSTREAM_URL", f"http://127.0.0.1:{server.server_address[1]}/{{file}}")
        items, prov = load_benchmark("xlinghealth/liveqa", None, ("en",), limit=2)
    finally:
        server.shutdown()
    assert len(items) == 2
    cached = tmp_path / "cache" / "xlingmed" / "data" / "xlinghealth" / "LiveQA.xlsx"
    assert Path(prov["file"]) == cached and cached.read_bytes() == (data_dir / "LiveQA.xlsx").read_bytes()
    # the server is gone: the cached copy is used
    assert len(load_benchmark("xlinghealth/liveqa", None, ("en",), limit=2)[0]) == 2
