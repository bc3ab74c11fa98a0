"""Reading translated benchmark files for a translation-rating set (``annotate.translations``): each row with
its source row, the texts of the rated fields and the quality-estimation context columns, every bad cell named."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xlingmed.benchmarks.rows import cell_value
from xlingmed.benchmarks.tables import read_table
from xlingmed.errors import ConfigError, DataError
from xlingmed.languages import get_language

REQUIRED_COLUMNS = ("item_id", "lang", "question", "source_lang", "translator")
CONTEXT_COLUMNS = ("qe_chrf", "qe_bertscore", "flagged", "flag_reason")


@dataclass
class TranslatedRow:
    """One row of a translated file: a source row (no translator) or a translation of one."""

    file: Path
    row: int  # as a spreadsheet shows it: header = 1
    item_id: str
    lang: str
    source_lang: str
    translator: str
    texts: dict[str, str]
    context: dict[str, Any] = field(default_factory=dict)


def _text(value: Any) -> str:
    return str(cell_value(value)).strip()


def read_rows(path: Path, fields: Sequence[str]) -> list[TranslatedRow]:
    """Every row of a translated benchmark file with the texts of ``fields``, each cell checked (``DataError``
    naming file, row and column)."""
    table = read_table(path)
    missing = [c for c in (*REQUIRED_COLUMNS, *fields) if c not in table.columns]
    if missing:
        raise DataError(
            f"missing column(s) {', '.join(dict.fromkeys(missing))} (a translated file from `xlingmed translate`)",
            file=str(path),
        )
    records: list[dict[str, Any]] = [{str(c): v for c, v in r.items()} for r in table.to_dict(orient="records")]
    out = []
    for k, rec in enumerate(records):
        row = k + 2
        item_id, lang = _text(rec["item_id"]), _text(rec["lang"]).lower()
        source_lang, translator = _text(rec["source_lang"]).lower(), _text(rec["translator"])
        if not item_id:
            raise DataError("empty item id", file=str(path), row=row, column="item_id")
        for column, code in (("lang", lang), ("source_lang", source_lang)):
            if code or column == "lang":
                try:
                    get_language(code)
                except ConfigError as exc:
                    raise DataError(str(exc), file=str(path), row=row, column=column) from None
        if translator and not source_lang:
            raise DataError(
                f"translated by {translator!r} but no source language", file=str(path), row=row, column="source_lang"
            )
        if source_lang and not translator:
            raise DataError(
                f"translated from {source_lang} but no translator", file=str(path), row=row, column="translator"
            )
        if source_lang == lang:
            raise DataError(f"translated from {lang} into {lang}", file=str(path), row=row, column="source_lang")
        texts = {f: _options_text(rec[f], path, row) if f == "options" else str(cell_value(rec[f])) for f in fields}
        if not translator:
            for f, text in texts.items():
                if not text.strip():
                    raise DataError(f"empty {f} in a source row", file=str(path), row=row, column=f)
        context = {c: _context(c, rec[c]) for c in CONTEXT_COLUMNS if c in rec}
        out.append(TranslatedRow(path, row, item_id, lang, source_lang, translator, texts, context))
    return out


def _options_text(raw: Any, path: Path, row: int) -> str:
    """A JSON object letter → text (or a list, lettered A, B…) as ``A. text`` lines; ``""`` for an empty cell."""
    value = cell_value(raw)
    if isinstance(value, str):
        if not value.strip():
            return ""
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            raise DataError(
                "options must be a JSON object (letter → option text)", file=str(path), row=row, column="options"
            ) from None
    if isinstance(value, (list, tuple)) or hasattr(value, "tolist"):
        value = {chr(ord("A") + i): v for i, v in enumerate(value.tolist() if hasattr(value, "tolist") else value)}
    if not isinstance(value, dict):
        raise DataError(
            "options must be a JSON object (letter → option text)", file=str(path), row=row, column="options"
        )
    return "\n".join(f"{str(k).strip()}. {str(cell_value(v)).strip()}" for k, v in value.items())


def _context(column: str, raw: Any) -> Any:
    value = cell_value(raw)
    if value == "":
        return None
    if column == "flagged":
        return str(value).strip().lower() in ("true", "1", "yes")
    if column.startswith("qe_"):
        try:
            return float(value)
        except (TypeError, ValueError):
            return None
    return str(value)


def pair_rows(
    rows: Sequence[TranslatedRow], fields: Sequence[str]
) -> tuple[dict[tuple[str, str], TranslatedRow], dict[tuple[str, str, str], TranslatedRow]]:
    """(item_id, lang) → source row and (item_id, lang, translator) → translated row, checked: no duplicate, no
    translation without its source."""
    sources: dict[tuple[str, str], TranslatedRow] = {}
    translations: dict[tuple[str, str, str], TranslatedRow] = {}
    for r in rows:
        if not r.translator:
            seen = sources.get((r.item_id, r.lang))
            if seen is None:
                sources[(r.item_id, r.lang)] = r
            elif seen.file == r.file:
                raise DataError(
                    f"item {r.item_id!r} has two source rows in {r.lang} (also row {seen.row})",
                    file=str(r.file), row=r.row, column="item_id",
                )  # fmt: skip
            else:
                differs = [f for f in fields if seen.texts[f].strip() != r.texts[f].strip()]
                if differs:
                    raise DataError(
                        f"the source {differs[0]} of item {r.item_id!r} in {r.lang} differs from file {seen.file} "
                        f"row {seen.row}: the engines translated different texts",
                        file=str(r.file), row=r.row, column=differs[0],
                    )  # fmt: skip
            continue
        key = (r.item_id, r.lang, r.translator)
        if key in translations:
            seen_t = translations[key]
            raise DataError(
                f"item {r.item_id!r} translated into {r.lang} by {r.translator} twice: also in file {seen_t.file} "
                f"row {seen_t.row}",
                file=str(r.file), row=r.row, column="item_id",
            )  # fmt: skip
        translations[key] = r
    for r in translations.values():
        if (r.item_id, r.source_lang) not in sources:
            raise DataError(
                f"no source row for item {r.item_id!r} in {r.source_lang} (a row with lang {r.source_lang} and an "
                "empty translator, in any of the files given)",
                file=str(r.file), row=r.row, column="source_lang",
            )  # fmt: skip
    return sources, translations
