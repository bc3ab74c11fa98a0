"""``medexpqa``: MedExpQA (Alonso et al., 2024, "MedExpQA: Multilingual benchmarking of Large Language Models for
Medical Question Answering", Artificial Intelligence in Medicine), Spanish residency-exam (MIR) clinical cases from
CasiMedicos with doctors' explanations, in Spanish and in English, French and Italian, parallel.

Hub: ``HiTZ/MedExpQA``, CC BY 4.0, configs ``en``, ``es``, ``fr``, ``it``; files
``data/<lang>/{train,dev,test}.<lang>.casimedicos.rag.jsonl`` (``dev`` is the ``validation`` split). Each line:
``id`` (the same case in every language), ``full_question``, ``options`` (``{"1": …, …, "5": …}``, ``"5"`` empty
on four-option questions), ``correct_option`` (1-based), ``type`` (the specialty), ``year``, ``explanations``,
``full_answer``, ``rag`` (retrieved documents, not used here). Spanish is the source; the card does not say per
item how the other languages were made (``unstated``).
"""

from __future__ import annotations

import pandas as pd

from xlingmed.benchmarks.base import LoadRequest, register_benchmark
from xlingmed.benchmarks.hub.base import HubBenchmark
from xlingmed.errors import DataError
from xlingmed.languages import CANONICAL_LETTERS

LANGUAGES = ("en", "es", "fr", "it")


class MedExpQA(HubBenchmark):
    def prepare(self, df: pd.DataFrame, lang: str, request: LoadRequest) -> pd.DataFrame:
        options, answers = [], []
        for k, (opts, correct) in enumerate(zip(df["options"], df["correct_option"], strict=True)):
            keys = sorted((key for key, text in opts.items() if isinstance(text, str) and text.strip()), key=int)
            if keys != [str(i) for i in range(1, len(keys) + 1)] or str(int(correct)) not in keys:
                raise DataError(
                    f"{self.name} ({lang}): options {sorted(opts)} / correct_option {correct} do not fit",
                    row=k + 2,
                    column="correct_option",
                )
            options.append({key: opts[key] for key in keys})  # numbered as the authors print them: "1. …"
            answers.append(CANONICAL_LETTERS[int(correct) - 1])
        return pd.DataFrame(
            {
                "item_id": df["id"].astype(str),
                "question": df["full_question"],
                "options": options,
                "answer": answers,
                "category": df["type"],
            }
        )


SPEC = register_benchmark(
    MedExpQA(
        "medexpqa",
        LANGUAGES,
        ("choices",),
        default_tasks=("multiple_choice",),
        run_languages=("es", "en", "fr", "it"),
        licence="CC BY 4.0",
        description="MedExpQA: Spanish MIR clinical cases, parallel in es (source), en, fr, it",
        prompt="structured",
        prompt_template="medexpqa",
        prompt_source=(
            "MedExpQA's PROMPT_02_MEDRAG (hitz-zentroa/MedExpQA, src/datasource/casimedicos/dataset.py) without"
            " documents, in English for every language, options numbered 1–5 as the authors print them"
        ),
        dataset="HiTZ/MedExpQA",
        shared_id="id",
        translation=(("es", "original"), ("en", "unstated"), ("fr", "unstated"), ("it", "unstated")),
        home="https://huggingface.co/datasets/HiTZ/MedExpQA",
    )
)
