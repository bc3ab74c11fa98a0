"""A table's rows as Items: the mapping of our fields to its columns, options in any of their layouts, the gold
answer in any of its formats, and verifiability's negatives. Shared by users' files (``custom``) and Hugging Face
splits (``hf``); errors name the source, the row (1-based data row + 1, as a spreadsheet shows it) and the column."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import pandas as pd
from pydantic import Field, field_validator

from xlingmed.benchmarks.base import BenchmarkOptions
from xlingmed.errors import ConfigError, DataError
from xlingmed.languages import CANONICAL_LETTERS, get_language, normalise_label
from xlingmed.parsing.options import clean_mc_text, parse_options
from xlingmed.parsing.several import join_labels
from xlingmed.types import Choice, Item

FIELDS = ("item_id", "lang", "question", "options", "answer", "reference", "negatives", "category")
FIELD_DEFAULTS: dict[str, tuple[str, ...]] = {
    "item_id": ("item_id", "id", "qid", "question_id"),
    "lang": ("lang", "language", "language_code"),
    "question": ("question", "prompt", "stem", "query"),
    "options": ("options", "choices"),
    "answer": ("answer", "gold", "label", "answer_idx", "correct_answer", "target"),
    "reference": ("reference", "answer", "gold_answer", "expert_answer", "response"),
    "negatives": ("negatives", "negative_answers"),
    "category": ("category", "subject", "specialty", "topic"),
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
        out[field] = next((c for c in names if c in df.columns and c not in out.values()), None)
    required = ("question", "answer") if kind == "mcq" else ("question", "reference")
    for field in required:
        if out[field] is None:
            raise DataError(
                f"no {field} column (tried {', '.join(FIELD_DEFAULTS[field])}); map one with --columns {field}=NAME",
                file=str(path),
            )
    return out


def _option_columns(df: pd.DataFrame, path: Path) -> list[tuple[str, str]]:
    """(label, column) for one column per option: ``A``… or ``option_a``… / ``opa``…, contiguous from A."""
    out = []
    for k, label in enumerate(CANONICAL_LETTERS, 1):
        names = (label, label.lower(), f"option_{label.lower()}", f"option{label}", f"op{label.lower()}", str(k))
        for name in names:
            if name in df.columns:
                out.append((label, name))
                break
        else:
            break
    if len(out) == len(CANONICAL_LETTERS) and any(c in df.columns for c in ("K", "k", "option_k", "optionK", "opk")):
        raise DataError(f"more than {len(CANONICAL_LETTERS)} option columns (A–J are read; K… would be dropped)",
                        file=str(path))
    return out


def _choices(raw: Any) -> list[str] | dict[str, str] | None:
    if isinstance(raw, (list, tuple)) or hasattr(raw, "tolist"):
        return [str(x) for x in (raw.tolist() if hasattr(raw, "tolist") else raw)]
    if isinstance(raw, dict):
        return {str(k): str(v) for k, v in raw.items()}
    text = str(raw).strip()
    if text.startswith(("[", "{")):
        try:
            parsed = json.loads(text)
        except json.JSONDecodeError:
            return None
        return _choices(parsed)
    return None


def _parse_optionscell_value(raw: Any) -> tuple[Choice, ...] | None:
    parsed = _choices(raw)
    if isinstance(parsed, list):
        return tuple(Choice(CANONICAL_LETTERS[i], CANONICAL_LETTERS[i], t.strip()) for i, t in enumerate(parsed))
    if isinstance(parsed, dict):
        out = []
        for key, text in parsed.items():
            label = normalise_label(key)
            if label is None:
                return None
            out.append(Choice(label, key, text.strip()))
        return tuple(sorted(out, key=lambda c: c.label))
    choices = parse_options("\n" + str(raw)).choices  # "A. …" lines, no stem
    return choices or None


def _gold(answer: Any, choices: Sequence[Choice], fmt: str) -> str | None:
    text = str(answer).strip()
    labels = [c.label for c in choices]
    if fmt in ("index0", "index1"):
        try:
            number = float(text)
            if not number.is_integer():
                return None  # "1.5", "inf", "nan": no option's index
            k = int(number) - (1 if fmt == "index1" else 0)
        except (ValueError, OverflowError):
            return None
        return labels[k] if 0 <= k < len(labels) else None
    if fmt in ("auto", "letter") and "," in text:  # several right options ("A,C"): the set, as join_labels writes it
        several = [normalise_label(x.strip()) for x in text.split(",") if x.strip()]
        if len(set(several)) > 1 and all(x in labels for x in several):
            return join_labels([x for x in several if x is not None])
    if fmt in ("auto", "letter"):
        m = clean_mc_text(text)
        head = m.split(".")[0].split(")")[0].split(":")[0].strip()
        numbered = [c.label for c in choices if not c.raw_label.isalpha() and c.raw_label.strip() == head]
        if numbered:  # the options were printed with numbers ("1. …", "① …"): "3" is the third, as printed
            return numbered[0]
        label = normalise_label(head) if not head.isdigit() else None
        if label in labels:
            return label
        if fmt == "letter":
            return None
    matches = [c.label for c in choices if " ".join(c.text.split()).casefold() == " ".join(text.split()).casefold()]
    return matches[0] if len(matches) == 1 else None


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
    cols = resolve_columns(df, kind, dict(columns or {}), path)
    option_cols = _option_columns(df, path) if kind == "mcq" and cols["options"] is None else []
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
    ids = list(dict.fromkeys(i for i, _, _, _ in rows))
    all_ids = list(ids)
    ref_col = cols["reference"] or ""
    # every question's reference, before --limit: negatives are drawn from the whole file, so the claims a
    # question is verified against do not change with --limit
    references = {(i, lang): str(cell_value(rec[ref_col])).strip() for i, lang, rec, _ in rows} if kind == "qa" else {}
    if limit is not None:
        keep = set(ids[:limit])
        rows = [r for r in rows if r[0] in keep]
        ids = ids[:limit]
    items: list[Item] = []
    position = {i: n for n, i in enumerate(ids)}
    source_file = path.name  # one string shared by every item's meta
    for item_id, lang, rec, row in sorted(rows, key=lambda r: (position[r[0]], languages.index(r[1]))):
        question = str(cell_value(rec[cols["question"] or ""]))
        if not question.strip():
            raise DataError("empty question", file=str(path), row=row, column=cols["question"])
        meta: dict[str, Any] = {"source_file": source_file, "row": row, "flags": []}
        if cols["category"]:
            meta["category"] = str(cell_value(rec[cols["category"]])).strip() or None
        if kind == "mcq":
            items.append(
                _mcq_item(name, item_id, lang, question, rec, cols, option_cols, answer_format, path, row, meta)
            )
            continue
        reference = references[(item_id, lang)]
        if not reference:
            raise DataError("empty reference answer", file=str(path), row=row, column=cols["reference"])
        negatives: list[str]
        if cols["negatives"] and str(cell_value(rec[cols["negatives"]])).strip():
            parsed = _choices(rec[cols["negatives"]])
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
        items.append(
            Item(
                item_id=item_id,
                benchmark=name,
                lang=lang,
                question=question,
                reference=reference,
                negatives=tuple(negatives),
                meta=meta,
            )
        )
    provenance = {
        "file": str(path),
        "sha256": sha256,
        "kind": kind,
        "columns": {k: v for k, v in cols.items() if v is not None},
        "option_columns": [c for _, c in option_cols],
        "rows_in_file": len(df),
        "rows_skipped_other_language": skipped_lang,
        "questions_used": len(ids),
        "flagged_items": {f"{it.item_id}/{it.lang}": it.meta["flags"] for it in items if it.meta["flags"]},
    }
    return items, provenance


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
    if cols["options"]:
        raw = _choices(rec[cols["options"]])
        if isinstance(raw, list | dict) and len(raw) > len(CANONICAL_LETTERS):
            raise DataError(f"{len(raw)} options; at most {len(CANONICAL_LETTERS)} (A–J) are read", file=str(path),
                            row=row, column=cols["options"])  # fmt: skip
        choices = _parse_optionscell_value(rec[cols["options"]])
        if not choices:
            raise DataError(
                "options are not a list, a mapping or 'A. …' lines", file=str(path), row=row, column=cols["options"]
            )
        stem = question.strip()
    elif option_cols:
        texts = [(label, c, str(cell_value(rec[c])).strip()) for label, c in option_cols]
        # columns named 1, 2, 3… are options printed with those numbers (the prompt shows them so)
        choices = tuple(Choice(label, c if c.isdigit() else label, t) for label, c, t in texts if t)
        stem = question.strip()
    else:  # embedded in the question, MedArabiQ style
        parsed = parse_options(question)
        if not parsed.choices:
            raise DataError(
                "no options: no options column, no A/B/… columns, none in the question text",
                file=str(path),
                row=row,
                column=cols["question"],
            )
        choices, stem = parsed.choices, parsed.stem
        meta["flags"] += list(parsed.flags)
    # options from their own column(s) are not in the question text: the prompt lays them out (``structured``)
    meta["options_embedded"] = not (cols["options"] or option_cols)
    if len(choices) < 2:
        raise DataError("fewer than two options", file=str(path), row=row)
    gold = _gold(cell_value(rec[cols["answer"] or ""]), choices, answer_format)
    if gold is None:
        raise DataError(
            f"answer {str(cell_value(rec[cols['answer'] or '']))[:40]!r} is not one of the options ({answer_format})",
            file=str(path),
            row=row,
            column=cols["answer"],
        )
    meta["stem"] = stem
    return Item(
        item_id=item_id,
        benchmark=name,
        lang=lang,
        question=question,
        reference=gold,
        choices=choices,
        gold_label=gold,
        meta=meta,
    )


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
    ``field=column,…``) and ``answer_format`` of the gold answers."""

    columns: dict[str, str] = Field(default_factory=dict)
    answer_format: Literal["auto", "letter", "index0", "index1", "text"] = "auto"

    @field_validator("columns", mode="before")
    @classmethod
    def _columns(cls, v: Any) -> dict[str, str]:
        return parse_columns(v)
