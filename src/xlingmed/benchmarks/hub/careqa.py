"""``careqa`` and ``careqa/open``: CareQA (Arias-Duart et al., 2025, "Automatic Evaluation of Healthcare LLMs
Beyond Question-Answering", NAACL), the Spanish specialisation exams (MIR, EIR, BIR, QIR, PIR, FIR) of 2020–2024, in
Spanish (the source) and English (translated with GPT-4, a subset reviewed by people); ``CareQA_en_open``
rephrases the English questions as open ones (Qwen2.5-72B-Instruct, then validated by people).

Hub: ``HPAI-BSC/CareQA``, Apache-2.0, configs ``CareQA_en``, ``CareQA_es``, ``CareQA_en_open`` (one JSON file
each at the repository's root), one split ``test``. Closed columns: ``exam_id`` (the question's number in its
exam), ``question``, ``op1``…``op4``, ``cop`` (1–4), ``year``, ``category``, ``unique_id``. Open: ``question``,
``answer``. A closed question is its ``unique_id`` in both languages (paired); the load counts how many questions
each language shares (``provenance.paired_items``). A row with no question is dropped and counted (one published
version has one: lm-evaluation-harness swaps in a fixed question there).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from xlingmed.benchmarks.base import LoadRequest, register_benchmark
from xlingmed.benchmarks.hub.base import HubBenchmark, load_frame, missing_option
from xlingmed.errors import DataError
from xlingmed.languages import CANONICAL_LETTERS


class CareQA(HubBenchmark):
    def read(self, source: str | Path, lang: str, request: LoadRequest) -> pd.DataFrame:
        config = "CareQA_en_open" if self.kind == "qa" else f"CareQA_{lang}"
        return load_frame(source, config, self.split_of(request), self.name)

    def prepare(self, df: pd.DataFrame, lang: str, request: LoadRequest) -> pd.DataFrame:
        asked = [not missing_option(q, na_text=False) for q in df["question"]]
        rows = df[asked]
        if self.kind == "qa":
            ids = rows["unique_id"] if "unique_id" in rows else pd.Series(rows.index, index=rows.index)
            out = pd.DataFrame({"item_id": ids.astype(str), "question": rows["question"],
                                "reference": rows["answer"], "category": rows.get("category", "")})  # fmt: skip
        else:
            answers = []
            for k, cop in zip(rows.index, rows["cop"], strict=True):
                if not 1 <= int(cop) <= 4:
                    raise DataError(f"cop {cop} is not 1–4", row=int(k) + 2, column="cop")
                answers.append(CANONICAL_LETTERS[int(cop) - 1])
            out = pd.DataFrame({
                "item_id": rows["unique_id"].astype(str), "question": rows["question"],
                "options": [list(map(str, r)) for r in rows[["op1", "op2", "op3", "op4"]].itertuples(False)],
                "answer": answers, "category": rows["category"],
            })  # fmt: skip
        out.attrs["skipped"] = {"no_question": int(len(df) - len(rows))} if len(rows) < len(df) else {}
        return out


_COMMON: dict[str, Any] = {
    "licence": "Apache-2.0",
    "dataset": "HPAI-BSC/CareQA",
    "home": "https://huggingface.co/datasets/HPAI-BSC/CareQA",
}
# what the loader was run on (issue 61; ``benchmarks.verified``)
VERIFIED_CAREQA = (
    "HPAI-BSC/prompt_engine @21e68bdd4976 careqa_test.json (the English test set) in the hub layout: en 5,621; "
    "12 with two options alike (flagged); es unverified (no Spanish file reachable)"
)

MCQ = register_benchmark(
    CareQA(
        "careqa", ("es", "en"), ("choices",), default_tasks=("multiple_choice",), run_languages=("es", "en"),
        description="CareQA: Spanish specialisation exams 2020–2024, es (source) and en (GPT-4, partly reviewed)",
        shared_id="unique_id", translation=(("es", "original"), ("en", "machine")), prompt="structured",
        prompt_template="careqa",
        prompt_source="lm-evaluation-harness careqa_en/careqa_es (utils.doc_to_text): Question, Choices A–D, Answer:",
        verified=VERIFIED_CAREQA, **_COMMON,
    )
)  # fmt: skip
OPEN = register_benchmark(
    CareQA(
        "careqa/open", ("en",), ("question", "reference", "negatives"), default_tasks=("open_qa",),
        description="CareQA open: the English questions rephrased as open ones, with their answers", kind="qa",
        translation=(("en", "machine"),), **_COMMON,
    )
)  # fmt: skip
