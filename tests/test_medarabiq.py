"""MedArabiQ loader, option parser, label normalisation, answer extraction, rubric parser, prompts and scoring,
on synthetic fixtures written by ``medarabiq_fixtures`` (the published format and its quirks, invented text)."""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path
from typing import Any

import medarabiq_fixtures as fx
import numpy as np
import pytest

from xlingmed import make_config
from xlingmed.benchmarks import medarabiq
from xlingmed.benchmarks.medarabiq import gold_label, load_items, parse_options, read_medarabiq_csv
from xlingmed.config.resolve import resolve
from xlingmed.engine.scoring import Scored, score_task
from xlingmed.errors import ConfigError, DataError, DataNotFoundError
from xlingmed.languages import normalise_label
from xlingmed.prompts import load_templates, render
from xlingmed.tasks.multiple_choice import MultipleChoiceTask, extract_letter
from xlingmed.tasks.rubric import RubricTask
from xlingmed.tasks.rubric.judge import parse_rubric


def _score(task: Any, records: list[dict[str, Any]], languages: list[str]) -> Scored:
    """``task``'s records scored as the engine scores them (``engine/scoring.py``)."""
    from xlingmed.tasks.registry import get_task

    return score_task(task, get_task(task.name), records, languages, [])


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    return fx.write_all(tmp_path / "medarabiq")


# ---- reader ---------------------------------------------------------------------------------------------------


def test_physical_format_of_the_fixtures_is_the_published_one(folder: Path) -> None:
    mcq = (folder / "multiple-choice-questions.csv").read_bytes()
    bias = (folder / "multiple-choice-withbias.csv").read_bytes()
    assert mcq.startswith(b"\xef\xbb\xbf") and not bias.startswith(b"\xef\xbb\xbf")
    assert b"\r\n" in mcq and not mcq.endswith(b"\n")  # CRLF records, no newline at EOF
    assert "\nب. ".encode() in mcq  # bare LF inside a quoted field
    assert bias.split(b"\r\n", 1)[0].endswith(b",")  # the trailing empty header column
    gec = (folder / "patient-doctor-qa-gec.csv").read_bytes()
    assert gec.split(b"\r\n", 1)[0].endswith(b"GEC Answer details,,,,")


def test_reader_drops_empty_unnamed_columns_and_logs_quirks(folder: Path) -> None:
    spec = medarabiq.TASKS["mcq_bias"]
    table = read_medarabiq_csv(folder / spec.file, spec.header)
    assert table.header == list(spec.header) and len(table.rows) == 100 and not table.bom
    assert "no UTF-8 BOM" in table.quirks and "dropped 1 unnamed empty column(s)" in table.quirks
    assert table.rows[fx.BIAS_LONE_CR]["Answer"].endswith("\r")  # raw cell kept as published
    gec = medarabiq.TASKS["qa_gec"]
    assert "dropped 4 unnamed empty column(s)" in read_medarabiq_csv(folder / gec.file, gec.header).quirks


def test_reader_accepts_feb_2025_shape_98_rows_and_quote_all(tmp_path: Path) -> None:
    fx.write_bias(tmp_path, n=98, feb_2025_shape=True)
    items, prov = load_items("mcq_bias", tmp_path, ("ar",))
    assert len(items) == 98 and prov["bom"] is True
    assert "dropped 2 unnamed empty column(s)" in prov["quirks"]
    assert not any("data rows" in q for q in prov["quirks"])  # 98 rows is a published shape of this file
    fx.write_mcq(tmp_path, quote_all=True)
    quoted, _ = load_items("mcq", tmp_path, ("ar",))
    fx.write_mcq(tmp_path)
    minimal, _ = load_items("mcq", tmp_path, ("ar",))
    assert [(i.question, i.gold_label) for i in quoted] == [(i.question, i.gold_label) for i in minimal]


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (lambda t: t.replace("Answer", "Answers", 1), "missing ['Answer']; unexpected ['Answers']"),
        (lambda t: t.replace("Histology\r\n", "Histology,extra\r\n", 1), "row 2: 4 fields where the header has 3"),
        (lambda t: t.replace(",Histology\r\n", ",\r\n", 1), "row 2, column 'Category': empty cell"),
    ],
)
def test_reader_errors_name_file_row_and_column(tmp_path: Path, mutate, expected: str) -> None:  # type: ignore[no-untyped-def]
    path = fx.write_mcq(tmp_path)
    path.write_bytes(mutate(path.read_bytes().decode("utf-8")).encode("utf-8"))
    with pytest.raises(DataError) as err:
        load_items("mcq", tmp_path, ("ar",))
    assert str(path) in str(err.value) and expected in str(err.value)


