"""A table's rows as Items: the mapping of our fields to its columns, options in any of their layouts, the gold
answer in any of its formats, and verifiability's negatives. Shared by users' files (``custom``) and Hugging Face
splits (``hf``); errors name the source, the row (1-based data row + 1, as a spreadsheet shows it) and the column."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import pandas as pd
from pydantic import Field, field_validator

from xlingmed.benchmarks.answer_keys import answer_key, column_key, is_placeholder, option_columns
from xlingmed.benchmarks.base import BenchmarkOptions
from xlingmed.benchmarks.odd_rows import RowSkipped, SkipLog
from xlingmed.benchmarks.option_cells import cell_choices, options_cell
from xlingmed.errors import ConfigError, DataError
from xlingmed.languages import CANONICAL_LETTERS, get_language
from xlingmed.parsing.options import parse_options
from xlingmed.types import Choice, Item

FIELDS = ("item_id", "lang", "question", "options", "answer", "reference", "negatives", "category")
FIELD_DEFAULTS: dict[str, tuple[str, ...]] = {
    "item_id": ("item_id", "id", "qid", "question_id", "question_number"),
    "lang": ("lang", "language", "language_code"),
    "question": ("question", "prompt", "stem", "query"),
    "options": ("options", "choices"),
    "answer": ("answer", "gold", "label", "answer_idx", "correct_answer", "target", "answer_key"),
    "reference": ("reference", "answer", "gold_answer", "expert_answer", "response"),
    "negatives": ("negatives", "negative_answers"),
    "category": ("category", "subject", "specialty", "topic", "medical_specialty"),
}
ANSWER_FORMATS = ("auto", "letter", "index0", "index1", "text")
N_NEGATIVES = 4  # XLingHealth LiveQA/MedicationQA: 1 positive + 4 negatives per question


def frame_fingerprint(df: pd.DataFrame) -> str:
    """The SHA-256 of a table's rows as JSON records: the data's identity in the provenance when there is no one
    file to hash (a dataset read through ``datasets``)."""
    return hashlib.sha256(df.to_json(orient="records", force_ascii=False).encode("utf-8")).hexdigest()


def cell_value(value: Any) -> Any:
    """A cell with pandas' missing values as ``""``."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return ""
    return value


def resolve_columns(df: pd.DataFrame, kind: str, mapping: dict[str, str], path: Path) -> dict[str, str | None]:
    """Our field → the file's column (``None`` = absent). A column named in ``mapping`` must exist."""
    unknown = [f for f in mapping if f not in FIELDS]
    if unknown:
        raise ConfigError(f"--columns: unknown field(s) {unknown}; fields: {', '.join(FIELDS)}")
    out: dict[str, str | None] = {}
    for field in FIELDS:
        if field in mapping:
            if mapping[field] not in df.columns:
                raise DataError(
                    f"no column {mapping[field]!r} (mapped to {field}); columns: {list(df.columns)}", file=str(path)
                )
            out[field] = mapping[field]
            continue
        names = FIELD_DEFAULTS[field]
        if kind == "mcq" and field == "reference":
            names = ()
        if kind == "qa" and field == "answer":
            names = ()
        # as published: any case, space or "_" ("Question", "Correct Answer", "Question Number")
        by_key = {column_key(c): str(c) for c in reversed(list(df.columns))}
        found = (by_key.get(column_key(n)) for n in names)
        out[field] = next((c for c in found if c is not None and c not in out.values()), None)
    required = ("question", "answer") if kind == "mcq" else ("question", "reference")
    for field in required:
        if out[field] is None:
            raise DataError(
                f"no {field} column (tried {', '.join(FIELD_DEFAULTS[field])}); map one with --columns {field}=NAME",
                file=str(path),
            )
    return out


class _Row(Mapping[str, Any]):
    """Row ``k`` of a table held as ``{column: values}``, read as a mapping (no dict built per row)."""

    __slots__ = ("_k", "_table")

    def __init__(self, table: dict[str, list[Any]], k: int) -> None:
        self._table, self._k = table, k

    def __getitem__(self, column: str) -> Any:
        return self._table[column][self._k]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table)

    def __len__(self) -> int:
        return len(self._table)


