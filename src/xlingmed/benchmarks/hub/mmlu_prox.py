"""``mmlu-prox/health``: the health category of MMLU-ProX (Xuan et al., 2025, arXiv 2503.10497), MMLU-Pro's
questions (up to ten options) in 29 languages, identical in each.

Hub: ``li-lab/MMLU-ProX``, MIT, one config per language, splits ``validation`` and ``test``. Columns:
``question_id`` (the same question in every language), ``question``, ``option_0``…``option_9`` (empty beyond the
item's options), ``answer`` (a letter A–J), ``answer_index`` (0-based), ``cot_content``, ``category`` (``health``
…), ``src``, ``question_id_src``. The translations are LLM translations reviewed by experts (the paper):
``post-edited``.
"""

from __future__ import annotations

import itertools

import pandas as pd

from xlingmed.benchmarks.base import LoadRequest, register_benchmark
from xlingmed.benchmarks.hub.base import HubBenchmark
from xlingmed.errors import DataError

LANGUAGES = (
    "en", "af", "ar", "bn", "cs", "de", "es", "fr", "hi", "hu", "id", "it", "ja", "ko", "mr", "ne", "pt", "ru", "sr",
    "sw", "te", "th", "uk", "ur", "vi", "wo", "yo", "zh", "zu",
)  # fmt: skip
_OPTIONS = [f"option_{i}" for i in range(10)]


def _present(value: object) -> bool:
    return value is not None and not (isinstance(value, float) and pd.isna(value)) and str(value).strip() not in (
        "", "N/A")  # fmt: skip


class MMLUProX(HubBenchmark):
    def prepare(self, df: pd.DataFrame, lang: str, request: LoadRequest) -> pd.DataFrame:
        df = df[df["category"] == "health"]
        options = []
        for k, row in zip(df.index, df[[c for c in _OPTIONS if c in df.columns]].itertuples(False), strict=True):
            present = [_present(v) for v in row]
            if any(p and not q for q, p in itertools.pairwise(present)):  # option_4 set, option_3 empty
                raise DataError(
                    f"{self.name} ({lang}): options are not contiguous from option_0", row=int(k) + 2, column="option_0"
                )
            options.append([str(v) for v, p in zip(row, present, strict=True) if p])
        return pd.DataFrame(
            {
                "item_id": df["question_id"].astype(str),
                "question": df["question"],
                "options": options,
                "answer": df["answer"],
                "category": df["src"] if "src" in df.columns else df["category"],
            }
        )


SPEC = register_benchmark(
    MMLUProX(
        "mmlu-prox/health",
        LANGUAGES,
        ("choices",),
        default_tasks=("multiple_choice",),
        run_languages=("en", "es", "zh", "hi", "ar", "sw", "yo"),
        licence="MIT",
        description="MMLU-ProX, health category, 29 languages, up to ten options",
        prompt="answer_line",
        prompt_source=(
            "answer_line: reasoning, then 'Answer: X' in the item's language, zero-shot; MMLU-ProX's own prompt"
            " (lm-evaluation-harness mmlu_prox_<lang>) is 5-shot chain of thought in the item's language ending"
            " 'the answer is (X)', not reproduced here"
        ),
        dataset="li-lab/MMLU-ProX",
        shared_id="question_id",
        translation=tuple((lang, "original" if lang == "en" else "post-edited") for lang in LANGUAGES),
        home="https://huggingface.co/datasets/li-lab/MMLU-ProX",
    )
)
