"""XLingHealth: HealthQA, LiveQA and MedicationQA in English, Spanish, Chinese and Hindi.

Reads the *published* files (XLingEval paper §2; shared/specs/xlingeval.md §1):

* **long layout** (the files at the authors' HEAD): one sheet ``Sheet1`` with columns ``id, label,
  answer_ids, question_<Language>, answer_<Language>``; each question spans contiguous rows, the positive
  (``label == 1``, the question's own expert answer) and its negatives (``label == 0``, other answers), 5 rows
  for LiveQA/MedicationQA and 10 for HealthQA. Each row's *own* answer text is read; ``answer_ids`` is never
  dereferenced (HealthQA negatives are not other questions' answers, spec §1.3).
* **legacy layout** (the authors' previous version): one sheet per language (``English``, ``Spanish``, …);
  non-English sheets keep the target-language text in ``question_translated``/``answer_translated``;
  negatives come either as rows with ``label`` 0 following their positive (HealthQA) or as a ``neg_sample``
  list of ids whose answers are looked up by ``id`` (LiveQA/MedicationQA).

Defects are found in every language the file holds, so the same questions are excluded whichever languages
a run asks for (paired comparisons stay paired): LiveQA ids 58 and 67 lack the English question and
MedicationQA id 212 lacks the English and Chinese reference answers.
"""

from __future__ import annotations

import os
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import pandas as pd

from xlingmed.benchmarks.base import Benchmark, BenchmarkOptions, LoadRequest, register_benchmark
from xlingmed.benchmarks.tables import cell_text, int_cell
from xlingmed.benchmarks.xlinghealth_legacy import legacy_to_long
from xlingmed.errors import DataError, DataNotFoundError
from xlingmed.hashing import sha256_file
from xlingmed.languages import LANGUAGES, get_language
from xlingmed.types import Item

DATASETS: dict[str, str] = {"healthqa": "HealthQA.xlsx", "liveqa": "LiveQA.xlsx", "medicationqa": "MedicationQA.xlsx"}
UPSTREAM_URL = "https://raw.githubusercontent.com/claws-lab/XLingEval/main/XLingHealth_Dataset/{file}"
DATA_DIR_ENV = "XLINGMED_DATA_DIR"
FILE_LANGUAGES = ("en", "es", "zh", "hi")  # the languages XLingHealth files hold


@dataclass
class Question:
    """One source question in every language of the file, before it is split into per-language Items."""

    source_id: int
    rows: list[int]  # spreadsheet rows (header = row 1)
    question: dict[str, str] = field(default_factory=dict)  # lang -> text ("" when the cell is empty)
    reference: dict[str, str] = field(default_factory=dict)
    negatives: dict[str, list[str]] = field(default_factory=dict)
    defects: list[str] = field(default_factory=list)
    empty_negatives: int = 0


# --------------------------------------------------------------------------------------------------------------
# Locating the file


def data_file(dataset: str, data_dir: str | os.PathLike[str] | None, *, download: bool = True) -> Path:
    """Return the path of ``dataset``'s xlsx.

    Looks in ``data_dir``, else ``$XLINGMED_DATA_DIR``, else the user cache, where it downloads the upstream
    file when online.

    Raises:
        DataNotFoundError: the file is not in the given folder, or it is absent and cannot be downloaded; the
            message says what to pass.
    """
    if dataset not in DATASETS:
        raise DataNotFoundError(f"unknown XLingHealth dataset {dataset!r}; known: {', '.join(DATASETS)}")
    name = DATASETS[dataset]
    given = data_dir if data_dir is not None else os.environ.get(DATA_DIR_ENV)
    if given:
        path = Path(given) / name
        if not path.is_file():
            raise DataNotFoundError(f"{path} does not exist: --data-dir must be a folder holding {name}")
        return path
    from platformdirs import user_cache_dir

    cached = Path(user_cache_dir("xlingmed")) / "data" / "xlinghealth" / name
    if cached.is_file():
        return cached
    hint = (
        f"pass --data-dir DIR (a folder holding {name}) or set {DATA_DIR_ENV}; the published files are at "
        f"{UPSTREAM_URL.format(file=name)}"
    )
    if dataset == "healthqa":
        raise DataNotFoundError(f"HealthQA.xlsx is not published upstream any more: {hint}")
    if not download:
        raise DataNotFoundError(f"{name} not found: {hint}")
    try:
        _download(UPSTREAM_URL.format(file=name), cached)
    except OSError as exc:
        raise DataNotFoundError(f"could not download {name} ({exc}); offline, {hint}") from None
    return cached