def items_from_frame(
    df: pd.DataFrame,
    *,
    name: str,
    kind: str,
    path: Path,
    sha256: str,
    languages: Sequence[str],
    columns: dict[str, str] | None = None,
    answer_format: str = "auto",
    limit: int | None = None,
    seed: int = 0,
    strict: bool = False,
) -> tuple[list[Item], dict[str, Any]]:
    """The rows of a table (a user's file, a Hugging Face split) as Items; see ``load_items`` for the fields.

    Args:
        df: one row per question and language.
        name: the benchmark name recorded in each Item.
        kind: ``mcq`` or ``qa``.
        path: where the rows came from, named in every error and in the provenance.
        sha256: the content hash recorded in the provenance.

    Raises:
        ConfigError, DataError: bad mapping, row or cell (source, row and column named).
    """
    if answer_format not in ANSWER_FORMATS:
        raise ConfigError(f"unknown answer format {answer_format!r}; known: {', '.join(ANSWER_FORMATS)}")
    mapping = dict(columns or {})
    # "options=Option A|Option B|…": one column per option, named as published
    named = [c.strip() for c in mapping.pop("options").split("|")] if "|" in mapping.get("options", "") else []
    cols = resolve_columns(df, kind, mapping, path)
    option_cols = option_columns(df, path, named) if kind == "mcq" and cols["options"] is None else []
    skips = SkipLog(strict=strict)
    rows, skipped_lang = _table_rows(df, cols, languages, path)
    ref_col = cols["reference"] or ""
    # every question's reference, before --limit: negatives are drawn from the whole file, so the claims a
    # question is verified against do not change with --limit
    references = {(i, lang): str(cell_value(rec[ref_col])).strip() for i, lang, rec, _ in rows} if kind == "qa" else {}
    rows, ids, all_ids = _limited(rows, limit)
    items: list[Item] = []
    position = {i: n for n, i in enumerate(ids)}
    for item_id, lang, rec, row in sorted(rows, key=lambda r: (position[r[0]], languages.index(r[1]))):
        try:
            item = _item(name, item_id, lang, rec, row, kind, cols, option_cols, answer_format, path, references,
                         all_ids, seed)  # fmt: skip
        except RowSkipped as exc:  # one odd row never stops a set: counted by reason (issue 61)
            skips.add(lang, exc, file=str(path), row=row)
            continue
        items.append(item)
    if not items and skips.examples:
        raise _all_odd(skips, path)
    provenance = {
        "file": str(path), "sha256": sha256, "kind": kind, "columns": {k: v for k, v in cols.items() if v is not None},
        "option_columns": [c for _, c in option_cols], "rows_in_file": len(df),
        "rows_skipped_other_language": skipped_lang, "questions_used": len(ids),
        "flagged_items": {f"{it.item_id}/{it.lang}": it.meta["flags"] for it in items if it.meta["flags"]},
        "skipped": skips.by_language(), "skipped_rows": skips.examples,
    }  # fmt: skip
    return items, provenance


def _all_odd(skips: SkipLog, path: Path) -> DataError:
    """The error where every row is odd: it names the first, as --strict-data would."""
    first = skips.examples[0]
    return DataError(f"no row can be an item: {sum(sum(c.values()) for c in skips.counts.values())} skipped, the "
                     f"first: {first['message']} ({first['reason']})", file=str(path), row=first["row"],
                     column=first["column"])  # fmt: skip


def _limited(rows: list[_TableRow], limit: int | None) -> tuple[list[_TableRow], list[str], list[str]]:
    """The rows of the first ``limit`` questions, those questions' ids, and every question's id (file order)."""
    ids = list(dict.fromkeys(i for i, _, _, _ in rows))
    all_ids = list(ids)
    if limit is not None:
        keep = set(ids[:limit])
        rows = [r for r in rows if r[0] in keep]
        ids = ids[:limit]
    return rows, ids, all_ids


_TableRow = tuple[str, str, Mapping[str, Any], int]  # (item id, language, row, spreadsheet row)


