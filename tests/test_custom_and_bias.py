"""Users' own multiple-choice files (mcq:FILE) and cognitive-bias injection with mitigations, in five languages."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from xlingmed import evaluate, make_config
from xlingmed.benchmarks import custom
from xlingmed.errors import ConfigError, DataError
from xlingmed.perturbations.bias import BIASES, BiasInjector, parse_perturb, split_first_sentence, templates
from xlingmed.types import Choice, Item

# Invented questions: (en stem, options, gold letter, category); the Arabic rows translate them.
QUESTIONS = [
    ("A patient has a fever. Which drug lowers fever?", ["Paracetamol", "Insulin", "Warfarin", "Heparin"], "A",
     "pharm"),
    ("Which organ makes insulin?", ["Liver", "Pancreas", "Kidney", "Spleen"], "B", "endo"),
    ("Which vitamin deficiency causes scurvy?", ["Vitamin A", "Vitamin D", "Vitamin C", "Vitamin K"], "C", "nutrition"),
    ("A child has a barking cough. What is the likely diagnosis?", ["Asthma", "Pneumonia", "Otitis", "Croup"], "D",
     "peds"),
    ("Which blood cells carry oxygen?", ["Platelets", "Red cells", "White cells", "Plasma cells"], "B", "heme"),
]  # fmt: skip
ARABIC = [
    ("مريض مصاب بالحمى. أي دواء يخفض الحرارة؟", ["باراسيتامول", "إنسولين", "وارفارين", "هيبارين"]),
    ("أي عضو يصنع الإنسولين؟", ["الكبد", "البنكرياس", "الكلية", "الطحال"]),
    ("نقص أي فيتامين يسبب الإسقربوط؟", ["فيتامين أ", "فيتامين د", "فيتامين ج", "فيتامين ك"]),
    ("طفل يعاني من سعال نباحي. ما التشخيص المرجح؟", ["الربو", "الالتهاب الرئوي", "التهاب الأذن", "الخانوق"]),
    ("أي خلايا الدم تحمل الأكسجين؟", ["الصفائح", "الخلايا الحمراء", "الخلايا البيضاء", "خلايا البلازما"]),
]


def write_mcq(path: Path, *, arabic: bool = True) -> Path:
    rows = []
    for k, (stem, opts, gold, cat) in enumerate(QUESTIONS):
        rows.append({"id": f"q{k}", "language": "en", "question": stem, **dict(zip("ABCD", opts, strict=True)),
                     "answer": gold, "category": cat})  # fmt: skip
        if arabic:
            ar_stem, ar_opts = ARABIC[k]
            rows.append({"id": f"q{k}", "language": "ar", "question": ar_stem,
                         **dict(zip("ABCD", ar_opts, strict=True)), "answer": gold, "category": cat})  # fmt: skip
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


def _item(lang: str, k: int = 0) -> Item:
    stem, opts, gold, _ = QUESTIONS[k]
    if lang == "ar":
        opts = ARABIC[k][1]
    if lang != "en":
        stem = {"ar": ARABIC[k][0], "es": "Un paciente tiene fiebre. ¿Qué fármaco baja la fiebre?",
                "zh": "病人发烧。哪种药能退烧？", "hi": "मरीज़ को बुखार है। कौन सी दवा बुखार कम करती है?"}[lang]  # fmt: skip
    return Item(f"q{k}", "mcq:test", lang, stem, gold, choices=tuple(Choice(c, c, t) for c, t in zip("ABCD", opts,
                strict=True)), gold_label=gold, meta={"stem": stem})  # fmt: skip


# ---- loader -------------------------------------------------------------------------------------------------------


def test_custom_loader_reads_csv_jsonl_and_parquet(tmp_path: Path) -> None:
    csv_path = write_mcq(tmp_path / "set.csv")
    items, prov = custom.load_items(f"mcq:{csv_path}", ("en", "ar"))
    assert len(items) == 10 and [it.lang for it in items[:2]] == ["en", "ar"]
    assert items[0].item_id == items[1].item_id == "q0" and items[0].gold_label == "A"
    assert [c.text for c in items[1].choices] == ARABIC[0][1] and items[1].meta["category"] == "pharm"
    assert prov["columns"]["lang"] == "language" and prov["option_columns"] == ["A", "B", "C", "D"]
    df = pd.read_csv(csv_path)
    df["options"] = [json.dumps([df.loc[i, c] for c in "ABCD"], ensure_ascii=False) for i in df.index]
    df["answer"] = [int("ABCD".index(a)) for a in df["answer"]]
    df.drop(columns=list("ABCD")).to_json(tmp_path / "set.jsonl", orient="records", lines=True, force_ascii=False)
    jl, _ = custom.load_items(f"mcq:{tmp_path / 'set.jsonl'}", ("ar",), answer_format="index0")
    assert [it.gold_label for it in jl] == [q[2] for q in QUESTIONS]
    df.drop(columns=list("ABCD")).to_parquet(tmp_path / "set.parquet")
    pq, _ = custom.load_items(f"mcq:{tmp_path / 'set.parquet'}", ("en",), answer_format="index0", limit=2)
    assert [it.item_id for it in pq] == ["q0", "q1"] and pq[1].choices[1].text == "Pancreas"
    assert custom.file_languages(f"mcq:{csv_path}") == ("en", "ar")


def test_custom_loader_errors_name_file_row_and_column(tmp_path: Path) -> None:
    path = write_mcq(tmp_path / "set.csv", arabic=False)
    df = pd.read_csv(path)
    df.loc[2, "answer"] = "Z"
    df.to_csv(path, index=False)
    with pytest.raises(DataError, match=r"row 4, column 'answer': answer 'Z' is not one of the options"):
        custom.load_items(f"mcq:{path}", ("en",), strict=True)
    # without --strict-data the odd row is skipped, counted by reason and named (issue 61)
    items, prov = custom.load_items(f"mcq:{path}", ("en",))
    assert len(items) == len(QUESTIONS) - 1 and prov["skipped"] == {"en": {"answer_not_an_option": 1}}
    assert (prov["skipped_rows"][0]["row"], prov["skipped_rows"][0]["column"]) == (4, "answer")
    df.loc[2, "answer"] = "C"
    df.loc[3, "id"] = "q0"
    df.to_csv(path, index=False)
    with pytest.raises(DataError, match=r"row 5, column 'id': duplicate item id 'q0'"):
        custom.load_items(f"mcq:{path}", ("en",))
    with pytest.raises(DataError, match=r"no column 'stem' \(mapped to question\)"):
        custom.load_items(f"mcq:{path}", ("en",), columns={"question": "stem"})
    with pytest.raises(ConfigError, match="mcq:FILE or qa:FILE"):
        custom.split_name("csv:x")


def test_custom_qa_file_gets_paired_negatives(tmp_path: Path) -> None:
    rows = [{"id": f"q{k}", "lang": lang, "question": f"{lang} question {k}", "answer": f"{lang} answer {k}"}
            for k in range(6) for lang in ("en", "es")]  # fmt: skip
    path = tmp_path / "qa.jsonl"
    pd.DataFrame(rows).to_json(path, orient="records", lines=True)
    items, _ = custom.load_items(f"qa:{path}", ("en", "es"))
    en, es = items[0], items[1]
    assert en.reference == "en answer 0" and len(en.negatives) == 4 and "en answer 0" not in en.negatives
    # the same other questions in both languages, so verifiability stays paired
    assert [n.split()[-1] for n in en.negatives] == [n.split()[-1] for n in es.negatives]
    assert en.meta["negatives_from"] == es.meta["negatives_from"]
    # drawn from the whole file before --limit: the first question's claims do not change with it
    for limit in (1, 2, 5):
        limited, _ = custom.load_items(f"qa:{path}", ("en", "es"), limit=limit)
        assert limited[0].negatives == en.negatives and len(limited) == 2 * limit


# ---- injection ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ar", "es", "zh", "hi"])
def test_every_bias_renders_in_every_language(lang: str) -> None:
    item = _item(lang)
    pool = [_item(lang, k) for k in range(1, 4)] if lang in ("en", "ar") else [_item(lang), _item(lang), _item(lang)]
    for k, p in enumerate(pool):
        pool[k] = Item(f"d{k}", p.benchmark, lang, p.question, p.reference, choices=p.choices, gold_label=p.gold_label,
                       meta=p.meta)  # fmt: skip
    variants, targets, demos = BiasInjector(seed=7).variants(item, pool)
    assert set(variants) == {"original"} | {f"{c}|{b}" for b in BIASES for c in ("biased", "education", "one_shot",
                                                                                   "few_shot")}  # fmt: skip
    for bias in BIASES:
        target = targets[bias]
        assert target != item.gold_label  # random_incorrect never points at the gold option
        sentence = templates()["biases"][bias]["sentence"][lang]
        assert sentence.split("{target}")[0] in variants[f"biased|{bias}"]
        assert templates()["biases"][bias]["education"][lang] in variants[f"education|{bias}"]
        assert item.item_id not in demos[bias]  # never the tested item
        assert variants[f"few_shot|{bias}"].endswith(variants[f"biased|{bias}"])
        assert "{" not in variants[f"few_shot|{bias}"]  # every placeholder filled


def test_injection_is_seeded_per_item_and_the_same_across_languages() -> None:
    en, ar = _item("en"), _item("ar")
    inj = BiasInjector(mitigations=(), seed=3)
    assert [inj.target(en, b) for b in BIASES] == [inj.target(ar, b) for b in BIASES]
    assert [inj.target(en, b) for b in BIASES] == [BiasInjector(mitigations=(), seed=3).target(en, b) for b in BIASES]
    assert any(inj.target(en, b) != BiasInjector(mitigations=(), seed=4).target(en, b) for b in BIASES)
    # subsetting the items does not move a target: it depends on (seed, item id, bias) only
    assert inj.apply([en])[0].meta["bias_targets"] == inj.apply([en, _item("en", 1)])[0].meta["bias_targets"]
    assert {BiasInjector(target_policy="correct").target(en, b) for b in BIASES} == {"A"}


def test_positions_and_sentence_splitter() -> None:
    item = _item("en")
    conf = BiasInjector().biased_stem(item, "confirmation", "B")
    assert conf.startswith("A patient has a fever. You are initially confident that the correct answer is B: Insulin.")
    assert conf.endswith("Which drug lowers fever?")
    assert BiasInjector(position="prepend").biased_stem(item, "recency", "C").startswith("Last week")
    assert BiasInjector().biased_stem(item, "recency", "C").endswith("the answer was C: Warfarin.")
    ar = BiasInjector(target_render="letter_and_text").biased_stem(_item("ar"), "confirmation", "B")
    assert "ب: إنسولين" in ar  # the target is named in the item's own label script
    assert split_first_sentence("مريض مصاب بالحمى؟ أي دواء") == ("مريض مصاب بالحمى؟", "أي دواء")
    assert split_first_sentence("病人发烧。哪种药能退烧？") == ("病人发烧。", "哪种药能退烧？")
    assert split_first_sentence("मरीज़ को बुखार है। कौन सी दवा") == ("मरीज़ को बुखार है।", "कौन सी दवा")


def test_perturb_spec_and_config_checks() -> None:
    assert parse_perturb("bias:all") == BIASES and parse_perturb("bias:cultural,recency") == ("recency", "cultural")
    with pytest.raises(ConfigError, match="unknown bias"):
        parse_perturb("bias:anchoring")
    with pytest.raises(ConfigError, match="already holds its own bias variants"):
        make_config(benchmark="medarabiq/mcq_bias", perturb="bias:all")
    with pytest.raises(ConfigError, match="--mitigations needs --perturb"):
        make_config(benchmark="medarabiq/mcq", mitigations="education")


@pytest.mark.slow
def test_bias_run_end_to_end(tmp_path: Path) -> None:
    path = write_mcq(tmp_path / "set.csv")
    cfg = make_config(benchmark=f"mcq:{path}", languages="en", perturb="bias:confirmation,status_quo",
                      mitigations="education,one_shot,few_shot", limit=3, model="llamacpp/smollm2",
                      out=tmp_path / "run")  # fmt: skip
    result = evaluate(cfg)
    assert result.backend_calls == 3 * (1 + 2 * 4)  # clean + 2 biases × (biased + 3 mitigations)
    mc = result.summary["tasks"]["multiple_choice"]
    conds = mc["languages"]["en"]["0"]["conditions"]
    assert list(conds) == ["original", "biased", "education", "one_shot", "few_shot"]
    assert mc["settings"]["biases"] == ["confirmation", "status_quo"]
    b = conds["biased"]
    assert b["n"] == 6 and b["n_pairs"] == 6 and b["n_items_paired"] == 3
    assert set(b["per_bias"]) == {"confirmation", "status_quo"} and b["per_bias"]["confirmation"]["n"] == 3
    assert "mcnemar_vs_original" in b["per_bias"]["status_quo"] and len(b["delta_ci95_pp"]) == 2
    rows = pd.read_csv(tmp_path / "run" / "multiple_choice.csv")
    biased = rows[rows["condition"] == "biased"]
    assert (biased["bias_target"] != biased["gold"]).all()
    followed = biased[biased["followed_bias"].notna()]
    assert b["n_followed_bias"] == int((followed["prediction"] == followed["bias_target"]).sum())
    scores = pd.read_parquet(tmp_path / "run" / "scores.parquet")
    fb = scores[(scores["metric"] == "followed_bias") & scores["condition"].str.startswith("biased|")]
    assert len(fb) == len(biased) and int(fb["value"].sum()) == b["n_followed_bias"]
    assert not fb["higher_is_better"].any() and (fb["target"] != "").all()
    assert result.summary["dataset"]["perturbation"]["biases"] == ["confirmation", "status_quo"]
    # the report reads it back: per-variant statistics, the bias figure
    from xlingmed.report import build_report

    build_report([tmp_path / "run"], n_resamples=100)
    assert (tmp_path / "run" / "report" / "figures" / "bias_conditions.png").is_file()


@pytest.mark.slow
def test_a_run_walked_in_small_chunks_writes_the_same_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The driver walks the samples a chunk at a time and keeps a task's records on disk (``output.RecordSpool``):
    chunks of 4 samples give the same tables and Scores as one chunk, and leave no spool file behind."""
    from xlingmed.engine import walk

    path = write_mcq(tmp_path / "set.csv")
    common = dict(benchmark=f"mcq:{path}", languages="en,ar", perturb="bias:confirmation", limit=5,
                  temperatures="0,0.5", model="llamacpp/smollm2", cache=tmp_path / "c.sqlite")  # fmt: skip
    whole = evaluate(make_config(out=tmp_path / "whole", **common))
    monkeypatch.setattr(walk, "CHUNK", 4)
    small = evaluate(make_config(out=tmp_path / "small", **common))
    n = 5 * 2 * 2 * 2  # questions × languages × (clean, biased) × temperatures
    assert whole.backend_calls == n and small.backend_calls == 0 and small.cache_hits == n
    for name in ("multiple_choice.csv", "multiple_choice_table1.csv", "scores.csv"):
        assert (tmp_path / "small" / name).read_bytes() == (tmp_path / "whole" / name).read_bytes(), name
    assert len(pd.read_csv(tmp_path / "small" / "multiple_choice.csv")) == n
    assert small.summary["tasks"] == whole.summary["tasks"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.sqlite", "set.csv", "small", "whole"]  # no spool left


@pytest.mark.slow
def test_custom_qa_file_runs_the_xlingeval_criteria(tmp_path: Path) -> None:
    rows = [
        {"id": "q0", "lang": "en", "question": "What lowers a fever?", "answer": "Paracetamol lowers a fever."},
        {"id": "q0", "lang": "es", "question": "¿Qué baja la fiebre?", "answer": "El paracetamol baja la fiebre."},
        {"id": "q1", "lang": "en", "question": "What makes insulin?", "answer": "The pancreas makes insulin."},
        {"id": "q1", "lang": "es", "question": "¿Qué produce insulina?", "answer": "El páncreas produce insulina."},
        {"id": "q2", "lang": "en", "question": "What causes scurvy?", "answer": "A lack of vitamin C."},
        {"id": "q2", "lang": "es", "question": "¿Qué causa el escorbuto?", "answer": "La falta de vitamina C."},
    ]
    path = tmp_path / "qa.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    cfg = make_config(
        benchmark=f"qa:{path}",
        model="llamacpp/smollm2",
        max_tokens=24,
        judge_max_tokens=48,
        verify_max_tokens=4,
        out=tmp_path / "run",
    )  # fmt: skip (a yes or a no needs few tokens)
    assert cfg.languages == ("en", "es") and cfg.tasks == ("correctness", "verifiability")
    result = evaluate(cfg)
    # 6 answers + 6 judgements + 6 questions × (1 expert answer + 2 other questions' answers) claims
    assert result.backend_calls == 6 + 6 + 18 and result.failed_requests == 0
    ver = result.summary["tasks"]["verifiability"]["languages"]
    assert ver["en"]["temperatures"]["0"]["n_claims"] == 9 and ver["es"]["temperatures"]["0"]["n_claims"] == 9
    assert result.summary["tasks"]["correctness"]["languages"]["es"]["n_items"] == 3
