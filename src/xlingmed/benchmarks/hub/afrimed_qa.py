"""``afrimed-qa`` and ``afrimed-qa/saq``: AfriMed-QA v2 (Olatunji et al., 2025, "AfriMed-QA: A Pan-African,
Multi-Specialty, Medical Question-Answering Benchmark Dataset", ACL), questions written by clinicians in African
countries: expert multiple choice and short answers, English.

Hub: ``intronhealth/afrimedqa_v2``, gated (accept its terms on the hub, then ``HF_TOKEN``), CC BY-NC-SA 4.0. One
CSV; the hub's only split is ``train``. Columns used: ``sample_id``, ``question_type`` (``mcq``, ``saq``,
``consumer_queries``), ``tier``, ``split``, ``question``, ``answer_options`` (a JSON string ``{"option1": …, …,
"option5": …}``, ``N/A`` where unused), ``correct_answer`` (``option3``; ``option1,option3`` where several are
right), ``answer_rationale`` (the expert's answer of a short-answer question), ``specialty``, ``country``.

As the reference code builds its expert multiple-choice set (intron-innovation/AfriMed-QA): every ``tier ==
"expert"`` question, whatever its ``split`` (``-B selection=split`` keeps the ``split`` column's ``--hf-split``,
default ``test``, instead: the adapter's rule before 0.2); an item with several right answers is scored against the
first listed, as the reference does (counted in the provenance); an ``N/A`` option between others keeps its place
and its label, only the trailing unused slots are dropped. Short answers are read by ``split``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar, Literal

import pandas as pd

from xlingmed.benchmarks.base import BenchmarkOptions, LoadRequest, register_benchmark
from xlingmed.benchmarks.hub.base import HubBenchmark, HubOptions, load_frame, missing_option
from xlingmed.errors import DataError
from xlingmed.languages import CANONICAL_LETTERS


def _options(raw: str, row: int) -> dict[str, str]:
    """The options up to the last used one; an ``N/A`` among them keeps its place and text."""
    try:
        parsed = json.loads(raw)
    except (TypeError, json.JSONDecodeError):
        raise DataError("answer_options is not a JSON object", row=row, column="answer_options") from None
    keys = sorted(parsed, key=lambda k: int(str(k).removeprefix("option")) if str(k).removeprefix("option").isdigit()
                  else 10**6)  # fmt: skip
    while keys and missing_option(parsed[keys[-1]]):
        keys.pop()
    return {k: str(parsed[k]).strip() if not missing_option(parsed[k]) else "N/A" for k in keys}


class AfriMedOptions(HubOptions):
    """``-B selection``: ``expert`` (the reference's expert set: ``tier == "expert"``, every split; the default for
    multiple choice) or ``split`` (the ``split`` column's ``--hf-split``, default ``test``)."""

    selection: Literal["expert", "split"] | None = None


class AfriMedQA(HubBenchmark):
    Options: ClassVar[type[BenchmarkOptions]] = AfriMedOptions

    def read(self, source: str | Path, lang: str, request: LoadRequest) -> pd.DataFrame:
        df = load_frame(source, None, "train", self.name)
        df = df.assign(row=range(2, len(df) + 2))  # the CSV's own row, for errors
        kind = "mcq" if self.kind == "mcq" else "saq"
        rows = df[df["question_type"].str.lower() == kind]
        selection = request.options.get("selection") or ("expert" if kind == "mcq" else "split")
        if selection == "expert":
            return rows[rows["tier"].astype(str).str.lower() == "expert"]
        return rows[rows["split"] == self.split_of(request)]

    def prepare(self, df: pd.DataFrame, lang: str, request: LoadRequest) -> pd.DataFrame:
        base = {"item_id": df["sample_id"].astype(str), "question": df["question"], "category": df["specialty"]}
        if self.kind != "mcq":
            return pd.DataFrame({**base, "reference": df["answer_rationale"]})
        options: list[list[str]] = []
        answers: list[str] = []
        several = 0
        for row, raw, correct in zip(df["row"], df["answer_options"], df["correct_answer"], strict=True):
            opts = _options(raw, row)
            keys = [f"option{i}" for i in range(1, len(opts) + 1)]
            if list(opts) != keys:
                raise DataError(
                    f"answer_options keys {list(opts)} are not option1…", row=row, column="answer_options"
                )
            listed = [g.strip() for g in str(correct).split(",") if g.strip()]
            several += len(listed) > 1
            gold = listed[0] if listed else ""  # several right answers: the first listed, as the reference scores
            if gold not in keys:
                raise DataError(f"correct_answer {gold!r} is not one of {keys}", row=row, column="correct_answer")
            options.append([opts[k] for k in keys])
            answers.append(CANONICAL_LETTERS[keys.index(gold)])
        out = pd.DataFrame({**base, "options": options, "answer": answers})
        out.attrs["skipped"] = {}
        out.attrs["quirks"] = {"multi_answer_scored_by_first_listed": several}
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