def _table_rows(
    df: pd.DataFrame, cols: dict[str, str | None], languages: Sequence[str], path: Path
) -> tuple[list[tuple[str, str, Mapping[str, Any], int]], int]:
    """(item id, language, row, spreadsheet row) of every row in ``languages``, ids and languages checked, and
    the number of rows in other languages."""
    default_lang = languages[0]
    rows: list[tuple[str, str, Mapping[str, Any], int]] = []
    seen: set[tuple[str, str]] = set()
    skipped_lang = 0
    # the table column by column, and one row's dict at a time: a dict per row for the whole file at once was most
    # of the loader's peak at 10⁵ questions (bench/scale.py)
    table = {str(c): df[c].tolist() for c in df.columns}
    for k in range(len(df)):
        rec: Mapping[str, Any] = _Row(table, k)
        row = k + 2
        lang = str(cell_value(rec[cols["lang"]])).strip().lower() if cols["lang"] else default_lang
        if cols["lang"]:
            try:
                get_language(lang)
            except ConfigError as exc:
                raise DataError(str(exc), file=str(path), row=row, column=cols["lang"]) from None
        if lang not in languages:
            skipped_lang += 1
            continue
        item_id = str(cell_value(rec[cols["item_id"]])).strip() if cols["item_id"] else f"{path.stem}-{k:04d}"
        if not item_id:
            raise DataError("empty item id", file=str(path), row=row, column=cols["item_id"])
        if (item_id, lang) in seen:
            raise DataError(
                f"duplicate item id {item_id!r} in language {lang}", file=str(path), row=row, column=cols["item_id"]
            )
        seen.add((item_id, lang))
        rows.append((item_id, lang, rec, row))
    return rows, skipped_lang


def _item(
    name: str,
    item_id: str,
    lang: str,
    rec: Mapping[str, Any],
    row: int,
    kind: str,
    cols: dict[str, str | None],
    option_cols: list[tuple[str, str]],
    answer_format: str,
    path: Path,
    references: dict[tuple[str, str], str],
    all_ids: list[str],
    seed: int,
) -> Item:
    """Row ``row`` as an Item. Raises ``RowSkipped`` where it cannot be one, ``DataError`` on a malformed cell."""
    question = str(cell_value(rec[cols["question"] or ""]))
    if not question.strip():
        raise RowSkipped("empty_question", "empty question", column=cols["question"])
    meta: dict[str, Any] = {"source_file": path.name, "row": row, "flags": []}
    if cols["category"]:
        meta["category"] = str(cell_value(rec[cols["category"]])).strip() or None
    if kind == "mcq":
        return _mcq_item(name, item_id, lang, question, rec, cols, option_cols, answer_format, path, row, meta)
    reference = references[(item_id, lang)]
    if not reference or is_placeholder(reference):  # "N:A" (AfriMed-QA's stray rationale) is no reference
        raise RowSkipped("empty_reference", "empty reference answer", column=cols["reference"])
    negatives: list[str]
    if cols["negatives"] and str(cell_value(rec[cols["negatives"]])).strip():
        parsed = cell_choices(rec[cols["negatives"]])
        if not isinstance(parsed, list):
            raise DataError(
                "negatives must be a JSON list of answers", file=str(path), row=row, column=cols["negatives"]
            )
        negatives = [n for n in parsed if n.strip()]
    else:  # other questions' answers in the same language; the same ids in every language (paired)
        pool = [i for i in all_ids if i != item_id and references.get((i, lang))]
        picked = random.Random(f"{seed}:{item_id}").sample(pool, min(N_NEGATIVES, len(pool)))
        negatives = [references[(i, lang)] for i in picked]
        meta["negatives_from"] = picked
    return Item(
        item_id=item_id,
        benchmark=name,
        lang=lang,
        question=question,
        reference=reference,
        negatives=tuple(negatives),
        meta=meta,
    )


