"""``head-qa`` and ``head-qa/v2``: HEAD-QA (Vilares & Gómez-Rodríguez, ACL 2019; v2: arXiv 2511.15355), the Spanish
healthcare specialisation exams (MIR, EIR, FIR, PIR, QIR, BIR: medicine, nursing, pharmacology, psychology,
chemistry, biology), options numbered 1–4 or 1–5 as the exam prints them.

* v1, Hub ``EleutherAI/headqa`` (the copy lm-evaluation-harness's ``headqa_en``/``headqa_es`` read; the original
  ``dvilares/head_qa`` is a loading script that current ``datasets`` no longer runs), MIT plus the Spanish Ministry
  of Health's reuse conditions: ``<lang>/{train,validation,test}.parquet`` for ``es`` (the source) and ``en``
  (machine translated, Google's seq2seq model).
* v2, Hub ``alesi12/head_qa_v2``, MIT: one config per language (``es``, and ``en``, ``gl``, ``it``, ``ru`` machine
  translated with LLaMA-3.1-8B, only the English spot-checked by people), one split ``train`` (12,751 questions,
  2013–2022).

Columns (both): ``name`` (the exam, ``Cuaderno_2013_1_B``), ``year``, ``category``, ``qid``, ``qtext``, ``ra`` (the
``aid`` of the right answer), ``image`` (a figure the question refers to; text models are not shown it: counted),
``answers`` (a list of ``{aid, atext}``); ``-B figures=drop`` leaves the questions with a figure out (counted). A
question is ``<name>_<qid>`` in every language (v2's paper: both name it), so the languages are paired. The options
keep the exam's numbers: the prompt shows "1. …", and a reply naming the number is read as that option; Scores
keep the canonical letter of its place.

v1 is also read as its authors publish it (aghie/head-qa): ``--data-dir`` holding ``{train,dev,test}_HEAD.json``
(es) and ``…_HEAD_EN.json`` (en), or ``HEAD.json``/``HEAD_EN.json`` (every exam, read whole whatever the split).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar, Literal

import pandas as pd

from xlingmed.benchmarks.base import BenchmarkOptions, LoadRequest, register_benchmark
from xlingmed.benchmarks.hub.base import HubBenchmark, HubOptions, load_frame
from xlingmed.errors import DataError
from xlingmed.languages import CANONICAL_LETTERS


def _has_image(value: Any) -> bool:
    """An ``image`` cell that holds a figure: a path, or the dict ``datasets`` gives an Image (bytes or path)."""
    if isinstance(value, dict):
        return bool(value.get("bytes") or value.get("path"))
    return bool(value) and not (isinstance(value, float) and value != value)


class HeadQAOptions(HubOptions):
    """``-B figures``: ``keep`` (default, as lm-evaluation-harness keeps them; counted) or ``drop`` the questions
    that refer to a figure a text model is not shown (counted in ``dataset.skipped``)."""

    figures: Literal["keep", "drop"] = "keep"


def release_files(folder: Path, lang: str, split: str) -> list[Path]:
    """The original release's JSON for ``lang`` in ``folder`` (aghie/head-qa: ``{split}_HEAD[_EN].json``, ``dev``
    for validation, else ``HEAD[_EN].json`` with every exam), as its authors publish it; ``[]`` where none is."""
    suffix = "_EN" if lang == "en" else ""
    own = {"validation": "dev"}.get(split, split)
    for name in (f"{own}_HEAD{suffix}.json", f"HEAD{suffix}.json"):
        if (folder / name).is_file():
            return [folder / name]
    return []


def read_release(path: Path) -> pd.DataFrame:
    """One row per question of a release JSON (``{"exams": {name: {"name", "category", "year", "data": [...]}}}``)
    in the hub's columns.

    Raises:
        DataError: a file that is not the release's layout (named, with the exam).
    """
    from xlingmed.caps import check_input_file

    check_input_file(path)  # a file from others: a plain file, under the size cap
    try:
        exams = json.loads(path.read_text(encoding="utf-8"))["exams"]
        rows = [{"name": exam.get("name", name), "year": exam.get("year"), "category": exam.get("category"), **q}
                for name, exam in exams.items() for q in exam["data"]]  # fmt: skip
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        what = f"{type(exc).__name__}: {str(exc)[:80]}"
        raise DataError(f"not HEAD-QA's release layout ({what})", file=str(path)) from None
    return pd.DataFrame(rows, columns=["name", "year", "category", "qid", "qtext", "ra", "image", "answers"])


class HeadQA(HubBenchmark):
    Options: ClassVar[type[BenchmarkOptions]] = HeadQAOptions

    def source(self, request: LoadRequest) -> str | Path:
        """The release's own JSON where ``--data-dir`` holds it (v1), else the hub layout (``HubBenchmark``)."""
        if self.dataset == "EleutherAI/headqa" and request.data_dir is not None:
            for folder in (Path(request.data_dir), Path(request.data_dir) / self.dataset):
                if any(release_files(folder, lang, self.split_of(request)) for lang in request.languages):
                    return folder
        return super().source(request)

    def read(self, source: str | Path, lang: str, request: LoadRequest) -> pd.DataFrame:
        split = self.split_of(request)
        if isinstance(source, Path) and (found := release_files(source, lang, split)):
            return read_release(found[0])  # the authors' JSON, as published (issue 61)
        if self.dataset == "EleutherAI/headqa":  # no configs in its card: the files by path
            return load_frame(source, None, split, self.name, data_files={split: f"{lang}/{split}.parquet"})
        return load_frame(source, lang, split, self.name)

    def prepare(self, df: pd.DataFrame, lang: str, request: LoadRequest) -> pd.DataFrame:
        options: list[dict[str, str]] = []
        answers: list[str] = []
        for k, (given, right) in enumerate(zip(df["answers"], df["ra"], strict=True)):
            pairs = sorted((int(a["aid"]), str(a["atext"])) for a in list(given))
            aids = [aid for aid, _ in pairs]
            if aids != list(range(1, len(aids) + 1)) or int(right) not in aids:
                raise DataError(f"answers' aid {aids} / ra {right} do not fit (aid 1…n, ra one of them)",
                                row=k + 2, column="ra")  # fmt: skip
            options.append({str(aid): text for aid, text in pairs})  # numbered as the exam prints them
            answers.append(CANONICAL_LETTERS[int(right) - 1])
        out = pd.DataFrame({
            "item_id": [f"{n}_{q}" for n, q in zip(df["name"], df["qid"], strict=True)],
            "question": df["qtext"], "options": options, "answer": answers, "category": df["category"],
        })  # fmt: skip
        figure = [_has_image(v) for v in df["image"]] if "image" in df else [False] * len(df)
        if request.options.get("figures") == "drop":
            out = out[[not f for f in figure]].reset_index(drop=True)
            out.attrs["skipped"] = {"refers_to_a_figure": sum(figure)} if any(figure) else {}
        else:
            out.attrs["quirks"] = {"figure_not_shown": sum(figure)}
        return out


