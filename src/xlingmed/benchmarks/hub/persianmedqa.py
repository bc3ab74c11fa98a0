"""``persianmedqa``: PersianMedQA (Ranjbar et al., 2025, arXiv 2506.00250, "PersianMedQA: Language-Centric
Evaluation of LLMs in the Persian Medical Domain"), 14 years of Iranian residency and pre-residency board exams in
23 specialties, in Persian (the source) and English (machine translated, "automatic" per its card). Its authors
report gaps between English and Persian from 0.2 points (GPT-4.1) to 17 points (an 8B model).

Hub: ``MohammadJRanjbar/PersianMedQA``, gated (accept its conditions, then ``HF_TOKEN``); its card restricts access
while the paper is under review. Licence: CC BY 4.0 as third-party loaders list it, with the card's condition of
non-commercial academic research (the card's licence field could not be read here: check it). One config,
splits ``train``, ``validation``, ``test``. Columns: ``id`` (``PMQA_000123``), ``question``, ``options`` (always
four texts), ``answer_idx`` (0–3), ``specialty``, ``is_clinical``, ``patient_age``, ``patient_gender``,
``language`` (``fa`` or ``en``). A row's language is its ``language``; a question is its ``id`` in both (paired;
the load counts the questions each language shares: ``provenance.paired_items``).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from xlingmed.benchmarks.base import LoadRequest, register_benchmark
from xlingmed.benchmarks.hub.base import HubBenchmark, load_frame
from xlingmed.errors import DataError
from xlingmed.languages import CANONICAL_LETTERS


class PersianMedQA(HubBenchmark):
    def read(self, source: str | Path, lang: str, request: LoadRequest) -> pd.DataFrame:
        df = load_frame(source, None, self.split_of(request), self.name)
        df = df.assign(row=range(2, len(df) + 2))
        return df[df["language"].astype(str).str.lower() == lang]

    def prepare(self, df: pd.DataFrame, lang: str, request: LoadRequest) -> pd.DataFrame:
        options, answers = [], []
        for row, opts, idx in zip(df["row"], df["options"], df["answer_idx"], strict=True):
            texts = [str(o) for o in list(opts)]
            if len(texts) < 2 or not 0 <= int(idx) < len(texts):
                raise DataError(f"answer_idx {idx} is not one of the {len(texts)} options", row=int(row),
                                column="answer_idx")  # fmt: skip
            options.append(texts)
            answers.append(CANONICAL_LETTERS[int(idx)])
        return pd.DataFrame({"item_id": df["id"].astype(str), "question": df["question"], "options": options,
                             "answer": answers, "category": df["specialty"]})  # fmt: skip


SPEC = register_benchmark(
    PersianMedQA(
        "persianmedqa", ("fa", "en"), ("choices",), default_tasks=("multiple_choice",), run_languages=("fa", "en"),
        licence="CC BY 4.0 (unverified: see the card)",
        description="PersianMedQA: Iranian residency board exams, fa (source) and en (machine translated; gated)",
        dataset="MohammadJRanjbar/PersianMedQA", gated=True, shared_id="id",
        translation=(("fa", "original"), ("en", "machine")),
        restriction="non-commercial academic research (the card's access conditions)",
        home="https://huggingface.co/datasets/MohammadJRanjbar/PersianMedQA",
        prompt_source="PersianMedQA's card gives no prompt: the shared answer-line prompt (simple-evals' wording)",
    )
)  # fmt: skip