def _mcq_item(
    name: str,
    item_id: str,
    lang: str,
    question: str,
    rec: Mapping[str, Any],
    cols: dict[str, str | None],
    option_cols: list[tuple[str, str]],
    answer_format: str,
    path: Path,
    row: int,
    meta: dict[str, Any],
) -> Item:
    choices, stem, unused = _row_choices(question, rec, cols, option_cols, meta)
    # options from their own column(s) are not in the question text: the prompt lays them out (``structured``)
    meta["options_embedded"] = not (cols["options"] or option_cols)
    if len(choices) < 2:
        raise RowSkipped("no_options" if not choices else "one_option", f"{len(choices)} option(s)")
    alike = [" ".join(c.text.split()).casefold() for c in choices]
    if len(set(alike)) < len(alike):  # two options alike (CareQA "Measles." twice): kept, flagged, never merged
        meta["flags"].append("duplicate_option_text")
    try:
        gold = answer_key(cell_value(rec[cols["answer"] or ""]), choices, answer_format, unused)
    except RowSkipped as exc:
        exc.column = exc.column or cols["answer"]
        raise
    meta["stem"] = stem
    return Item(
        item_id=item_id, benchmark=name, lang=lang, question=question, reference=gold, choices=choices,
        gold_label=gold, meta=meta,
    )  # fmt: skip


def _row_choices(
    question: str, rec: Mapping[str, Any], cols: dict[str, str | None], option_cols: list[tuple[str, str]],
    meta: dict[str, Any],
) -> tuple[tuple[Choice, ...], str, list[str]]:  # fmt: skip
    """A row's options (from an options cell, one column per option, or the question text), the stem, and the
    labels left out as empty or placeholders."""
    unused: list[str] = []  # labels whose slot is empty or a placeholder ("N/A", "-"): never shown to the model
    if cols["options"]:
        raw = cell_choices(rec[cols["options"]])
        if isinstance(raw, list | dict) and len(raw) > len(CANONICAL_LETTERS):
            raise RowSkipped("too_many_options", f"{len(raw)} options; at most {len(CANONICAL_LETTERS)} (A–J) are read",
                             column=cols["options"])  # fmt: skip
        parsed_cell = options_cell(rec[cols["options"]])
        if not parsed_cell:
            raise RowSkipped("options_unreadable", "options are not a list, a mapping or 'A. …' lines",
                             column=cols["options"])  # fmt: skip
        unused = [c.label for c in parsed_cell if is_placeholder(c.text)]
        choices = tuple(c for c in parsed_cell if c.label not in unused)
        stem = question.strip()
    elif option_cols:
        texts = [(label, c, rec[c]) for label, c in option_cols]
        unused = [label for label, _, t in texts if is_placeholder(t)]
        # columns named 1, 2, 3… are options printed with those numbers (the prompt shows them so)
        choices = tuple(Choice(label, c if c.isdigit() else label, str(t).strip()) for label, c, t in texts
                        if label not in unused)  # fmt: skip
        stem = question.strip()
    else:  # embedded in the question, MedArabiQ style
        parsed = parse_options(question)
        if not parsed.choices:
            raise RowSkipped("no_options", "no options: no options column, no A/B/… columns, none in the question text",
                             column=cols["question"])  # fmt: skip
        choices, stem = parsed.choices, parsed.stem
        meta["flags"] += list(parsed.flags)
    return choices, stem, unused


def parse_columns(v: Any) -> dict[str, str]:
    """``field=column[,field=column…]`` (or a mapping) → ``{field: column}``.

    Raises:
        ValueError: a pair without ``=`` or with an empty side.
    """
    if isinstance(v, str):
        pairs = [p.split("=", 1) for p in v.split(",") if p.strip()]
        if any(len(p) != 2 or not p[0].strip() or not p[1].strip() for p in pairs):
            raise ValueError(f"expected field=column[,field=column…], got {v!r}")
        return {k.strip(): c.strip() for k, c in pairs}
    return dict(v or {})


class TableOptions(BenchmarkOptions):
    """``-B`` options of a table of rows (a user's file, ``hf:``): ``columns`` (field → column name, or
    ``field=column,…``; ``options=Option A|Option B|…`` names one column per option), ``answer_format`` of the
    gold answers, and ``strict_data`` (a row that cannot be an item is an error, not skipped: ``odd_rows``)."""

    columns: dict[str, str] = Field(default_factory=dict)
    answer_format: Literal["auto", "letter", "index0", "index1", "text"] = "auto"
    strict_data: bool = False

    @field_validator("columns", mode="before")
    @classmethod
    def _columns(cls, v: Any) -> dict[str, str]:
        return parse_columns(v)