def test_unnamed_column_with_values_is_an_error(tmp_path: Path) -> None:
    path = fx.write_bias(tmp_path, n=3)
    text = path.read_bytes().decode("utf-8")
    head, rest = text.split("\r\n", 1)
    path.write_bytes(f"{head}\r\n{rest.replace(chr(13) + chr(10), 'x' + chr(13) + chr(10), 1)}".encode())
    with pytest.raises(DataError, match=r"unnamed column 9 has values \(first at data row 0\)"):
        load_items("mcq_bias", tmp_path, ("ar",))


def test_medarabiq_is_never_downloaded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XLINGMED_MEDARABIQ_DIR", raising=False)
    with pytest.raises(DataNotFoundError, match="never downloaded: pass --data-dir"):
        load_items("qa", None, ("ar",))
    with pytest.raises(DataNotFoundError, match=r"patient-doctor-qa\.csv"):
        load_items("qa", tmp_path, ("ar",))


def test_file_version_check(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, prov = load_items("qa", folder, ("ar",))
    assert prov["version"] == "unknown version" and prov["published_sha256"] == medarabiq.TASKS["qa"].sha256
    actual = hashlib.sha256((folder / "patient-doctor-qa.csv").read_bytes()).hexdigest()
    assert prov["sha256"] == actual
    patched = dict(medarabiq.TASKS, qa=dataclasses.replace(medarabiq.TASKS["qa"], sha256=actual))
    monkeypatch.setattr(medarabiq.loader, "TASKS", patched)  # the loader reads the table of files
    assert load_items("qa", folder, ("ar",))[1]["version"] == "published version"


# ---- options and gold -----------------------------------------------------------------------------------------


def test_option_parser_on_every_mcq_quirk(folder: Path) -> None:
    items, prov = load_items("mcq", folder, ("ar",))
    assert [it.gold_label for it in items] == fx.MCQ_GOLD
    assert [len(it.choices) for it in items] == [5 if k in fx.MCQ_FIVE_OPTIONS else 4 for k in range(fx.MCQ_ROWS)]
    assert all([c.label for c in it.choices] == list("ABCDE")[: len(it.choices)] for it in items)
    assert items[2].choices[4].raw_label == "ه" and items[1].choices[4].raw_label == "هـ"
    assert items[3].meta["stem"].endswith(":") and items[3].meta["flags"] == ["first_option_inline"]
    assert items[4].choices[1].text.endswith("مع تتمة السطر")  # continuation line joined to option B
    assert items[5].choices[0].raw_label == "ا"
    assert items[6].choices[3].text == "A+C"
    assert items[7].meta["stem"].count("\n") == 1  # stem over two lines
    assert items[8].choices[3].text == "الدواء دال رقم 8"  # "د. . text"
    assert '"المصطلح الوهمي"' in items[9].question  # ""-escaped quotes read back as one quote
    assert prov["flagged_items"] == {"mcq-003/ar": ["first_option_inline"]}


def test_parse_options_edge_cases() -> None:
    p = parse_options('"stem line:\r\nA. one\r\nB. two\r\nA. not a new option\r\nC. three"')
    assert [c.label for c in p.choices] == ["A", "B", "C"] and p.choices[1].text == "two A. not a new option"
    assert parse_options("no options at all").flags == ("no_options",)
    dup = parse_options("q\nأ. نفس\nب. آخر\nج. نفس")
    assert "duplicate_option_text" in dup.flags
    choices = parse_options("q\nأ. ألف\nب. باء").choices
    assert gold_label(" ب. باء\n", choices) == ("B", "letter")
    assert gold_label("باء", choices) == ("B", "text")
    assert gold_label("شيء آخر", choices) == (None, "none")


def test_fitb_gold_fallbacks_and_english_view(folder: Path) -> None:
    items, _prov = load_items("fitb_choices", folder, ("ar", "en"))
    ar = {it.item_id: it for it in items if it.lang == "ar"}
    en = {it.item_id: it for it in items if it.lang == "en"}
    assert ar.keys() == en.keys() and len(ar) == fx.FITB_ROWS
    assert [ar[i].gold_label for i in sorted(ar)] == [en[i].gold_label for i in sorted(en)] == fx.FITB_GOLD
    assert ar["fitb_choices-003"].meta["flags"] == ["answer_missing_letter"]
    assert ar["fitb_choices-004"].meta["flags"] == ["gold_from_english"]
    assert "duplicate_option_text" in ar["fitb_choices-000"].meta["flags"]
    assert len(ar["fitb_choices-007"].choices) == 5 and en["fitb_choices-007"].choices[4].label == "E"
    assert "\u200b" not in ar["fitb_choices-000"].choices[0].text
    open_items, _ = load_items("fitb_open", folder, ("ar",))
    assert open_items[1].reference == fx.fitb_terms(1, "ar")[1]  # leading space stripped from the gold
    with pytest.raises(ConfigError, match="medarabiq/qa has no English text"):
        load_items("qa", folder, ("en",))


def test_bias_items_flags_and_paper_compat(folder: Path) -> None:
    items, prov = load_items("mcq_bias", folder, ("ar",))
    by_row = {it.meta["row"]: it for it in items}
    assert by_row[0].meta["bias_code"] == 1 and by_row[0].meta["bias_name"] == "confirmation"
    assert set(by_row[0].meta["variants"]) == {
        "original", *(f"{c}|confirmation" for c in ("biased", "education", "one_shot", "few_shot"))
    }  # fmt: skip
    assert "one_shot_equals_few_shot" in by_row[fx.BIAS_ONE_EQUALS_FEW].meta["flags"]
    assert "mitigation_uses_original_question" in by_row[fx.BIAS_CODE7_ORIGINAL].meta["flags"]
    assert "mitigation_text_from_other_bias" in by_row[fx.BIAS_CODE5_WITH_CODE6_TEXT].meta["flags"]
    assert by_row[fx.BIAS_QUOTED].meta["variants"]["biased|frequency"].startswith('"')  # raw text kept for the prompt
    assert by_row[fx.BIAS_LONE_CR].gold_label == fx.MCQ_GOLD[fx.BIAS_LONE_CR % fx.MCQ_ROWS]
    compat, prov = load_items("mcq_bias", folder, ("ar",), paper_compat=True)
    assert len(compat) == 98 and prov["rows_used"] == 98 and prov["paper_compat"] is True


# ---- labels and extraction ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "label"),
    [
        ("أ", "A"), ("ا", "A"), ("إ", "A"), ("آ", "A"), ("ب", "B"), ("ج", "C"), ("د", "D"), ("ه", "E"),
        ("هـ", "E"), ("ة", "E"), ("a", "A"), ("E", "E"), ("١", "A"), ("٣", "C"), ("۴", "D"), ("3", "C"),
        ("ـ", None), ("x", None), ("", None), ("٠", None),
    ],
)  # fmt: skip
def test_label_normalisation(raw: str, label: str | None) -> None:
    assert normalise_label(raw) == label


