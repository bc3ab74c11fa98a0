"""Issue 51: consistency in Thai, Yoruba and Zulu. Thai is written without spaces between words: its n-grams and
lengths count PyThaiNLP's words, not whole phrases. langid has no model of Yoruba: its language consistency is
named as not measured (NaN, never 0 %). BERTScore takes the encoder the user names (here the local MiniLM, a toy
stand-in for a multilingual one). A real run against a local scripted server."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

from fault_server import FaultServer, Reply, ok
from typer.testing import CliRunner

from xlingmed import evaluate
from xlingmed.cli import app
from xlingmed.config import make_config
from xlingmed.languages import word_count
from xlingmed.metrics.language_id import LanguageIdentifier
from xlingmed.metrics.lexical import native_tokens

ANSWERS = {
    "en": "See a doctor at once if the chest pain lasts.",
    "th": "ผู้ป่วยควรพบแพทย์ทันทีหากมีอาการเจ็บหน้าอก",
    "yo": "Ẹ lọ rí dókítà lẹ́sẹ̀kẹsẹ̀ tí ìrora àyà bá ń bá a lọ.",
    "zu": "Bona udokotela ngokushesha uma ubuhlungu besifuba buqhubeka.",
    "ja": "胸の痛みが続くならすぐに医師に診てもらってください。",
}
QUESTIONS = {"en": "What should I do about chest pain?", "th": "ควรทำอย่างไรเมื่อเจ็บหน้าอก",
             "yo": "Kí ni kí n ṣe nípa ìrora àyà?", "zu": "Kufanele ngenzeni ngobuhlungu besifuba?",
             "ja": "胸が痛いときはどうすればいいですか？"}  # fmt: skip


def _reply(prompt: str, attempt: int) -> Reply:
    lang = next(lg for lg, q in QUESTIONS.items() if q in prompt)
    return ok(ANSWERS[lang])


def test_thai_words_are_segmented() -> None:
    words = native_tokens(ANSWERS["th"], "th")
    assert words == ["ผู้ป่วย", "ควร", "พบ", "แพทย์", "ทันที", "หาก", "มี", "อาการ", "เจ็บ", "หน้าอก"]
    assert word_count(ANSWERS["th"], "th") == 10 and word_count(ANSWERS["zu"], "zu") == 7


def test_consistency_in_thai_yoruba_and_zulu(tmp_path: Path, minilm_path: str) -> None:
    data = tmp_path / "qa.csv"
    with data.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "lang", "question", "reference"])
        w.writerows([["q1", lg, q, ANSWERS[lg]] for lg, q in QUESTIONS.items()])
    with FaultServer(_reply) as server:
        cfg = make_config(benchmark=f"qa:{data}", languages="en,th,yo,zu,ja", tasks="consistency", model="openai/m",
                          base_url=server.url, temperatures="0", consistency_mode="native", samples=2,
                          consistency_prompt_language="en", language_id="restricted",
                          consistency_metrics="ngram,length,bertscore,lang_consistency",
                          bertscore_model=minilm_path, bertscore_layers=6, out=tmp_path / "run")  # fmt: skip
        result = evaluate(cfg)
    c = result.summary["tasks"]["consistency"]
    # Japanese has no word segmenter here: its n-grams and lengths are named as not measured and left empty
    no_words = "no word segmenter for Japanese, written without spaces"
    assert c["settings"]["not_available"] == {"lang_consistency": {"yo": "langid has no model of Yoruba"},
                                              "ngram": {"ja": no_words}, "length": {"ja": no_words}}
    rows = {r["lang"]: r for r in csv.DictReader((tmp_path / "run" / "consistency.csv").open(encoding="utf-8"))}
    # the same answer twice: identical n-grams; Thai's length is its 10 words, not one run of letters
    assert float(rows["th"]["length_mean"]) == 10.0 and float(rows["th"]["sim_1gram"]) == 1.0
    assert float(rows["zu"]["length_mean"]) == 7.0 and float(rows["yo"]["sim_2gram"]) == 1.0
    assert all(float(rows[lg]["bertscore_f1"]) > 0.99 for lg in ANSWERS)
    assert rows["ja"]["sim_1gram"] == rows["ja"]["length_mean"] == "" and float(rows["ja"]["lang_consistency"]) == 1
    assert math.isnan(float(rows["yo"]["lang_consistency"] or "nan"))  # not measured: never a share of 0
    # langid over the run's languages: Zulu is Zulu (over all its 97 it calls this Zulu Xhosa, a sister language,
    # and the sentence is then not counted: NaN, as below)
    assert float(rows["zu"]["lang_consistency"]) == 1.0 and float(rows["th"]["lang_consistency"]) == 1.0
    json.dumps(c)  # the summary stays JSON
    everyone = LanguageIdentifier(["en", "th", "yo", "zu"], scope="paper")
    assert everyone.classify(ANSWERS["zu"]) == "xh" and math.isnan(everyone.consistency([ANSWERS["zu"]], "zu"))
    assert everyone.unknown == ("yo",) and math.isnan(everyone.consistency([ANSWERS["yo"]], "yo"))


def test_the_cli_names_what_it_could_not_measure(tmp_path: Path, minilm_path: str) -> None:
    data = tmp_path / "qa.csv"
    data.write_text("id,lang,question,reference\n" + "".join(f"q1,{lg},{q},x\n" for lg, q in QUESTIONS.items()
                                                             if lg in ("en", "yo")), encoding="utf-8")  # fmt: skip
    with FaultServer(_reply) as server:
        res = CliRunner().invoke(app, ["run", "--benchmark", f"qa:{data}", "--languages", "en,yo", "--tasks",
                                       "consistency", "--model", "openai/m", "--base-url", server.url,
                                       "--temperatures", "0", "-T", "consistency_mode=native", "-T", "samples=2",
                                       "-T", "consistency_prompt_language=en",
                                       "-T", "consistency_metrics=ngram,lang_consistency",
                                       "--out", str(tmp_path / "run")])  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "not measured consistency: lang_consistency in yo: langid has no model of Yoruba" in res.output