def _download(url: str, dest: Path) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_suffix(dest.suffix + ".part")
    with urllib.request.urlopen(url, timeout=60) as resp, open(tmp, "wb") as fh:
        fh.write(resp.read())
    if tmp.read_bytes()[:2] != b"PK":  # an xlsx is a zip archive
        tmp.unlink()
        raise OSError(f"{url} did not return an xlsx file")
    os.replace(tmp, dest)


# --------------------------------------------------------------------------------------------------------------
# Reading


def read_questions(path: str | os.PathLike[str]) -> list[Question]:
    """Read every question of an XLingHealth xlsx (long or legacy layout), defective ones included.

    Returns:
        Questions in file order, each with text for every language the file holds (``""`` for empty cells)
        and ``defects`` naming each empty question or reference cell.

    Raises:
        DataError: unreadable file, unknown layout, missing column, bad id/label value, a question without
            exactly one positive row; the message names file, sheet, row and column.
    """
    path = Path(path)
    try:
        sheets: dict[str, pd.DataFrame] = pd.read_excel(path, sheet_name=None, dtype=object)
    except Exception as exc:  # openpyxl raises many types for a corrupt file
        raise DataError(f"cannot read as xlsx ({type(exc).__name__}: {exc})", file=str(path)) from None
    if "Sheet1" in sheets and "id" in sheets["Sheet1"].columns:
        table, sheet = sheets["Sheet1"], "Sheet1"
    elif any(get_language(c).name in sheets for c in FILE_LANGUAGES):
        table, sheet = legacy_to_long(path, sheets, FILE_LANGUAGES), "(legacy sheets)"
    else:
        raise DataError(
            f"unknown layout: expected sheet 'Sheet1' with columns id, label, question_<Language>, "
            f"answer_<Language>, or one sheet per language; found sheets {list(sheets)}",
            file=str(path),
        )
    return _parse_long(table, path=str(path), sheet=sheet)


def _parse_long(table: pd.DataFrame, *, path: str, sheet: str) -> list[Question]:
    langs = [c for c in FILE_LANGUAGES if f"question_{get_language(c).name}" in table.columns]
    missing = [c for c in ("id", "label") if c not in table.columns]
    if not langs:
        missing.append("question_English (or another question_<Language>)")
    for code in langs:
        if f"answer_{get_language(code).name}" not in table.columns:
            missing.append(f"answer_{get_language(code).name}")
    if missing:
        raise DataError(f"missing column(s) {', '.join(missing)}; found {list(table.columns)}", file=path, sheet=sheet)
    if table.empty:
        raise DataError("the sheet has no data rows", file=path, sheet=sheet)

    questions: dict[int, Question] = {}
    for pos, rec in enumerate(table.to_dict("records")):
        row = pos + 2  # header is spreadsheet row 1
        qid = int_cell(rec["id"], path=path, sheet=sheet, row=row, column="id")
        label = int_cell(rec["label"], path=path, sheet=sheet, row=row, column="label")
        if label not in (0, 1):
            raise DataError(f"label must be 0 or 1, found {label}", file=path, sheet=sheet, row=row, column="label")
        q = questions.setdefault(qid, Question(source_id=qid, rows=[]))
        q.rows.append(row)
        for code in langs:
            name = get_language(code).name
            text = cell_text(rec[f"question_{name}"])
            if text and not q.question.get(code):
                q.question[code] = text
            q.question.setdefault(code, "")
            answer = cell_text(rec[f"answer_{name}"])
            if label == 1:
                if code in q.reference:
                    raise DataError(
                        f"question id {qid} has more than one positive row (label 1)",
                        file=path,
                        sheet=sheet,
                        row=row,
                        column="label",
                    )
                q.reference[code] = answer
            elif answer:
                q.negatives.setdefault(code, []).append(answer)
            else:  # an empty negative cannot be judged; it is dropped and counted
                q.empty_negatives += 1

    for q in questions.values():
        if not q.reference:
            raise DataError(
                f"question id {q.source_id} has no positive row (label 1)",
                file=path,
                sheet=sheet,
                row=q.rows[0],
                column="label",
            )
        for code in langs:
            name = get_language(code).name
            if not q.question.get(code):
                q.defects.append(f"empty question_{name}")
            if not q.reference.get(code):
                q.defects.append(f"empty answer_{name}")
    return list(questions.values())