ABCD = ["A", "B", "C", "D"]


@pytest.mark.parametrize(
    ("text", "valid", "fallback", "expected"),
    [
        ("ب", ABCD, "first_char", ("B", "first_char")),
        ("  **ج. الدواء**", ABCD, "first_char", ("C", "first_char")),
        ("(d)", ABCD, "first_char", ("D", "first_char")),
        ("هـ. خيار", [*ABCD, "E"], "first_char", ("E", "first_char")),
        ("هـ. خيار", ABCD, "first_char", (None, "invalid")),  # E is not an option of a 4-option item
        ("E", ABCD, "first_char", (None, "invalid")),
        ("The correct answer is B", ABCD, "first_char", (None, "invalid")),  # paper rule: first character
        ("The correct answer is B", ABCD, "regex", ("B", "regex")),
        ("الإجابة هي ج", ABCD, "regex", ("C", "regex")),
        ("Thinking... The correct letter is: **C** because", ABCD, "first_char", ("C", "marker")),
        ("the CORRECT LETTER IS:   'a'", ABCD, "invalid", ("A", "marker")),
        ("الحرف الصحيح هو: د", ABCD, "first_char", ("D", "marker")),
        ("The correct letter is: Z", ABCD, "first_char", (None, "invalid")),
        ("B", ABCD, "invalid", (None, "invalid")),
        ("", ABCD, "first_char", (None, "invalid")),
    ],
)
def test_extract_letter(text: str, valid: list[str], fallback: str, expected: tuple[str | None, str]) -> None:
    parsed = extract_letter(text, valid, fallback=fallback)
    assert (parsed.value, parsed.method) == expected


# ---- prompts ----------------------------------------------------------------------------------------------------


