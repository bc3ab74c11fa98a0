"""``global-mmlu/medical``: the medical subjects of Global-MMLU (Singh et al., 2024, arXiv 2412.03304), MMLU in 42
languages with culturally-sensitive (CS) and culturally-agnostic (CA) labels on an annotated part.

Hub: ``CohereLabs/Global-MMLU`` (and ``CohereLabs/Global-MMLU-Lite``), Apache-2.0, one config per language
(``<lang>/test-*.parquet``, ``<lang>/dev-*.parquet``). Columns: ``sample_id`` (the same in every language),
``subject``, ``subject_category``, ``question``, ``option_a``…``option_d``, ``answer`` (a letter),
``cultural_sensitivity_label`` (``CS``, ``CA``, ``-`` where not annotated), ``is_annotated`` and the
annotators' string-encoded lists. ``-B subset``: ``all`` (default), ``lite`` (Global-MMLU-Lite: the languages whose
translations people made or post-edited; asking it for another language is refused before anything is read),
``sensitive`` (CS items), ``agnostic`` (CA items). ``-B medical``: ``reference`` (default: the set's own
``subject_category == "Medical"``) or ``subjects`` (the seven MMLU medical subjects xlingmed used before 0.2).

Translation provenance is per language, as the card states it: English is the source; the Lite languages were
translated or post-edited by professional and community annotators (``post-edited``); the others are machine
translated.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar, Literal

import pandas as pd

from xlingmed.benchmarks.base import BenchmarkOptions, LoadRequest, register_benchmark
from xlingmed.benchmarks.hub.base import HubBenchmark, HubOptions
from xlingmed.errors import ConfigError

LANGUAGES = (
    "en", "am", "ar", "bn", "cs", "de", "el", "es", "fa", "fil", "fr", "ha", "he", "hi", "id", "ig", "it", "ja", "ko",
    "ky", "lt", "mg", "ms", "ne", "nl", "ny", "pl", "pt", "ro", "ru", "si", "sn", "so", "sr", "sv", "sw", "te", "tr",
    "uk", "vi", "yo", "zh",
)  # fmt: skip
LITE = ("en", "ar", "bn", "de", "es", "fr", "hi", "id", "it", "ja", "ko", "pt", "sw", "yo", "zh")
# MMLU's medical subjects, xlingmed's pick before 0.2 (-B medical=subjects); the set's own category is the default
SUBJECTS = (
    "anatomy", "clinical_knowledge", "college_medicine", "medical_genetics", "professional_medicine", "nutrition",
    "virology",
)  # fmt: skip
_LABEL = {"sensitive": "CS", "agnostic": "CA"}


class GlobalMMLUOptions(HubOptions):
    """``-B medical``: which questions are medical: ``reference`` (the set's ``subject_category``) or ``subjects``."""

    medical: Literal["reference", "subjects"] = "reference"


class GlobalMMLU(HubBenchmark):
    Options: ClassVar[type[BenchmarkOptions]] = GlobalMMLUOptions

    def dataset_of(self, request: LoadRequest) -> str:
        return "CohereLabs/Global-MMLU-Lite" if self.subset(request.options) == "lite" else self.dataset

    def read(self, source: str | Path, lang: str, request: LoadRequest) -> pd.DataFrame:
        if self.subset(request.options) == "lite" and lang not in LITE:
            raise ConfigError(f"Global-MMLU-Lite (-B subset=lite) has no {lang!r}; its languages: {', '.join(LITE)}")
        return super().read(source, lang, request)

    def prepare(self, df: pd.DataFrame, lang: str, request: LoadRequest) -> pd.DataFrame:
        subset = self.subset(request.options)
        if request.options.get("medical", "reference") == "subjects":
            df = df[df["subject"].isin(SUBJECTS)]
        else:
            df = df[df["subject_category"].astype(str) == "Medical"]
        if subset in _LABEL:
            df = df[df["cultural_sensitivity_label"] == _LABEL[subset]]
        return pd.DataFrame(
            {
                "item_id": df["sample_id"],
                "question": df["question"],
                "options": [list(r) for r in df[["option_a", "option_b", "option_c", "option_d"]].itertuples(False)],
                "answer": df["answer"],
                "category": df["subject"],
            }
        )


SPEC = register_benchmark(
    GlobalMMLU(
        "global-mmlu/medical",
        LANGUAGES,
        ("choices",),
        default_tasks=("multiple_choice",),
        run_languages=("en", "es", "zh", "hi", "ar", "sw", "yo"),
        licence="Apache-2.0",
        description="Global-MMLU, medical subjects, 42 languages (CS/CA labels; --subset lite|sensitive|agnostic)",
        prompt="answer_line",
        prompt_source=(
            "simple-evals' MMMLU prompt (openai/simple-evals common.py, QUERY_TEMPLATE_MULTICHOICE): reasoning,"
            " then 'Answer: X', with 'Answer' in the item's language; Global-MMLU's own lm-evaluation-harness "
            "task (global_mmlu) scores option log-likelihoods, which chat APIs do not give"
        ),
        dataset="CohereLabs/Global-MMLU",
        shared_id="sample_id",
        translation=tuple(
            (lang, "original" if lang == "en" else "post-edited" if lang in LITE else "machine") for lang in LANGUAGES
        ),
        subsets=("all", "lite", "sensitive", "agnostic"),
        home="https://huggingface.co/datasets/CohereLabs/Global-MMLU",
    )
)