_COMMON: dict[str, Any] = {
    "prompt": "structured",
    "prompt_template": "head_qa",
    "prompt_source": (
        "lm-evaluation-harness headqa_en/headqa_es ('Question: {qtext}\\nAnswer:', scored there by each option's "
        "log-likelihood); generated here with the options shown, numbered 1–5 as the exam prints them"
    ),
    "shared_id": "name + qid",
}
# what the loader was run on (issue 61; ``benchmarks.verified``)
VERIFIED_HEAD_QA = (
    "the original release's exam JSON rebuilt into <lang>/<split>.parquet: raulista1997/benchmarkdata "
    "@52ba5528fd1f HEAD_EN.json (en 6,765, every split) and vkola-lab/PodGPT @32d6e014c061 HEAD-QA-test.json "
    "(the Spanish test split): es 2,742, en 2,742, all paired; 67 refer to a figure"
)

V1 = register_benchmark(
    HeadQA(
        "head-qa", ("es", "en"), ("choices",), default_tasks=("multiple_choice",),
        licence="MIT (and the Spanish Ministry of Health's reuse terms)",
        description="HEAD-QA v1: Spanish healthcare exams (MIR, EIR, FIR…), es source, en machine translated",
        dataset="EleutherAI/headqa", translation=(("es", "original"), ("en", "machine")),
        run_languages=("es", "en"), home="https://huggingface.co/datasets/EleutherAI/headqa", **_COMMON,
        verified=VERIFIED_HEAD_QA,
    )
)  # fmt: skip
V2 = register_benchmark(
    HeadQA(
        "head-qa/v2", ("es", "en", "gl", "it", "ru"), ("choices",), default_tasks=("multiple_choice",), licence="MIT",
        description="HEAD-QA v2: Spanish healthcare exams 2013–2022 in es (source), en, gl, it, ru (LLaMA-translated)",
        dataset="alesi12/head_qa_v2", split="train",
        translation=(("es", "original"), ("en", "machine"), ("gl", "machine"), ("it", "machine"), ("ru", "machine")),
        run_languages=("es", "en", "gl", "it", "ru"), home="https://huggingface.co/datasets/alesi12/head_qa_v2",
        **_COMMON,
    )
)  # fmt: skip
