"""``hf:ORG/NAME``: datasets in the Hugging Face hub's layouts, read offline from --data-dir through ``datasets``."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from xlingmed.benchmarks import get_benchmark, load_benchmark
from xlingmed.config import make_config
from xlingmed.errors import ConfigError, DataNotFoundError
from xlingmed.runner import dry_run, evaluate
from xlingmed.tasks.registry import tasks_for

QUESTIONS = {
    "en": ["What lowers a fever?", "Is aspirin safe for children?", "How much water per day?"],
    "es": ["¿Qué baja la fiebre?", "¿Es segura la aspirina para niños?", "¿Cuánta agua al día?"],
}
ANSWERS = {
    "en": ["Paracetamol lowers a fever.", "No, not for children under 16.", "About two litres."],
    "es": ["El paracetamol baja la fiebre.", "No, no para menores de 16.", "Unos dos litros."],
}


def _per_language_configs(root: Path) -> Path:
    """ORG/NAME with one config per language, as the hub stores them: README.md ``configs:`` + Parquet shards."""
    folder = root / "org" / "medqa-multi"
    for lang in ("en", "es"):
        (folder / lang).mkdir(parents=True)
        rows = [
            {"id": f"q{i}", "question": q, "answer": a}
            for i, (q, a) in enumerate(zip(QUESTIONS[lang], ANSWERS[lang], strict=True))
        ]
        pd.DataFrame(rows).to_parquet(folder / lang / "test-00000-of-00001.parquet")
    (folder / "README.md").write_text(
        "---\nconfigs:\n"
        + "".join(
            f"- config_name: {lang}\n  data_files:\n  - split: test\n    path: {lang}/test-*.parquet\n"
            for lang in ("en", "es")
        )
        + "---\n# medqa-multi\n",
        encoding="utf-8",
    )
    return root


def _mcq_with_language_column(root: Path) -> Path:
    """ORG/NAME with one default config: ``data/test.jsonl`` holding a language column and an options list."""
    folder = root / "org" / "mcq-lang" / "data"
    folder.mkdir(parents=True)
    lines = []
    options = {"en": ["Paracetamol", "Aspirin", "Codeine"], "es": ["Paracetamol", "Aspirina", "Codeína"]}
    for i in range(2):
        for lang, opts in options.items():
            lines.append({"qid": f"m{i}", "language": lang, "question": QUESTIONS[lang][i], "options": opts,
                          "answer_idx": 0})  # fmt: skip
    (folder / "test.jsonl").write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines), encoding="utf-8")
    return root


def test_one_config_per_language_pairs_items(tmp_path: Path) -> None:
    root = _per_language_configs(tmp_path)
    items, prov = load_benchmark(
        "hf:org/medqa-multi", root, ["en", "es"], hf_config="en=en,es=es", columns={"item_id": "id"}
    )
    assert [(it.item_id, it.lang) for it in items] == [
        ("q0", "en"), ("q0", "es"), ("q1", "en"), ("q1", "es"), ("q2", "en"), ("q2", "es"),
    ]  # fmt: skip
    assert items[1].question == "¿Qué baja la fiebre?" and items[1].reference == "El paracetamol baja la fiebre."
    # verifiability negatives are the other questions' answers in the same language
    assert set(items[1].negatives) == {"No, no para menores de 16.", "Unos dos litros."}
    assert prov["configs"] == {"en": "en", "es": "es"} and prov["split"] == "test" and len(prov["sha256"]) == 64
    # the languages of the configs are the run's default languages
    cfg = make_config(benchmark="hf:org/medqa-multi", data_dir=root, hf_config="en=en,es=es")
    assert cfg.languages == ("en", "es") and cfg.tasks == ("correctness", "verifiability")


def test_language_column_and_options_list(tmp_path: Path) -> None:
    root = _mcq_with_language_column(tmp_path)
    items, _ = load_benchmark("hf:mcq:org/mcq-lang", root, ["es"], answer_format="index0")
    assert [it.item_id for it in items] == ["m0", "m1"] and {it.lang for it in items} == {"es"}
    assert [c.text for c in items[0].choices] == ["Paracetamol", "Aspirina", "Codeína"]
    assert items[0].gold_label == "A"
    assert tasks_for(get_benchmark("hf:mcq:org/mcq-lang")) == ("multiple_choice",)


def test_errors_name_the_dataset(tmp_path: Path) -> None:
    root = _per_language_configs(tmp_path)
    with pytest.raises(ConfigError, match=r"hf:org/medqa-multi \(config en, split train\)"):
        load_benchmark("hf:org/medqa-multi", root, ["en"], hf_config="en", hf_split="train")
    with pytest.raises(DataNotFoundError, match="org/absent not found"):
        load_benchmark("hf:org/absent", root, ["en"])
    with pytest.raises(ConfigError, match="expected NAME or lang=NAME"):
        load_benchmark("hf:org/medqa-multi", root, ["en"], hf_config="en=,es=es")


@pytest.mark.slow  # runs a model in process
def test_run_on_a_hub_layout_end_to_end(tmp_path: Path) -> None:
    root = _mcq_with_language_column(tmp_path / "data")
    cfg = make_config(
        benchmark="hf:mcq:org/mcq-lang", data_dir=root, languages="en,es", answer_format="index0",
        model="llamacpp/smollm2", max_tokens=4, out=tmp_path / "run",
    )  # fmt: skip
    plan = dry_run(cfg)
    assert sum(r["requests"] for r in plan) == 4  # 2 questions × 2 languages, one temperature
    result = evaluate(cfg)
    mc = result.summary["tasks"]["multiple_choice"]["languages"]
    assert {lang: cell["0"]["n"] for lang, cell in mc.items()} == {"en": 2, "es": 2}
    assert result.summary["dataset"] == {} or "file" in result.summary["dataset"]
    assert result.backend_calls == 4
