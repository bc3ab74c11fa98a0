"""Where an imported sample sits (``importers/families.py``): the pairing rules per task family, the language
from a task name, a field or a FLORES code, and the one-line errors when neither says."""

from __future__ import annotations

import re

import pytest

from xlingmed.errors import ConfigError, DataError
from xlingmed.importers.families import LanguageOption, options_of, place
from xlingmed.importers.run_folder import _group
from xlingmed.tasks.multiple_choice.imported import _label


@pytest.mark.parametrize(
    ("task", "record", "placed"),
    [
        ("global_mmlu_full_hi_anatomy", {"doc": {"sample_id": "anatomy/test/12", "id": 3}}, ("anatomy/test/12", "hi")),
        ("global_mmlu_pt", {"doc": {"sample_id": "virology/test/0"}}, ("virology/test/0", "pt")),
        ("mmlu_prox_lite_sw_biology", {"doc": {"question_id": 70}}, ("70", "sw")),
        ("belebele_hin_Deva", {"doc": {"link": "https://en.wikibooks.org/x", "question_number": 2}},
         ("https://en.wikibooks.org/x/2", "hi")),
        ("belebele_arb_Arab", {"doc": {"link": "l", "question_number": 1}}, ("l/1", "ar")),
        ("belebele_zho_Hans", {"doc": {"link": "l", "question_number": 1}}, ("l/1", "zh")),
        ("mymc_es", {"doc": {"id": "q1"}}, ("q1", "es")),  # a trailing code xlingmed knows
        ("mymc_en|0", {"doc": {"specific": {"item_id": "q1"}}}, ("q1", "en")),  # lighteval's few-shot suffix
        ("medqa", {"doc": {"id": "7", "language": "Spanish"}}, ("7", "es")),  # a language field, by name
        ("mymc", {"id": "en-q1", "metadata": {"item_id": "q1", "language": "pt-BR"}}, ("q1", "pt")),  # inspect
    ],
)  # fmt: skip
def test_samples_are_placed_by_their_familys_rule(task: str, record: dict, placed: tuple[str, str]) -> None:
    assert place(task, record, "f.jsonl:1")[:2] == placed


def test_overrides_name_the_field() -> None:
    record = {"doc": {"qid": "a", "locale": "hi_IN", "language": "en"}}
    assert place("mymc", record, "f:1", language_from="doc.locale", pair_by="doc.qid")[:2] == ("a", "hi")
    assert place("task_es", {"doc": {"language": "en", "id": 1}}, "f:1", language_from="task")[:2] == ("1", "es")
    # --language beats a name and a field; any BCP-47 code is a language, not only those with a file here
    assert place("task_es", {"doc": {"language": "en", "id": 1}}, "f:1", language="ca")[:2] == ("1", "ca")
    assert place("xnli_ca", {"doc": {"id": 1}}, "f:1", language_from="task")[:2] == ("1", "ca")
    assert place("xnli_ca", {"doc": {"id": 1}}, "f:1")[:2] == ("1", "ca")  # a two-letter ending, unasked


def test_a_one_language_log_needs_no_item_id_and_pairs_nothing() -> None:
    # no pairing field: the record's position in its task is its id, which pairs with no other language
    assert place("arithmetic_2da", {"doc": {"context": "2+2"}}, "f:3", language="en", position=7) == (
        "arithmetic_2da#7", "en", False)  # fmt: skip
    # a pairing rule or --pair-by still demands its field
    with pytest.raises(DataError, match="no item id to pair languages by"):
        place("mymc_en", {"doc": {}}, "f:3", pair_by="doc.qid", position=7)


@pytest.mark.parametrize(
    ("specs", "task", "file", "code"),
    [
        (["en"], "mmlu", "samples_mmlu.jsonl", "en"),
        (["th", "mmlu=en"], "mmlu", "x.jsonl", "en"),
        (["th", "mmlu=en"], "thai_exam", "x.jsonl", "th"),
        (["samples_x.jsonl=Catalan"], "t", "samples_x.jsonl", "ca"),
        (["mymc=pt-BR"], "mymc|0", "d.parquet", "pt"),  # lighteval's few-shot suffix
        (["hin_Deva"], "t", "f", "hi"),
    ],
)  # fmt: skip
def test_language_option_for_a_log_a_task_or_a_file(specs: list[str], task: str, file: str, code: str) -> None:
    from pathlib import Path

    assert LanguageOption.parse(specs).of(task, Path(file)) == code


@pytest.mark.parametrize(
    ("specs", "message"),
    [
        (["xx"], "--language xx: 'xx' is not a valid BCP-47 language tag"),
        (["und"], "--language und: 'und' names no language"),
        (["en", "es"], "the whole log's language is given twice"),
        (["Klingonese"], "nor a language name"),
    ],
)  # fmt: skip
def test_a_language_that_is_none_is_refused_with_its_reason(specs: list[str], message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        LanguageOption.parse(specs)
    with pytest.raises(ConfigError, match=re.escape("--language mmlu_x=en: no task or file 'mmlu_x' in the log")):
        LanguageOption.parse(["mmlu_x=en"]).check_used(["mmlu"], [])


@pytest.mark.parametrize(
    ("task", "record", "message"),
    [
        ("arc_easy", {"doc": {"id": "1"}}, "f.jsonl:4: task arc_easy: no language (no language code in the task"),
        ("mmlu_law", {"doc": {"id": "1"}}, "task mmlu_law: no language ("),  # unasked, "law" (Lauje) is a subject
        ("mymc_en", {"doc": {"question": "?"}}, "f.jsonl:4: task mymc_en: no item id to pair languages by"),
        ("mymc", {"doc": {"id": 1, "language": "elvish"}}, "field doc.language: 'elvish' is not a BCP-47 tag nor"),
        ("mymc", {"doc": {"id": 1}}, "task mymc: no field doc.lang (--language-from)"),
    ],
)  # fmt: skip
def test_what_cannot_be_placed_is_named(task: str, record: dict, message: str) -> None:
    override = "doc.lang" if "--language-from" in message else None
    with pytest.raises(DataError) as err:
        place(task, record, "f.jsonl:4", language_from=override)
    assert message in str(err.value)


def test_options_and_labels_of_each_family() -> None:
    gm = {"doc": {"option_a": "x", "option_b": "y", "option_c": "z", "option_d": "w"}}
    assert options_of("global_mmlu_full_hi_anatomy", gm) == {"A": "x", "B": "y", "C": "z", "D": "w"}
    assert options_of("mmlu_prox_hi_law", {"doc": {"options": ["p", "q", "r"]}}) == {"A": "p", "B": "q", "C": "r"}
    assert options_of("mymc_en", {"doc": {"A": "1", "B": "2"}}) == {"A": "1", "B": "2"}
    assert options_of("mymc_en", {"doc": {"question": "?"}}) == {}
    options = {"A": "Liver", "B": "Heart"}
    assert [_label(t, options) for t in ("B", "(b)", "Heart", "heart ", "Lung", None)] == [
        "B", "B", "B", "B", "Lung", None]  # fmt: skip


def test_a_task_without_its_language_names_the_same_group_in_every_language() -> None:
    assert _group("global_mmlu_full_hi_anatomy", "hi") == _group("global_mmlu_full_es_anatomy", "es")
    assert _group("mymc_en|0", "en") == _group("mymc_es|0", "es") == "mymc"
    assert _group("belebele_hin_Deva", "hi") == _group("belebele_spa_Latn", "es") == "belebele"
