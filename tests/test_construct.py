"""Benchmark construction against real local servers and real models: ``xlingmed translate``, ``variant`` and
``audit`` through the CLI, with a scripted OpenAI-compatible server whose translations, paraphrases and ratings are
known, so the numbers each command writes can be asserted exactly; MarianMT through a tiny real Marian checkpoint.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from fault_server import FaultServer, Reply, error, ok
from typer.testing import CliRunner

from xlingmed.cli import app
from xlingmed.construct.audit import parse_rating
from xlingmed.construct.translators import clean_translation, make_translator
from xlingmed.errors import ConfigError
from xlingmed.models.seq2seq import split_text
from xlingmed.types import Parsed

EN = {
    "q1": ("What is insulin and what does it do in the body?", "Insulin is a hormone that lowers blood sugar."),
    "q2": ("What is aspirin used for in adults?", "Aspirin relieves pain and reduces fever."),
    "q3": ("What does paracetamol treat in children?", "Paracetamol treats pain and fever in children."),
}
AR = {
    EN["q1"][0]: "ما هو الأنسولين وما هو دوره في الجسم؟",
    EN["q1"][1]: "الأنسولين هرمون يخفض مستوى السكر في الدم.",
    EN["q2"][0]: "ما هي استخدامات الأسبرين عند البالغين؟",
    EN["q2"][1]: "",  # the translator returns nothing: q2 fails in Arabic and is left out
    EN["q3"][0]: "ماذا يعالج الباراسيتامول عند الأطفال؟",
    EN["q3"][1]: "يعالج الباراسيتامول الألم والحمى عند الأطفال.",
}
BACK = {v: k for k, v in AR.items() if v}
BACK[AR[EN["q3"][0]]] = "Something else entirely, about the weather."  # q3's question comes back wrong: flagged
_BLOCK = re.compile(r"from (\w+) to (\w+)\. .*```(.*)```", re.S)


def _translator(prompt: str, attempt: int) -> Reply:
    m = _BLOCK.search(prompt)
    assert m, prompt
    source, target, text = m.groups()
    if (source, target) == ("English", "Arabic"):
        return ok(f"Output: ```{AR[text]}```")  # a prefix and fences, as LLMs write
    if (source, target) == ("Arabic", "English"):
        return ok(BACK[text])
    if target == "Spanish":
        return ok(f"[es] {text}")
    return error(400, "unexpected language pair")


def _qa_file(tmp_path: Path) -> Path:
    rows = [{"item_id": k, "lang": "en", "question": q, "reference": r} for k, (q, r) in EN.items()]
    path = tmp_path / "src.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _cli(*args: Any) -> Any:
    result = CliRunner().invoke(app, [str(a) for a in args])
    return result


def test_translate_keeps_ids_checks_by_back_translation_and_never_guesses(tmp_path: Path) -> None:
    src = _qa_file(tmp_path)
    out = tmp_path / "ar.jsonl"
    with FaultServer(_translator) as server:
        args = ["translate", f"qa:{src}", "--to", "ar", "--translator", "openai/scripted", "--base-url", server.url,
                "--out", out, "--checks", "chrf,lang", "--quiet"]  # fmt: skip
        first = _cli(*args)
        assert first.exit_code == 0, first.output
        calls = server.calls
        again = _cli(*args)  # everything from the cache
        assert again.exit_code == 0, again.output
        assert server.calls == calls
    assert "0 backend calls" in again.output
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    by = {(r["item_id"], r["lang"]): r for r in rows}
    # the source rows are kept; q2 failed (empty translation of its answer) and is not in Arabic at all
    assert sorted(by) == [("q1", "ar"), ("q1", "en"), ("q2", "en"), ("q3", "ar"), ("q3", "en")]
    q1, q3 = by[("q1", "ar")], by[("q3", "ar")]
    assert q1["question"] == AR[EN["q1"][0]] and q1["reference"] == AR[EN["q1"][1]]  # "Output:" and fences gone
    assert q1["source_lang"] == "en" and q1["translator"] == "openai/scripted"
    assert q1["translation_prompt"].startswith("translate@") and q1["translated_at"]
    assert q1["qe_chrf"] == pytest.approx(100.0) and not q1["flagged"]  # the exact source came back
    assert q3["flagged"] and "question: chrf" in q3["flag_reason"] and q3["qe_chrf"] < 30
    assert q1["qe_lang"] == "ar"
    record = json.loads((tmp_path / "ar.translation.json").read_text(encoding="utf-8"))
    (summary,) = record["summary"]
    assert (summary["items"], summary["translated"], summary["failed"], summary["flagged"], summary["written"]) == (
        3, 2, 1, 1, 2,
    )  # fmt: skip
    assert record["failures"] == [
        {"item_id": "q2", "lang": "ar", "fields": ["reference"], "error": "empty translation"}
    ]
    assert record["prompt"]["system"] == "Assistant is a translator, linguist, spelling corrector and improver."
    # the file is a benchmark xlingmed reads, paired by item id with its source
    from xlingmed.benchmarks.custom import load_items

    items, _ = load_items(f"qa:{out}", ["en", "ar"])
    assert {(it.item_id, it.lang) for it in items} == set(by)

    excluded = tmp_path / "ar_clean.csv"
    with FaultServer(_translator) as server:
        res = _cli("translate", f"qa:{src}", "--to", "ar", "--translator", "openai/scripted", "--base-url",
                   server.url, "--out", excluded, "--checks", "chrf", "--exclude-flagged", "--quiet")  # fmt: skip
    assert res.exit_code == 0, res.output
    table = pd.read_csv(excluded, dtype=str, keep_default_na=False)
    assert sorted(zip(table["item_id"], table["lang"], strict=True)) == [
        ("q1", "ar"), ("q1", "en"), ("q2", "en"), ("q3", "en"),
    ]  # fmt: skip


def test_translate_stops_at_max_requests_and_resumes_from_the_cache(tmp_path: Path) -> None:
    src = _qa_file(tmp_path)
    out = tmp_path / "ar.jsonl"
    with FaultServer(_translator) as server:
        args = ["translate", f"qa:{src}", "--to", "ar", "--translator", "openai/scripted", "--base-url", server.url,
                "--out", out, "--checks", "chrf", "--quiet"]  # fmt: skip
        stopped = _cli(*args, "--max-requests", 3)
        assert stopped.exit_code == 3 and "stopped" in stopped.output
        assert not out.exists()  # nothing half-written
        assert server.calls == 3
        done = _cli(*args)
        assert done.exit_code == 0, done.output
    assert "3 cache hits" in done.output and server.calls == 6 + 5  # 6 texts and 5 back-translations, none sent twice


def test_translate_never_sends_option_letters_or_the_answer_key(tmp_path: Path) -> None:
    src = tmp_path / "mc.csv"
    src.write_text(
        "item_id,lang,question,A,B,C,answer\n"
        "m1,en,Which drug lowers blood sugar?,Insulin,Aspirin,Paracetamol,A\n"
        "m2,en,Which drug is an antibiotic?,Ibuprofen,Amoxicillin,Insulin,B\n",
        encoding="utf-8",
    )
    out = tmp_path / "mc_es.jsonl"
    with FaultServer(_translator) as server:
        res = _cli("translate", f"mcq:{src}", "--to", "es", "--translator", "openai/scripted", "--base-url",
                   server.url, "--out", out, "--checks", "none", "--quiet")  # fmt: skip
        sent = [m.group(3) for p, *_ in [(x[1],) for x in server.log] if (m := _BLOCK.search(p))]
    assert res.exit_code == 0, res.output
    assert sorted(sent) == sorted({"Which drug lowers blood sugar?", "Which drug is an antibiotic?", "Insulin",
                                   "Aspirin", "Paracetamol", "Ibuprofen", "Amoxicillin"})  # fmt: skip
    rows = {(r["item_id"], r["lang"]): r for r in map(json.loads, out.read_text(encoding="utf-8").splitlines())}
    es = rows[("m2", "es")]
    assert es["options"] == {"A": "[es] Ibuprofen", "B": "[es] Amoxicillin", "C": "[es] Insulin"}
    assert es["answer"] == "B" and rows[("m1", "es")]["answer"] == "A"
    assert es["question"] == "[es] Which drug is an antibiotic?"


def test_marian_translation_through_the_seq2seq_backend(tmp_path: Path, tiny_marian: Path) -> None:
    src = _qa_file(tmp_path)
    out = tmp_path / "es.parquet"
    res = _cli("translate", f"qa:{src}", "--to", "es", "--translator", f"marian:{tiny_marian}", "--back-translator",
               f"marian:{tiny_marian}", "--out", out, "--checks", "chrf", "--max-tokens", "12", "--limit", "2",
               "--quiet")  # fmt: skip
    assert res.exit_code == 0, res.output
    table = pd.read_parquet(out)
    es = table[table["lang"] == "es"]
    assert list(es["item_id"]) == ["q1", "q2"]
    assert set(es["translator"]) == {f"seq2seq/{tiny_marian}"}
    assert (es["question"].str.len() > 0).all() and es["translation_prompt"].eq("").all()
    assert es["qe_chrf"].between(0, 100).all()
    # a one-direction Marian model cannot be reversed without being told which one
    with pytest.raises(ConfigError, match="--back-translator"):
        make_translator(f"marian:{tiny_marian}", "en", "es").reverse()
    assert make_translator("marian", "en", "ar").reverse().model == "seq2seq/Helsinki-NLP/opus-mt-ar-en"


def test_seq2seq_backend_refuses_a_chat_and_splits_sentences(tiny_marian: Path) -> None:
    import asyncio

    from xlingmed.models.base import get_model
    from xlingmed.types import GenerateRequest, Message

    text = "First sentence. Second one?\n\nما هذا؟ 第三句。"
    parts = split_text(text)
    assert "".join(parts) == text
    assert [p for k, p in enumerate(parts) if k % 2 == 0] == ["First sentence.", "Second one?", "ما هذا؟", "第三句。"]
    model = get_model(f"seq2seq/{tiny_marian}")
    chat = GenerateRequest(messages=(Message("system", "s"), Message("user", "u")))
    raw = GenerateRequest(messages=(Message("user", text),), raw_prompt=True, max_tokens=8)
    bad, good = asyncio.run(model.generate_batch([chat, raw]))  # type: ignore[attr-defined]
    assert bad.error and "raw prompt" in bad.error and bad.permanent
    assert good.ok and good.text.count("\n\n") == 1  # the paragraph break survives the sentence split


def test_clean_translation() -> None:
    assert clean_translation("Output: ```\nHola\n```") == "Hola"
    assert clean_translation("Translation: Bonjour") == "Bonjour"
    assert clean_translation("   ") == ""


def _paraphraser(prompt: str, attempt: int, payload: dict[str, Any]) -> Reply:
    system = payload["messages"][0]["content"]
    assert system == "You are a helpful assistant that paraphrases text while keeping its meaning intact."
    if "aspirin" in prompt:
        return error(400, "content filter")  # a permanent failure: the item is left out, never kept unchanged
    return ok(f"Rephrased: {prompt.lower()}")


_paraphraser.with_payload = True  # type: ignore[attr-defined]


def test_variant_paraphrase_dediacritize_and_gec(tmp_path: Path, tiny_marian: Path) -> None:
    src = _qa_file(tmp_path)
    out = tmp_path / "para.jsonl"
    with FaultServer(_paraphraser) as server:
        res = _cli("variant", f"qa:{src}", "--transform", "paraphrase", "--model", "openai/scripted", "--base-url",
                   server.url, "--out", out, "--quiet")  # fmt: skip
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["item_id"] for r in rows] == ["q1", "q3"]
    assert rows[0]["question"] == f"Rephrased: {EN['q1'][0].lower()}"
    assert rows[0]["reference"] == EN["q1"][1]  # answers kept (MedArabiQ §4.1.7)
    assert rows[0]["original_question"] == EN["q1"][0] and rows[0]["transform"] == "paraphrase"
    record = json.loads((tmp_path / "para.variant.json").read_text(encoding="utf-8"))
    assert record["failures"][0]["item_id"] == "q2" and "content filter" in record["failures"][0]["error"]
    assert record["transform"]["prompt_id"].startswith("paraphrase@")

    arabic = tmp_path / "ar.csv"
    arabic.write_text(
        "item_id,lang,question,reference\n"
        "a1,ar,مَا هُوَ الأنسُولِين؟,هُرمُونٌ يُخَفِّضُ السُّكَّر.\n"
        "a2,ar,ما هو الأسبرين؟,مسكن للألم.\n",
        encoding="utf-8",
    )
    plain = tmp_path / "plain.jsonl"
    res = _cli("variant", f"qa:{arabic}", "--transform", "dediacritize", "--out", plain, "--quiet")
    assert res.exit_code == 0, res.output
    got = [json.loads(line) for line in plain.read_text(encoding="utf-8").splitlines()]
    assert (got[0]["question"], got[0]["reference"]) == ("ما هو الأنسولين؟", "هرمون يخفض السكر.")
    assert got[1]["question"] == "ما هو الأسبرين؟"
    summary = json.loads((tmp_path / "plain.variant.json").read_text(encoding="utf-8"))["summary"]
    assert [(s["field"], s["changed"]) for s in summary] == [("question", 1), ("reference", 1)]

    gec = tmp_path / "gec.jsonl"
    res = _cli("variant", f"qa:{arabic}", "--transform", "gec", "--model", f"seq2seq/{tiny_marian}", "--out", gec,
               "--max-tokens", "8", "--quiet")  # fmt: skip
    assert res.exit_code == 0, res.output
    rec = json.loads((tmp_path / "gec.variant.json").read_text(encoding="utf-8"))
    assert rec["transform"]["pipeline"].startswith("degraded")
    assert [s["field"] for s in rec["summary"]] == ["question", "reference"]  # question and answer (§2.6)
    res = _cli("variant", f"qa:{src}", "--transform", "dediacritize", "--languages", "en", "--out", plain)
    assert res.exit_code == 2 and "applies to ar text only" in res.output


REPLIES = {  # (metric, item) → reply, in the phrasings real raters use
    ("Accuracy", "q1"): "Rating: 5\nThe content matches established knowledge.",
    ("Accuracy", "q2"): "**Accuracy:** 4/5 — mostly correct.",
    ("Accuracy", "q3"): "I would rate this a 2 out of 5. The dose is missing.",
    ("Coherence", "q1"): "Coherence: Yes. Clear and related.",
    ("Coherence", "q2"): "1 - the question and answer fit.",
    ("Coherence", "q3"): "No, the answer is disjointed.",
}
REPLIES_B = {
    ("Accuracy", "q1"): "التقييم: ٥\nالمعلومات صحيحة.",
    ("Accuracy", "q2"): "评分：4。基本准确。",
    ("Accuracy", "q3"): "I cannot rate this item.",  # unparsed: counted, never a number
    ("Coherence", "q1"): "1",
    ("Coherence", "q2"): "Either 0 or 1 would fit here.",  # ambiguous
    ("Coherence", "q3"): "0 (incoherent).",
}


def _rater(prompt: str, attempt: int, payload: dict[str, Any]) -> Reply:
    system = payload["messages"][0]["content"]
    metric = "Accuracy" if "- Accuracy:" in system else "Coherence"
    assert ("Coherence" in system) != ("Accuracy" in system)  # each metric prompted on its own (App. L.2)
    item = next(k for k, (q, _) in EN.items() if q in prompt)
    table = REPLIES_B if payload["model"] == "rater-b" else REPLIES
    return ok(table[(metric, item)])


_rater.with_payload = True  # type: ignore[attr-defined]


def test_audit_two_raters_table_l1_agreement_and_suspects(tmp_path: Path) -> None:
    src = _qa_file(tmp_path)
    out = tmp_path / "audit"
    with FaultServer(_rater) as server:
        res = _cli("audit", f"qa:{src}", "--rater", "openai/rater-a", "--rater", "openai/rater-b", "--metrics",
                   "accuracy,coherence", "--base-url", server.url, "--out", out, "--quiet")  # fmt: skip
    assert res.exit_code == 0, res.output
    ratings = pd.read_csv(out / "ratings.csv", dtype=str, keep_default_na=False)
    got = {(r.rater, r.metric, r.item_id): (r.value, r.parse_method) for r in ratings.itertuples()}
    assert got[("openai/rater-a", "accuracy", "q2")] == ("4", "labelled")
    assert got[("openai/rater-a", "accuracy", "q3")] == ("2", "fraction")
    assert got[("openai/rater-b", "accuracy", "q1")] == ("5", "labelled")  # Arabic-Indic digit
    assert got[("openai/rater-b", "accuracy", "q3")] == ("", "unparsed")
    assert got[("openai/rater-b", "coherence", "q2")] == ("", "ambiguous")
    summary = pd.read_csv(out / "summary.csv", keep_default_na=False).set_index("rater")
    assert summary.loc["openai/rater-a", "accuracy"] == "3.667 ± 1.528"
    assert summary.loc["openai/rater-b", "accuracy"] == "4.500 ± 0.707"
    assert int(summary.loc["openai/rater-b", "accuracy_unparsed"]) == 1
    items = pd.read_csv(out / "items.csv", keep_default_na=False).set_index("item_id")
    assert bool(items.loc["q3", "suspect"]) and "accuracy 2.00 < 3" in items.loc["q3", "suspect_reasons"]
    assert "coherence: most raters say no" in items.loc["q3", "suspect_reasons"]
    assert not bool(items.loc["q1", "suspect"])
    agreement = pd.read_csv(out / "agreement.csv").set_index("metric")
    # accuracy: both raters read q1 (5, 5) and q2 (4, 4): perfect agreement on the items both rated
    assert int(agreement.loc["accuracy", "n_items"]) == 2
    assert agreement.loc["accuracy", "fleiss_kappa"] == pytest.approx(1.0)
    meta = json.loads((out / "audit.json").read_text(encoding="utf-8"))
    assert meta["unparsed"]["openai/rater-b"]["en"] == {"unparsed": 1, "ambiguous": 1}


def test_audit_flags_the_known_medarabiq_quirks(tmp_path: Path) -> None:
    from medarabiq_fixtures import write_all

    from xlingmed.benchmarks import load_benchmark
    from xlingmed.construct.audit import structural_flags

    data = write_all(tmp_path / "data")
    items, _ = load_benchmark("medarabiq/mcq_bias", data, ["ar"])
    flags = structural_flags(items)
    quirky = {k for k, v in flags.items() if "mitigation_text_from_other_bias" in v}
    assert quirky, "the fixture's mitigation text of another bias is flagged"
    dup = [it for it in items if len({c.text for c in it.choices}) < len(it.choices)]
    assert all("duplicate_option_text" in flags[(it.item_id, it.lang)] for it in dup)


@pytest.mark.parametrize(
    ("reply", "scale", "value", "method"),
    [
        ("Rating: 4\nThe question is accurate.", "likert", 4, "labelled"),
        ("**Accuracy:** 5/5 — correct.", "likert", 5, "labelled"),
        ("I would rate this a 3 out of 5 because the age is missing.", "likert", 3, "fraction"),
        ("4", "likert", 4, "leading"),
        ("التقييم: ٤\nالسؤال دقيق.", "likert", 4, "labelled"),
        ("الدرجة: 2 من 5 لأن الجرعة غير مذكورة.", "likert", 2, "labelled"),
        ("评分：3。问题基本准确。", "likert", 3, "labelled"),
        ("रेटिंग: ५। प्रश्न सटीक है।", "likert", 5, "labelled"),
        ("Puntuación: 2. La pregunta es ambigua.", "likert", 2, "labelled"),
        ("The item deserves 4 points; it is accurate.", "likert", 4, "only_number"),
        ("Rating: 7", "likert", None, "out_of_scale"),
        ("Accuracy 4; factuality 2", "likert", None, "ambiguous"),
        ("The question about a 35-year-old is mostly accurate.", "likert", None, "unparsed"),
        ("Coherence: Yes. The question is clear.", "binary", 1, "labelled_yes_no"),
        ("Specificity: 0 (the age is missing).", "binary", 0, "labelled"),
        ("Score: 1/1", "binary", 1, "labelled"),
        ("No, the dose is missing.", "binary", 0, "yes_no"),
        ("No issues: the wording is coherent.", "binary", None, "unparsed"),
        ("نعم، السؤال واضح.", "binary", 1, "yes_no"),
        ("是。问题清楚。", "binary", 1, "yes_no"),
        ("नहीं। उत्तर अधूरा है।", "binary", 0, "yes_no"),
        ("I cannot rate this.", "likert", None, "unparsed"),
    ],
)
def test_parse_rating_reads_real_phrasings_and_never_guesses(reply: str, scale: str, value: Any, method: str) -> None:
    parsed = parse_rating(reply, scale)
    assert (parsed.value, parsed.method) == (value, method)


@pytest.mark.parametrize(
    ("reply", "value"),
    [("Ja. Die Frage ist klar.", 1), ("いいえ。曖昧です。", 0), ("Oui, cohérent.", 1), ("是的。", 1), ("不是。", 0)],
)
def test_a_leading_yes_or_no_is_read_in_every_language_the_project_knows(reply: str, value: int) -> None:
    # the yes/no words come from languages/ (de, ja, fr, zh…), not from a list of the audit's own
    assert parse_rating(reply, "binary") == Parsed(value, "yes_no")
