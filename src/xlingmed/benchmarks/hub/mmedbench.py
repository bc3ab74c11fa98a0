"""``mmedbench``: MMedBench (Qiu et al., 2024, "Towards building multilingual language model for medicine", Nature
Communications), medical licensing-exam questions in six languages, each from its own country's exam.

Hub: ``Henrychur/MMedBench``, CC BY-NC 4.0 (non-commercial). The repository holds ``MMedBench.zip``, which unpacks
to ``MMedBench/{Train,Test}/<English|Chinese|Japanese|French|Russian|Spanish>.jsonl``; each line has
``question``, ``options`` (``{"A": …, "B": …}``), ``answer_idx`` (the gold letter; ``"A,C"`` where several
options are right), ``answer`` (the gold text), ``rationale``, ``human_checked``, ``human_check_passed``.
``--data-dir DIR`` reads ``DIR/Henrychur/MMedBench/`` holding the zip or its unpacked ``MMedBench/`` folder.

The languages' questions are different questions (MedQA-USMLE, MedQA-MCMLE, IgakuQA, FrenchMedMCQA, RuMedDaNet,
HEAD-QA): not parallel, so the report compares them with unpaired tests. An item with several right answers
(``answer_idx`` ``"A,C"``, a list, IgakuQA's ``"A OR C"``) keeps them all: it is asked with the same prompt, as the
reference inference does, and is right only when the reply names exactly that set (``parsing.several``; counted in
``dataset.reference_rules``).
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from typing import Any

import pandas as pd

from xlingmed.benchmarks.base import LoadRequest, register_benchmark
from xlingmed.benchmarks.hub.base import HubBenchmark, load_frame
from xlingmed.errors import DataError, DataNotFoundError

FILES = {"en": "English", "zh": "Chinese", "ja": "Japanese", "fr": "French", "ru": "Russian", "es": "Spanish"}
_SPLITS = {"test": "Test", "train": "Train"}


def unpacked(source: str | Path) -> Path:
    """The ``MMedBench/`` folder: in ``source`` (a local copy), unpacked from its zip beside it, or downloaded from
    the hub and unpacked into the Hugging Face cache.

    Raises:
        DataNotFoundError: neither the folder nor the zip is there.
        DataError: a damaged zip.
    """
    if isinstance(source, Path):
        folder, archive = source / "MMedBench", source / "MMedBench.zip"
    else:  # the hub: the zip is a file of the dataset repository
        from huggingface_hub import hf_hub_download

        archive = Path(hf_hub_download(source, "MMedBench.zip", repo_type="dataset"))
        folder = archive.parent / "MMedBench"
    if folder.is_dir():
        return folder
    if not archive.is_file():
        raise DataNotFoundError(f"{source}: neither MMedBench/ nor MMedBench.zip is there")
    try:
        with zipfile.ZipFile(archive) as zf:
            zf.extractall(archive.parent)
    except zipfile.BadZipFile as exc:
        raise DataError(f"damaged archive: {exc}", file=str(archive)) from None
    if not folder.is_dir():
        raise DataError("the archive holds no MMedBench/ folder", file=str(archive))
    return folder


_SEPARATORS = re.compile(r"\s*(?:,|;|、|，|\bOR\b|\bor\b|\band\b|\s)\s*")


def gold_letters(value: Any) -> list[str]:
    """``answer_idx`` as its letters, in order, each once: ``"A"``, ``["A", "C"]`` (a list, as some languages'
    files give it), ``"A,C"``, ``"A OR C"`` (IgakuQA), ``"B、C"``."""
    parts = list(value) if hasattr(value, "__iter__") and not isinstance(value, str) else [value]
    letters = [x for p in parts for x in _SEPARATORS.split(str(p).strip()) if x]
    return list(dict.fromkeys(letters))


class MMedBench(HubBenchmark):
    def read(self, source: str | Path, lang: str, request: LoadRequest) -> pd.DataFrame:
        split = self.split_of(request)
        path = unpacked(source) / _SPLITS.get(split, split) / f"{FILES[lang]}.jsonl"
        if not path.is_file():
            raise DataNotFoundError(f"{self.name}: {path} not found (split {split})")
        return load_frame("json", None, "train", self.name, data_files=str(path))

    def prepare(self, df: pd.DataFrame, lang: str, request: LoadRequest) -> pd.DataFrame:
        answers = df["answer_idx"].map(gold_letters).map(",".join)  # several: "A,C", scored as a set
        out = pd.DataFrame(
            {
                "item_id": [f"{k + 1:05d}" for k in df.index],
                "question": df["question"],
                "options": [{k: v for k, v in o.items() if v is not None} for o in df["options"]],
                "answer": answers,
                "category": df["meta_info"] if "meta_info" in df.columns else None,
            }
        )
        out.attrs["skipped"] = {}
        out.attrs["quirks"] = {"multi_answer_scored_as_a_set": int(answers.str.contains(",").sum())}
        return out


SPEC = register_benchmark(
    MMedBench(
        "mmedbench",
        tuple(FILES),
        ("choices",),
        default_tasks=("multiple_choice",),
        licence="CC BY-NC 4.0",
        description="MMedBench: six countries' medical licensing exams (en, zh, ja, fr, ru, es); not parallel",
        prompt="structured",
        prompt_template="mmedbench",
        prompt_source=(
            "MMedBench's inference prompt (MAGIC-AI4Med/MMedLM, inference/inference.py): the Alpaca wrapper, "
            "'Answer with the best option directly'"
        ),
        dataset="Henrychur/MMedBench",
        translation=tuple((lang, "original") for lang in FILES),
        restriction="non-commercial use only",
        home="https://huggingface.co/datasets/Henrychur/MMedBench",
    )
)
