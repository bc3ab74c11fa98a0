"""``kormedmcqa``: KorMedMCQA (Kweon et al., 2024, arXiv 2403.01469), Korean licensing-exam questions for doctors,
nurses, pharmacists and dentists (2012–2024), Korean only.

Hub: ``sean0042/KorMedMCQA``, CC BY-NC 2.0 (non-commercial), configs ``doctor``, ``nurse``, ``pharm``,
``dentist`` (``<config>/<split>-*.parquet``), splits ``train``, ``dev``, ``test``, ``fewshot``. Columns:
``subject``, ``year``, ``period``, ``q_number``, ``question``, ``A``…``E``, ``answer`` (1–5, 1 = A), ``cot``.
There is no id column: an item is ``<config>-<year>-<period>-<q_number>``. ``--subset`` picks one exam
(default ``all``: the four). With one language there is nothing to pair; its scores stand beside other runs'
with unpaired tests.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from xlingmed.benchmarks.base import LoadRequest, register_benchmark
from xlingmed.benchmarks.hub.base import HubBenchmark, load_frame, missing_option
from xlingmed.errors import DataError
from xlingmed.languages import CANONICAL_LETTERS

CONFIGS = ("doctor", "nurse", "pharm", "dentist")


def _present(options: Any) -> list[str]:
    """The options a question has: a trailing absent one (``None``, NaN, empty: the dentist files' missing E) is
    dropped, never shown as an option "None"."""
    out = [None if missing_option(o, na_text=False) else str(o) for o in options]
    while out and out[-1] is None:
        out.pop()
    return [o if o is not None else "" for o in out]


class KorMedMCQA(HubBenchmark):
    def read(self, source: str | Path, lang: str, request: LoadRequest) -> pd.DataFrame:
        subset = self.subset(request.options)
        configs = CONFIGS if subset == "all" else (subset,)
        split = self.split_of(request)
        return pd.concat([load_frame(source, c, split, self.name).assign(config=c) for c in configs], ignore_index=True)

    def prepare(self, df: pd.DataFrame, lang: str, request: LoadRequest) -> pd.DataFrame:
        letters = []
        for k, a in enumerate(df["answer"]):
            if not 1 <= int(a) <= 5:
                raise DataError(f"{self.name}: answer {a} is not 1–5", row=k + 2, column="answer")
            letters.append(CANONICAL_LETTERS[int(a) - 1])
        ids = [f"{c}-{y}-{p}-{q}" for c, y, p, q in zip(df["config"], df["year"], df["period"], df["q_number"],
                                                           strict=True)]  # fmt: skip
        return pd.DataFrame(
            {
                "item_id": ids,
                "question": df["question"],
                "options": [_present(r) for r in df[["A", "B", "C", "D", "E"]].itertuples(False)],
                "answer": letters,
                "category": df["config"],
            }
        )


SPEC = register_benchmark(
    KorMedMCQA(
        "kormedmcqa",
        ("ko",),
        ("choices",),
        default_tasks=("multiple_choice",),
        licence="CC BY-NC 2.0",
        description="KorMedMCQA: Korean doctor, nurse, pharmacist, dentist exams (--subset doctor|nurse|pharm|dentist)",
        prompt="structured",
        prompt_template="kormedmcqa",
        prompt_source=(
            "KorMedMCQA's lm-evaluation-harness task (kormedmcqa/_template_yaml, added by the dataset's first "
            "author): the question, its options and '정답：', zero-shot"
        ),
        dataset="sean0042/KorMedMCQA",
        translation=(("ko", "original"),),
        restriction="non-commercial use only",
        subsets=("all", *CONFIGS),
        home="https://huggingface.co/datasets/sean0042/KorMedMCQA",
    )
)