# --------------------------------------------------------------------------------------------------------------
# Items


def _question_items(
    dataset: str, kept: list[Question], languages: Sequence[str], path: Path
) -> tuple[list[Item], list[str]]:
    """One Item per question and language, and the ``item/lang`` left out as their question text is empty."""
    items: list[Item] = []
    skipped_empty: list[str] = []
    for q in kept:
        for code in languages:
            item_id = f"{dataset}-{q.source_id:04d}"
            if not q.question[code]:
                skipped_empty.append(f"{item_id}/{code}")
                continue
            items.append(
                Item(
                    item_id=item_id,
                    benchmark=f"xlinghealth/{dataset}",
                    lang=code,
                    question=q.question[code],
                    reference=q.reference.get(code, ""),
                    negatives=tuple(q.negatives.get(code, [])),
                    meta={"source_file": path.name, "source_id": q.source_id, "rows": q.rows, "defects": q.defects},
                )
            )
    return items, skipped_empty


def load_items(
    dataset: str,
    data_dir: str | os.PathLike[str] | None,
    languages: Sequence[str],
    *,
    include_defective: bool = False,
    limit: int | None = None,
) -> tuple[list[Item], dict[str, Any]]:
    """Load ``dataset`` as Items, one per (question, language).

    Args:
        dataset: ``healthqa``, ``liveqa`` or ``medicationqa``.
        data_dir: folder holding the xlsx (see ``data_file``).
        languages: ISO codes, each one of en, es, zh, hi.
        include_defective: keep questions flagged as defective (the paper did); a question whose text is
            empty in a language is still never asked in that language.
        limit: keep the first ``limit`` questions (after excluding defective ones), the same in every language.

    Returns:
        (items ordered by question then language, provenance dict with file, sha256, counts, excluded ids).

    Raises:
        DataError, DataNotFoundError: see ``data_file`` and ``read_questions``.
    """
    for code in languages:
        get_language(code)  # ConfigError for an unknown code, before any file is read
    path = data_file(dataset, data_dir)
    questions = read_questions(path)
    held = set(questions[0].question) if questions else set()
    for code in languages:
        if code not in held:
            raise DataError(
                f"the file has no columns for language {code!r} "
                f"(question_{LANGUAGES[code].name}); it holds {sorted(held)}",
                file=str(path),
            )
    defective = [q.source_id for q in questions if q.defects]
    kept = [q for q in questions if include_defective or not q.defects]
    if limit is not None:
        kept = kept[:limit]
    items, skipped_empty = _question_items(dataset, kept, languages, path)
    provenance = {
        "file": str(path),
        "sha256": sha256_file(path),
        "questions_in_file": len(questions),
        "defective_ids": defective,
        "defective_included": include_defective,
        "questions_used": len(kept),
        "skipped_empty_question": skipped_empty,
        "empty_negatives_dropped": sum(q.empty_negatives for q in kept),
    }
    return items, provenance


