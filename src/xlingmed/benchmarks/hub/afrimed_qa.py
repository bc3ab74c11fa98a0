"""``afrimed-qa`` and ``afrimed-qa/saq``: AfriMed-QA v2 (Olatunji et al., 2025, "AfriMed-QA: A Pan-African,
Multi-Specialty, Medical Question-Answering Benchmark Dataset", ACL), questions written by clinicians in African
countries: expert multiple choice and short answers, English.

Hub: ``intronhealth/afrimedqa_v2``, gated (accept its terms on the hub, then ``HF_TOKEN``), CC BY-NC-SA 4.0. One
CSV; the hub's only split is ``train``. Columns used: ``sample_id``, ``question_type`` (``mcq``, ``saq``,
``consumer_queries``), ``tier``, ``split``, ``question``, ``answer_options`` (a JSON string ``{"option1": …, …,
"option5": …}``, ``N/A`` where unused), ``correct_answer`` (``option3``; ``option1,option3`` where several are
right), ``answer_rationale`` (the expert's answer of a short-answer question), ``specialty``, ``country``.

As the reference code builds its expert multiple-choice set (intron-innovation/AfriMed-QA,
``src/utils/prepare_data.py``): the questions flagged ``requires_african_expertise == 1`` (where the column is)
and of ``tier == "expert"``, whatever their ``split`` (``-B selection=split`` keeps the ``split`` column's
``--hf-split``, default ``test``, instead: the adapter's rule before 0.2); an item with several right answers is
scored against the first listed, as the reference does (counted in the provenance). An unused slot ("N/A", any
case) is never shown, the other options keep their labels; a key naming such a slot, or an item without options, is
skipped and counted (issue 61). Short answers are read by ``split``; a placeholder rationale ("N:A") is no
reference (skipped, counted).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar, Literal

import pandas as pd

from xlingmed.benchmarks.base import BenchmarkOptions, LoadRequest, register_benchmark
from xlingmed.benchmarks.hub.base import HubBenchmark, HubOptions, load_frame, missing_option
from xlingmed.languages import CANONICAL_LETTERS


def _options(raw: Any) -> list[str] | str:
    """The options in their slots' order, an unused slot as "N/A" (the table reader leaves it out: issue 61); the
    cell as it is where it is no ``{"option1": …}`` object (the older release's "A. …" lines are read by the table
    reader; anything else is skipped there as unreadable)."""
    try:
        parsed = json.loads(raw)
    except (TypeError, ValueError):
        return str(raw)
    if not isinstance(parsed, dict) or not parsed:
        return str(raw)
    numbers = [str(k).removeprefix("option") for k in parsed]
    if not all(n.isdigit() for n in numbers) or sorted(map(int, numbers)) != list(range(1, len(numbers) + 1)):
        return str(raw)
    return [("N/A" if missing_option(parsed[f"option{i}"]) else str(parsed[f"option{i}"]).strip())
            for i in range(1, len(numbers) + 1)]  # fmt: skip


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
        if "requires_african_expertise" in rows.columns:  # the reference code's population (prepare_data.py)
            flag = pd.to_numeric(rows["requires_african_expertise"], errors="coerce")
            rows = rows[flag == 1]
        selection = request.options.get("selection") or ("expert" if kind == "mcq" else "split")
        if selection == "expert":
            return rows[rows["tier"].astype(str).str.lower() == "expert"]
        return rows[rows["split"] == self.split_of(request)]

    def prepare(self, df: pd.DataFrame, lang: str, request: LoadRequest) -> pd.DataFrame:
        base = {"item_id": df["sample_id"].astype(str), "question": df["question"], "category": df["specialty"]}
        if self.kind != "mcq":
            return pd.DataFrame({**base, "reference": df["answer_rationale"]})
        options: list[list[str] | str] = []
        answers: list[str] = []
        several = 0
        for raw, correct in zip(df["answer_options"], df["correct_answer"], strict=True):
            options.append(_options(raw))
            listed = [g.strip() for g in str(correct).split(",") if g.strip()]
            several += len(listed) > 1
            gold = listed[0] if listed else ""  # several right answers: the first listed, as the reference scores
            number = gold.removeprefix("option")
            # "option3" → C; a key naming no slot stays as written: the table reader skips it by reason
            answers.append(CANONICAL_LETTERS[int(number) - 1] if number.isdigit() and 0 < int(number) <= 10 else gold)
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
# what the loader was run on (issue 61; ``benchmarks.verified``)
VERIFIED_AFRIMED_QA = (
    "intron-innovation/AfriMed-QA @9bb0ffc03ef4, the reference code's 3,910 expert MCQ rows rebuilt into "
    'the hub layout: en 3,907 items; 3 skipped (2 answer_empty_option, 1 no_options)'
)

MCQ = register_benchmark(
    AfriMedQA(
        "afrimed-qa", ("en",), ("choices",), default_tasks=("multiple_choice",),
        description="AfriMed-QA v2: African clinicians' expert multiple choice (gated)", kind="mcq", **_COMMON,
        verified=VERIFIED_AFRIMED_QA,
    )
)  # fmt: skip
# what the loader was run on (issue 61; ``benchmarks.verified``)
VERIFIED_AFRIMED_QA_SAQ = (
    'intron-innovation/AfriMed-QA @9bb0ffc03ef4, 912 SAQ rows in the hub layout: en 912 items'
)

SAQ = register_benchmark(
    AfriMedQA(
        "afrimed-qa/saq", ("en",), ("question", "reference", "negatives"), default_tasks=("open_qa",),
        description="AfriMed-QA v2: short-answer questions with the expert's answer (gated)", kind="qa", **_COMMON,
        verified=VERIFIED_AFRIMED_QA_SAQ,
    )
)  # fmt: skip