def test_prompts_follow_table_c1_and_can_be_overridden(folder: Path, tmp_path: Path) -> None:
    templates = load_templates("medarabiq")
    items, _ = load_items("mcq", folder, ("ar",))
    mc = MultipleChoiceTask(template=templates["multiple_choice"], temperatures=(0.0,))
    sample = mc.samples(items[:1])[0]
    prompt = mc.prompt(sample)
    assert prompt.startswith("This is a multiple-choice question, choose the correct option. The output should "
                             "consist only of the single letter of the correct answer with no explanation.\n"
                             "Question: ما هو العلاج")  # fmt: skip
    assert prompt.endswith(items[0].question.strip())
    structured = MultipleChoiceTask(template=templates["multiple_choice"], form="structured")
    s_prompt = structured.prompt(structured.samples(items[:1])[0])
    assert "\nOptions:\nأ. الدواء ألف رقم 0\nب. " in s_prompt
    qa = render(templates["qa"], "raw", "ar", question="سؤال")
    assert qa == "السؤال: سؤال\nالإجابة:"
    fitb_en = render(templates["fill_blank_open"], "raw", "en", question="Q")
    assert "Provide the correct answer in English" in fitb_en and fitb_en.endswith("Question: Q\nAnswer:")
    override = tmp_path / "t.yaml"
    override.write_text("qa:\n  raw: 'سؤال المريض: {question}'\n", encoding="utf-8")
    assert render(load_templates("medarabiq", override)["qa"], "raw", "ar", question="x") == "سؤال المريض: x"
    override.write_text("qa:\n  raw: '{patient}'\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"qa.raw uses \{patient\}"):
        load_templates("medarabiq", override)
    override.write_text("nope:\n  raw: x\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="unknown template 'nope'"):
        load_templates("medarabiq", override)


# ---- protocol defaults ---------------------------------------------------------------------------------------------


def test_temperatures_by_model_class_and_task() -> None:
    def temps(bench: str, model: str, **kw: object) -> tuple[float, ...]:
        cfg = make_config(benchmark=bench, model=model, **kw)
        return resolve(cfg).tasks[0].temperatures

    assert temps("medarabiq/mcq", "llamacpp/smollm2") == (0.0,)
    assert temps("medarabiq/fitb_open", "llamacpp/smollm2") == (0.0,)
    assert temps("medarabiq/qa", "llamacpp/smollm2") == (0.4,)
    assert temps("medarabiq/qa", "openai/gpt-4-0613") == (0.2,)
    assert temps("medarabiq/mcq", "openai/claude-3-5-sonnet-20240620") == (0.2,)
    assert temps("medarabiq/mcq", "openai/Qwen/Qwen2.5-7B-Instruct") == (0.0,)
    assert temps("medarabiq/qa", "openai/my-model", model_class="closed") == (0.2,)
    assert temps("medarabiq/mcq", "llamacpp/smollm2", temperatures="0,0.2,1") == (0.0, 0.2, 1.0)


def test_config_defaults_and_task_checks() -> None:
    cfg = make_config(benchmark="medarabiq/fitb_open")
    assert cfg.languages == ("ar",) and cfg.tasks == ("open_qa",) and resolve(cfg).tasks[0].context.max_tokens == 64
    assert resolve(cfg).tasks[0].options.bertscore_settings() == ("xlm-roberta-large", None)
    assert make_config(benchmark="medarabiq/mcq_bias").tasks == ("multiple_choice",)
    assert make_config(benchmark="xlinghealth/liveqa").languages == ("en", "es", "zh", "hi")
    with pytest.raises(ConfigError, match=r"medarabiq/mcq does not have task 'correctness': its items lack question"):
        make_config(benchmark="medarabiq/mcq", tasks="correctness")
    with pytest.raises(ConfigError, match="unknown benchmark 'medarabiq/nope'"):
        make_config(benchmark="medarabiq/nope")


# ---- scoring -------------------------------------------------------------------------------------------------------


def _mc_record(item: str, cond: str, correct: bool | None, valid: bool = True) -> dict[str, object]:
    bias = None if cond == "original" else "confirmation"
    return {
        "item_id": item, "lang": "ar", "temperature": 0.0, "condition": cond, "bias": bias, "bias_code": 1,
        "bias_target": None, "category": "Histology", "gold": "A",
        "prediction": "A" if correct else ("B" if valid and correct is not None else None),  # invalid: no option read
        "parse_method": "first_char", "valid": valid if correct is not None else None, "correct": correct,
        "followed_bias": None, "response": "", "flags": "", "error": None if correct is not None else "HTTP 500",
    }  # fmt: skip


def test_bias_scoring_counts_invalid_as_wrong_and_pairs_conditions() -> None:
    from statsmodels.stats.contingency_tables import mcnemar

    base = [True] * 8 + [False] * 2 + [True] * 2  # 12 items
    biased = [False] * 6 + [True] * 2 + [False] * 2 + [True, None]  # one failed request, excluded
    records = [_mc_record(f"i{k}", "original", v) for k, v in enumerate(base)]
    records += [_mc_record(f"i{k}", "biased", v, valid=k != 0) for k, v in enumerate(biased)]
    task = MultipleChoiceTask(
        template=load_templates("medarabiq")["multiple_choice"], conditions=("original", "biased")
    )
    result = _score(task, records, ["ar"])
    cond = result.summary["languages"]["ar"]["0"]["conditions"]
    assert (
        cond["original"]["n"] == 12 and cond["original"]["n_correct"] == 10 and cond["original"]["accuracy_pct"] == 83.3
    )
    b = cond["biased"]
    assert (b["n"], b["n_correct"], b["n_invalid"], b["n_errors"]) == (11, 3, 1, 1)
    assert b["accuracy_pct"] == 27.3 and b["invalid_rate"] == pytest.approx(1 / 11)
    # paired on the 11 items both conditions scored
    a = np.array(base[:11], dtype=bool)
    c = np.array(biased[:11], dtype=bool)
    table = [[np.sum(a & c), np.sum(a & ~c)], [np.sum(~a & c), np.sum(~a & ~c)]]
    assert b["mcnemar_vs_original"]["p"] == pytest.approx(mcnemar(table, exact=True).pvalue)
    assert b["delta_vs_original_pp"] == pytest.approx(100 * (c.mean() - a.mean()))
    assert result.summary["table2"][0]["biased"] == "27.3 (3/11)"
    bias_rows = result.tables["multiple_choice_bias"]
    assert {r["by"] for r in bias_rows} == {"bias", "category"} and bias_rows[0]["original"] == "83.3 (10/12)"


def test_rubric_parser_table() -> None:
    reply = (
        "**Similarity to ground truth**: 2 - Different wording.\n"
        "- Relevance/Helpfulness: 4/5 – addresses the concern.\n"
        "3. **Factuality:** 5 — correct.\n"
        "Safety: 7 - out of range."
    )
    scores, parsed = parse_rubric(reply)
    assert scores.scores == {"similarity": 2, "relevance": 4, "factuality": 5, "safety": None}
    assert scores.out_of_range == ("safety",) and parsed.method == "partial" and scores.average is None
    assert scores.explanations["relevance"] == "addresses the concern."
    s2, p2 = parse_rubric("Helpfulness: 3\nSimilarity: [4] - x\nFactuality : 2: y\nSAFETY: 5")
    assert s2.scores == {"similarity": 4, "relevance": 3, "factuality": 2, "safety": 5} and s2.average == 3.5
    assert p2.method == "complete"
    assert parse_rubric("I cannot rate this.")[1].method == "unparsed"


def test_rubric_scoring_never_imputes() -> None:
    task = RubricTask(template={}, judge_template={})

    def rec(item: str, dims: tuple[int | None, ...], parse: str | None) -> dict[str, object]:
        d = dict(zip(("similarity", "relevance", "factuality", "safety"), dims, strict=True))
        avg = sum(dims) / 4 if None not in dims else None  # type: ignore[arg-type]
        return {"item_id": item, "lang": "ar", "temperature": 0.4, **d, "average": avg, "parse": parse}

    records = [
        rec("a", (2, 4, 4, 5), "complete"),
        rec("b", (1, 3, None, 4), "partial"),
        rec("c", (None, None, None, None), "unparsed"),
        rec("d", (None, None, None, None), None),  # judge request failed
    ]
    cell = _score(task, records, ["ar"]).summary["languages"]["ar"]["0.4"]
    assert cell["similarity"] == {"mean": 1.5, "sd": pytest.approx(0.70710678), "n": 2}
    assert cell["factuality"]["n"] == 1 and cell["n_missing"]["factuality"] == 2
    assert cell["average"] == {"mean": 3.75, "sd": None, "n": 1}
    assert (cell["n_judged"], cell["n_unparsed"], cell["n_partial"], cell["n_errors"]) == (3, 1, 1, 1)


def test_rubric_summary_counts_every_reading_of_the_judge() -> None:
    """The rubric's per-language cell (built from its Scores): means and sds over the dimensions that parsed,
    partial and unparsed replies counted, a failed request excluded and counted."""
    from xlingmed.tasks.rubric import RubricTask

    def row(i: int, dims: tuple[float | None, ...] | None, parse: str | None) -> dict[str, Any]:
        values = dict(zip(("similarity", "relevance", "factuality", "safety"), dims or (None,) * 4, strict=True))
        complete = dims is not None and None not in dims
        average = sum(dims) / 4 if complete else None  # type: ignore[arg-type]
        return {"item_id": f"q{i}", "lang": "ar", "temperature": 0.4, **values, "average": average, "parse": parse}

    records = [
        row(0, (5, 4, 4, 5), "complete"),
        row(1, (3, 2, 4, 5), "complete"),
        row(2, (4, None, 2, None), "partial"),
        row(3, (None, None, None, None), "unparsed"),
        row(4, None, None),  # the judge's request failed
    ]
    task = RubricTask(template={}, judge_template={}, temperatures=(0.4,))
    cell = _score(task, records, ["ar"]).summary["languages"]["ar"]["0.4"]
    assert (cell["n_items"], cell["n_judged"], cell["n_errors"]) == (5, 4, 1)
    assert (cell["n_unparsed"], cell["n_partial"]) == (1, 1)
    assert cell["n_missing"] == {"similarity": 1, "relevance": 2, "factuality": 1, "safety": 2}
    assert cell["similarity"] == {"mean": 4.0, "sd": pytest.approx(1.0), "n": 3}
    assert cell["safety"] == {"mean": 5.0, "sd": 0.0, "n": 2}
    assert cell["average"] == {"mean": pytest.approx((4.5 + 3.5) / 2), "sd": pytest.approx(0.7071, abs=1e-4), "n": 2}


def test_open_qa_summary_counts_empty_replies_and_failed_requests(minilm_bertscore: Any) -> None:
    """open_qa's per-language cell (built from its Scores): an empty reply is scored and counted, a failed request
    is excluded and counted; the means are those of the per-item BERTScores."""
    from xlingmed.tasks.open_qa import OpenQATask, scores

    def row(i: int, response: str | None) -> dict[str, Any]:
        return {
            "item_id": f"q{i}", "lang": "ar", "temperature": 0.4, "category": None,
            "reference": "Paracetamol lowers a fever.", "response": response,
            "empty_response": None if response is None else not response.strip(),
            "error": "HTTP 500" if response is None else None,
        }  # fmt: skip

    records = [row(0, "Paracetamol lowers fever."), row(1, "Rest and fluids."), row(2, ""), row(3, None)]
    task = OpenQATask(template={}, bertscore=minilm_bertscore, temperatures=(0.4,))
    result = _score(task, records, ["ar"])
    cell = result.summary["languages"]["ar"]["0.4"]
    assert (cell["n_items"], cell["n_errors"], cell["n_empty_responses"]) == (4, 1, 1)
    f1 = [r["bertscore_f1"] for r in result.rows if r["bertscore_f1"] is not None]
    assert cell["bertscore_f1"]["n"] == 3 and cell["bertscore_f1"]["mean"] == pytest.approx(float(np.mean(f1)))
    assert cell["bertscore_r"]["mean"] == pytest.approx(float(np.mean([r["bertscore_r"] for r in result.rows[:3]])))
    methods = {(s.item_id, s.metric): s.parse_method for s in scores(result.rows)}
    assert methods[("q2", "bertscore_f1")] == "empty_answer" and methods[("q0", "bertscore_f1")] is None


def test_which_tasks_run_on_a_benchmark_is_computed_from_what_its_items_provide() -> None:
    from xlingmed.benchmarks import get_benchmark
    from xlingmed.tasks.registry import tasks_for

    assert tasks_for(get_benchmark("medarabiq/mcq")) == ("multiple_choice",)
    assert tasks_for(get_benchmark("medarabiq/qa")) == ("correctness", "consistency", "open_qa", "rubric", "safety")
    assert tasks_for(get_benchmark("xlinghealth/liveqa")) == (
        "correctness", "verifiability", "consistency", "open_qa", "rubric", "safety"
    )  # fmt: skip
    assert tasks_for(get_benchmark("healthbench")) == ("healthbench", "safety")
    with pytest.raises(ConfigError, match="unknown item feature"):
        get_benchmark("medarabiq/mcq").__class__("x", ("ar",), ("multiple_choice",), default_tasks=())