def describe(dataset: str, data_dir: str | os.PathLike[str] | None) -> list[dict[str, Any]]:
    """Per-language counts and word statistics of every question in the file (defective ones included).

    Words follow XLingEval Table A1 (spec §1.5): whitespace ``str.split`` (jieba tokens for Chinese), an empty
    cell counts as 0 words, over all questions, mean ± sample sd (ddof=1). With these rules the English rows
    equal Table A1 (LiveQA 41.76 ± 37.39 / 115.25 ± 112.75; MedicationQA 6.86 ± 2.83 / 61.50 ± 69.44).

    Returns:
        One dict per language: ``lang, questions, empty_questions, empty_answers, negatives, q_words_mean,
        q_words_sd, a_words_mean, a_words_sd, q_chars_mean, a_chars_mean``.
    """
    from statistics import mean, stdev

    from xlingmed.languages import word_count

    questions = read_questions(data_file(dataset, data_dir))
    out = []
    for code in FILE_LANGUAGES:
        if not questions or code not in questions[0].question:
            continue
        qs = [q.question[code] for q in questions]
        ans = [q.reference.get(code, "") for q in questions]
        qw = [word_count(t, code) for t in qs]
        aw = [word_count(t, code) for t in ans]
        n = len(questions)
        out.append(
            {
                "lang": code,
                "questions": n,
                "empty_questions": sum(1 for t in qs if not t),
                "empty_answers": sum(1 for t in ans if not t),
                "negatives": sum(len(q.negatives.get(code, [])) for q in questions),
                "q_words_mean": mean(qw),
                "q_words_sd": stdev(qw) if n > 1 else 0.0,
                "a_words_mean": mean(aw),
                "a_words_sd": stdev(aw) if n > 1 else 0.0,
                "q_chars_mean": mean(len("".join(t.split())) for t in qs),
                "a_chars_mean": mean(len("".join(t.split())) for t in ans),
            }
        )
    return out


# --------------------------------------------------------------------------------------------------------------
# Registry


class XLingHealthOptions(BenchmarkOptions):
    """``-B include_defective=true``: keep the questions with empty cells (LiveQA 58, 67; MedicationQA 212)."""

    include_defective: bool = False


@dataclass(frozen=True)
class XLingHealthBenchmark(Benchmark):
    """One XLingHealth set; verifiability sweeps the paper's five temperatures as consistency does (§4, §5):
    ``xlingeval_protocol``."""

    Options: ClassVar[type[BenchmarkOptions]] = XLingHealthOptions

    dataset: str = ""

    def load(self, request: LoadRequest) -> tuple[list[Item], dict[str, Any]]:
        return load_items(
            self.dataset,
            request.data_dir,
            request.languages,
            include_defective=bool(request.options.get("include_defective", False)),
            limit=request.limit,
        )

    def describe(self, data_dir: str | os.PathLike[str] | None) -> list[dict[str, Any]]:
        return describe(self.dataset, data_dir)

    def describe_title(self) -> str:
        return f"{self.name}: words = whitespace tokens (jieba for zh), empty cell = 0, sd ddof=1"


for _dataset in DATASETS:
    register_benchmark(
        XLingHealthBenchmark(
            name=f"xlinghealth/{_dataset}",
            languages=FILE_LANGUAGES,
            provides=("question", "reference", "negatives"),
            xlingeval_protocol=True,
            default_tasks=("correctness", "verifiability"),
            licence="Apache-2.0",
            description=f"XLingEval: {DATASETS[_dataset].removesuffix('.xlsx')} in en, es, zh, hi (machine-translated)",
            dataset=_dataset,
            # issue 61: the published files XLingEval's authors released (HealthQA's is not public as a file)
            verified={
                "liveqa": "XLingHealth's published LiveQA.xlsx (Apache-2.0; sha256 f26fa965ded2…): 244 questions in "
                "en, es, zh, hi, paired",
                "medicationqa": "XLingHealth's published MedicationQA.xlsx (Apache-2.0; sha256 8c70d8ba0be8…): 689 "
                "questions in en, es, zh, hi, paired",
            }.get(_dataset, ""),
        )
    )
