"""``medarabench``: MedAraBench (Abu-Daoud et al., 2026, "MedAraBench: Large-scale Arabic Medical Question Answering
Dataset and Benchmark", ICLR; arXiv 2602.01714), Arabic exam questions from medical schools of the Arabic region
across 19 specialties and five difficulty levels.

Hub: ``IFM/MedAraBench_verified`` (the verified subset), CC BY 4.0, one CSV (the hub's split ``train``). Its column
names are not written in any source we could read, so this adapter does not assume them: it reads our default
names (``question``; ``options`` or one column per option ``A``…/``option_a``…; ``answer`` as a letter or the
option's text; ``specialty``/``category``) and ``--columns question=…,answer=…`` maps others; a file it cannot read
fails naming the columns it has. Arabic only, not translated.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import pandas as pd

from xlingmed.benchmarks.base import BenchmarkOptions, LoadRequest, register_benchmark
from xlingmed.benchmarks.hub.base import HubBenchmark, HubOptions, load_frame
from xlingmed.benchmarks.rows import TableOptions


class MedAraBenchOptions(HubOptions, TableOptions):
    """A hub benchmark's options and a table's (its columns and answer format)."""


class MedAraBench(HubBenchmark):
    Options: ClassVar[type[BenchmarkOptions]] = MedAraBenchOptions

    def read(self, source: str | Path, lang: str, request: LoadRequest) -> pd.DataFrame:
        return load_frame(source, None, self.split_of(request), self.name)  # one CSV: the default config

    def columns_of(self, request: LoadRequest) -> dict[str, str]:
        return {**dict(request.options.get("columns") or {}), "item_id": "item_id", "lang": "lang"}

    def answer_format_of(self, request: LoadRequest) -> str:
        return str(request.options.get("answer_format") or "auto")

    def prepare(self, df: pd.DataFrame, lang: str, request: LoadRequest) -> pd.DataFrame:
        given: Any = dict(request.options.get("columns") or {}).get("item_id")
        ids = df[given].astype(str) if given else [f"{k + 1:05d}" for k in range(len(df))]
        return df.assign(item_id=ids)


# what the loader was run on (issue 61; ``benchmarks.verified``)
VERIFIED_MEDARABENCH = (
    "nyuad-cai/MedAraBench @be4d68064bc9 medarabench-test_split.csv (the authors' test split, -B "
    'hf_split=test; columns as published): ar 4,928 of 4,959 rows; 31 skipped (18 answer_not_an_option, '
    '10 answer_empty_option, 1 alternative_answers, 1 empty_question, 1 one_option)'
)

SPEC = register_benchmark(
    MedAraBench(
        "medarabench",
        ("ar",),
        ("choices",),
        default_tasks=("multiple_choice",),
        licence="CC BY 4.0",
        description="MedAraBench (verified): Arabic medical-school exam questions, 19 specialties",
        prompt="structured",
        prompt_source=(
            "MedArabiQ's Table C1 prompt (the letter alone): MedAraBench publishes no prompt of its own"
        ),
        dataset="IFM/MedAraBench_verified",
        split="train",
        translation=(("ar", "original"),),
        home="https://huggingface.co/datasets/IFM/MedAraBench_verified",
        verified=VERIFIED_MEDARABENCH,
    )
)
