"""``afrimed-qa`` and ``afrimed-qa/saq``: AfriMed-QA v2 (Olatunji et al., 2025, "AfriMed-QA: A Pan-African,
Multi-Specialty, Medical Question-Answering Benchmark Dataset", ACL), questions written by clinicians in African
countries: expert multiple choice and short answers, English.

Hub: ``intronhealth/afrimedqa_v2``, gated (accept its terms on the hub, then ``HF_TOKEN``), CC BY-NC-SA 4.0. One
CSV; the hub's only split is ``train`` and the benchmark's own split is the ``split`` column (``--hf-split``
chooses it, default ``test``). Columns used: ``sample_id``, ``question_type`` (``mcq``, ``saq``,
``consumer_queries``), ``question``, ``answer_options`` (a JSON string ``{"option1": …, …, "option5": …}``,
``N/A`` where unused), ``correct_answer`` (``option3``; ``option1,option3`` where several are right: left out and
counted), ``answer_rationale`` (the expert's answer of a short-answer question), ``specialty``, ``country``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from xlingmed.benchmarks.base import LoadRequest, register_benchmark
from xlingmed.benchmarks.hub.base import HubBenchmark, load_frame
from xlingmed.errors import DataError
from xlingmed.languages import CANONICAL_LETTERS


def _options(raw: str, row: int) -> dict[str, str]:
    try:
        parsed = json.loads(raw)
    except (TypeError, json.JSONDecodeError):
        raise DataError("answer_options is not a JSON object", row=row, column="answer_options") from None
    return {k: str(v).strip() for k, v in parsed.items() if v is not None and str(v).strip().lower() not in ("n/a", "")}


class AfriMedQA(HubBenchmark):
    def read(self, source: str | Path, lang: str, request: LoadRequest) -> pd.DataFrame:
        df = load_frame(source, None, "train", self.name)
        df = df.assign(row=range(2, len(df) + 2))  # the CSV's own row, for errors
        split = self.split_of(request)
        kind = "mcq" if self.kind == "mcq" else "saq"
        return df[(df["split"] == split) & (df["question_type"].str.lower() == kind)]

    def prepare(self, df: pd.DataFrame, lang: str, request: LoadRequest) -> pd.DataFrame:
        base = {"item_id": df["sample_id"].astype(str), "question": df["question"], "category": df["specialty"]}
        if self.kind != "mcq":
            return pd.DataFrame({**base, "reference": df["answer_rationale"]})
        options: list[list[str]] = []
        answers: list[str] = []
        keep: list[bool] = []
        for row, raw, correct in zip(df["row"], df["answer_options"], df["correct_answer"], strict=True):
            opts = _options(raw, row)
            keys = [f"option{i}" for i in range(1, len(opts) + 1)]
            if sorted(opts, key=lambda k: int(k.removeprefix("option"))) != keys:
                raise DataError(
                    f"answer_options keys {sorted(opts)} are not option1…", row=row, column="answer_options"
                )
            gold = str(correct).strip()
            keep.append("," not in gold)
            if "," in gold:  # several right answers
                options.append([])
                answers.append("")
                continue
            if gold not in keys:
                raise DataError(f"correct_answer {gold!r} is not one of {keys}", row=row, column="correct_answer")
            options.append([opts[k] for k in keys])
            answers.append(CANONICAL_LETTERS[keys.index(gold)])
        out = pd.DataFrame({**base, "options": options, "answer": answers})[keep]
        out.attrs["skipped"] = {"multi_answer": keep.count(False)}
        return out


_COMMON: dict[str, Any] = {
    "licence": "CC BY-NC-SA 4.0",
    "dataset": "intronhealth/afrimedqa_v2",
    "gated": True,
    "translation": (("en", "original"),),
    "restriction": "non-commercial use only, share alike",
    "home": "https://huggingface.co/datasets/intronhealth/afrimedqa_v2",
    "prompt": "structured",
    "prompt_template": "afrimed_qa",
    "prompt_source": (
        "AfriMed-QA's base_mcq_no_exp prompt (intron-innovation/AfriMed-QA, prompts/base_mcq_no_exp.txt), "
        "without its system prompt"
    ),
}
MCQ = register_benchmark(
    AfriMedQA(
        "afrimed-qa", ("en",), ("choices",), default_tasks=("multiple_choice",),
        description="AfriMed-QA v2: African clinicians' expert multiple choice (gated)", kind="mcq", **_COMMON,
    )
)  # fmt: skip
SAQ = register_benchmark(
    AfriMedQA(
        "afrimed-qa/saq", ("en",), ("question", "reference", "negatives"), default_tasks=("open_qa",),
        description="AfriMed-QA v2: short-answer questions with the expert's answer (gated)", kind="qa", **_COMMON,
    )
)  # fmt: skip
