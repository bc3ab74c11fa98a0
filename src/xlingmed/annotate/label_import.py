"""``xlingmed annotate import SET FILE``: human labels collected elsewhere (Label Studio, REDCap, a spreadsheet,
``annotate export``'s own ``answers.csv``) into a judge-check set, stored as the app stores them.

The file is CSV (header row; UTF-8, a byte-order mark allowed) or JSON Lines (one object a line), one label a row:

* the item: ``item_id`` with ``lang`` (and ``unit`` where the set checks parts of an item: HealthBench's criteria,
  a temperature), or ``item``, the set's own item id (``q12:es``, as ``answers.csv`` names it);
* ``annotator``: one of the set's annotators (``--add-annotators``: a new name gets its own token);
* ``label``: one of the task's labels (its key or the name the app shows);
* ``reason`` (optional): the annotator's words.

Column names are matched in any case (``COLUMNS`` lists the other names taken). Every row is checked against the
set before anything is written: an unknown item, an item the set has in other languages only (wrong language), a
label outside the task's scheme, a second label of one annotator on one item (in the file, or a different one
already in the set), an unknown annotator, an empty or overlong cell. Each problem is one line naming the file,
the row (a spreadsheet's: the header is row 1; JSON Lines: the line) and the column; with any, nothing is stored
(``LabelFileError``). A clean file is stored in one transaction (``AnswerStore.save_many``): agree where the label
is the judge's, disagree otherwise, exactly the rows the app writes.

The file comes from others: a plain file under ``XLINGMED_MAX_EXPANDED_BYTES``, lines under
``XLINGMED_MAX_LINE_BYTES``, at most ``XLINGMED_MAX_ROWS`` rows (``caps``), UTF-8 only, cells that a spreadsheet
would run (``=…``) are text like any other (a leading apostrophe that ``cells.safe`` added is removed), ids and
labels compared after Unicode NFC normalisation, and values echoed in messages are escaped and cut short.
"""

from __future__ import annotations

import csv
import json
import secrets
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xlingmed.annotate.answers import MAX_REASON_CHARS, Answer, AnswerStore
from xlingmed.annotate.sample import AnnotationSet, load_judge_set
from xlingmed.caps import cap, capped_lines, check_input_file, over
from xlingmed.cells import restore
from xlingmed.errors import MALFORMED, ConfigError, DataError

COLUMNS = {
    "item_id": ("item_id", "question_id", "id"),
    "item": ("item",),
    "lang": ("lang", "language"),
    "unit": ("unit",),
    "annotator": ("annotator", "annotator_id", "rater", "user"),
    "label": ("label", "choice"),
    "reason": ("reason", "comment", "note"),
}
"""What each field is called in a file (any case, spaces as underscores)."""
MAX_CELL_CHARS = 256  # an id, a language, an annotator or a label; a reason has ``MAX_REASON_CHARS``
SHOWN_ERRORS = 20


class LabelFileError(DataError):
    """Rows of a label file that do not fit the set: ``errors`` holds one ``DataError`` each (file, row, column);
    the message is the first, and how many more there are."""

    def __init__(self, errors: Sequence[DataError]) -> None:
        self.errors = list(errors)
        first = self.errors[0]
        more = f" (and {len(self.errors) - 1} more)" if len(self.errors) > 1 else ""
        super().__init__(first.message + more, file=first.file, row=first.row, column=first.column)


@dataclass(frozen=True)
class Imported:
    """What ``import_labels`` stored: ``stored`` answers (``unchanged`` of them were in the set already, the
    same), per language; the annotators added."""

    stored: int
    unchanged: int
    languages: dict[str, int]
    added_annotators: list[str]


def _shown(value: str) -> str:
    """A value from the file as a message shows it: escaped (``repr``: control and bidi characters as codes), at
    most 60 characters."""
    return repr(value if len(value) <= 60 else value[:57] + "...")


def _norm(value: str) -> str:
    return unicodedata.normalize("NFC", value.strip())


def _header(names: Sequence[str], path: Path, row: int = 1) -> dict[str, str]:
    """Field → the file's column name for it (``row``: where the names are, the header or a JSON line).

    Raises:
        DataError: a column named twice, or no item, annotator or label column.
    """
    found: dict[str, str] = {}
    for name in names:
        key = _norm(str(name)).lower().replace(" ", "_")
        field = next((f for f, aliases in COLUMNS.items() if key in aliases), None)
        if field is None:
            continue
        if field in found:
            raise DataError(f"columns {found[field]!r} and {name!r} both name the {field}", file=str(path), row=row)
        found[field] = str(name)
    missing = [f for f in ("annotator", "label") if f not in found]
    if "item" not in found and "item_id" not in found:
        missing.insert(0, "item_id (with lang) or item")
    if missing:
        raise DataError(f"no column for {', '.join(missing)}; columns: {_shown(', '.join(map(str, names)))}",
                        file=str(path), row=row)  # fmt: skip
    return found


Row = tuple[int, dict[str, str], Mapping[str, Any], str | None]
"""(row number, field → column name, the row by column name, what is wrong with its shape or ``None``)."""


def _rows(path: Path) -> Iterator[Row]:
    """The rows of a CSV (TSV) or JSON Lines file, read under the caps.

    Raises:
        DataError: not a plain file, too large, not UTF-8, a line or field over its cap, a JSON line that is not an
            object, more rows than ``XLINGMED_MAX_ROWS``, no item, annotator or label column, or a suffix that is
            none of these (the file, and the row where one is, named).
    """
    check_input_file(path)
    limit = cap("XLINGMED_MAX_ROWS")
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".ndjson"):
        for n, line in capped_lines(path):
            if not line.strip():
                continue
            if n > limit:
                raise over("XLINGMED_MAX_ROWS", n, "a table of rows", path)
            try:
                row = json.loads(line)
            except MALFORMED as exc:
                raise DataError(f"not JSON ({str(exc)[:120]})", file=str(path), row=n) from None
            if not isinstance(row, dict):
                raise DataError("a line must hold a JSON object", file=str(path), row=n)
            yield n, _header(list(row), path, n), row, None
        return
    if suffix not in (".csv", ".tsv", ".txt"):
        raise DataError("a label file is .csv (or .tsv) or .jsonl", file=str(path))
    # streamed line by line, each under the cap and UTF-8 checked; a quoted cell may span lines
    lines = (line.removeprefix("\ufeff") if n == 1 else line for n, line in capped_lines(path))
    reader = csv.reader(lines, delimiter="\t" if suffix == ".tsv" else ",")
    try:
        header = next(reader, None)
        if header is None:
            raise DataError("the file is empty", file=str(path))
        columns = _header(header, path)
        for n, cells in enumerate(reader, start=2):
            if n > limit + 1:
                raise over("XLINGMED_MAX_ROWS", n - 1, "a table of rows", path)
            if not any(c.strip() for c in cells):
                continue
            shape = None if len(cells) == len(header) else f"{len(cells)} cells under a header of {len(header)}"
            yield n, columns, {h: restore(c) for h, c in zip(header, cells, strict=False)}, shape
    except csv.Error as exc:
        raise DataError(f"not CSV ({exc})", file=str(path), row=reader.line_num) from None


class _Index:
    """The set's items found by id, by (item id, language) and their units, NFC-normalised."""

    def __init__(self, aset: AnnotationSet) -> None:
        self.by_id: dict[str, dict[str, Any]] = {}
        self.by_item: dict[str, dict[str, list[dict[str, Any]]]] = {}
        for it in aset.items:
            self.by_id[_norm(it["id"])] = it
            item_id = str(it.get("item_id") or it["id"].rsplit(":", 1)[0])
            self.by_item.setdefault(_norm(item_id), {}).setdefault(_norm(it["lang"]), []).append(it)

    @staticmethod
    def unit(item: Mapping[str, Any]) -> str:
        """What follows ``item_id:lang:`` in the set's id (``0.5:3`` of ``q1:hi:0.5:3``), else empty."""
        prefix = f"{item.get('item_id')}:{item['lang']}:"
        return str(item["id"])[len(prefix):] if str(item["id"]).startswith(prefix) else ""


def _cell(row: Mapping[str, Any], columns: Mapping[str, str], field: str, problems: list[tuple[str, str]],
          limit: int = MAX_CELL_CHARS) -> str:  # fmt: skip
    """The text of ``field`` in ``row`` ('' where the file has no such column); a problem noted where it is no
    text, or too long."""
    name = columns.get(field)
    if name is None or name not in row or row[name] is None:
        return ""
    value = row[name]
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        problems.append((name, f"a {type(value).__name__} where text belongs"))
        return ""
    text = _norm(str(value))
    if len(text) > limit:
        problems.append((name, f"{len(text):,} characters (at most {limit:,})"))
        return ""
    return text


def _check_row(row: Mapping[str, Any], columns: Mapping[str, str], aset: AnnotationSet, index: _Index,
               extra_annotators: bool) -> tuple[Answer | None, str, str, list[tuple[str, str]]]:  # fmt: skip
    """(the answer, the judge's label of its item, its language, problems as (column, what)) of one row."""
    problems: list[tuple[str, str]] = []
    ident, item_id = _cell(row, columns, "item", problems), _cell(row, columns, "item_id", problems)
    lang, unit = _cell(row, columns, "lang", problems), _cell(row, columns, "unit", problems)
    annotator, label = _cell(row, columns, "annotator", problems), _cell(row, columns, "label", problems)
    reason = _cell(row, columns, "reason", problems, MAX_REASON_CHARS)
    item: dict[str, Any] | None = None
    if ident:
        item = index.by_id.get(ident)
        if item is None and ident in index.by_item:  # an item id in the item column: read as item_id
            item_id, ident = ident, ""
        elif item is None:
            problems.append((columns["item"], f"item {_shown(ident)} is not in the set"))
        elif lang and lang != _norm(item["lang"]):
            problems.append((columns["lang"], f"item {_shown(ident)} is in {item['lang']}, not {_shown(lang)}"))
    if item is None and not ident:
        item = _by_item(item_id, lang, unit, columns, index, problems)
    if not annotator:
        problems.append((columns["annotator"], "empty"))
    elif annotator not in aset.annotators and not (extra_annotators and annotator.isidentifier()):
        hint = "" if extra_annotators else " (--add-annotators adds a name)"
        problems.append((columns["annotator"], f"annotator {_shown(annotator)} is not one of the set's: "
                         f"{', '.join(sorted(aset.annotators))}{hint}"))  # fmt: skip
    names = {_norm(v): k for k, v in aset.settings.get("label_names", {}).items()}
    key = label if label in aset.labels else names.get(label)
    if not label:
        problems.append((columns["label"], "empty"))
    elif key is None:
        problems.append((columns["label"], f"label {_shown(label)} is not in the task's scheme: "
                         f"{', '.join(aset.labels)}"))  # fmt: skip
    if problems or item is None or key is None:
        return None, "", "", problems
    verdict = "agree" if key == item["label"] else "disagree"
    return Answer(annotator, item["id"], verdict, key, reason), str(item["label"]), str(item["lang"]), problems


def _by_item(item_id: str, lang: str, unit: str, columns: Mapping[str, str], index: _Index,
             problems: list[tuple[str, str]]) -> dict[str, Any] | None:  # fmt: skip
    column = columns.get("item_id") or columns.get("item") or "item_id"
    if not item_id:
        problems.append((column, "empty"))
        return None
    langs = index.by_item.get(item_id)
    if langs is None:
        problems.append((column, f"item {_shown(item_id)} is not in the set"))
        return None
    if not lang:
        problems.append((columns.get("lang", "lang"), f"no language (the set has item {_shown(item_id)} in "
                         f"{', '.join(sorted(langs))})"))  # fmt: skip
        return None
    found = langs.get(lang)
    if found is None:
        problems.append((columns.get("lang", "lang"), f"wrong language: the set has item {_shown(item_id)} in "
                         f"{', '.join(sorted(langs))}, not {_shown(lang)}"))  # fmt: skip
        return None
    mine = [it for it in found if _Index.unit(it) == unit] if (unit or len(found) > 1) else found
    if len(mine) != 1:
        units = ", ".join(sorted(_Index.unit(it) or "''" for it in found))
        what = f"unit {_shown(unit)} is not one" if unit else "no unit: the set holds several parts"
        problems.append((columns.get("unit", "unit"), f"{what} of item {_shown(item_id)} in {lang} ({units})"))
        return None
    return mine[0]


def import_labels(set_path: Path, file: Path, *, add_annotators: bool = False,
                  replace: bool = False) -> Imported:  # fmt: skip
    """Check every row of ``file`` against the judge-check set at ``set_path`` and store them all, or none.

    Args:
        set_path: a judge-check set (``annotate sample``).
        file: CSV, TSV or JSON Lines of labels (module doc).
        add_annotators: an annotator the set does not name (a simple name: letters, digits, ``_``) is added to
            ``annotators.json`` with a fresh token; otherwise such a row is an error.
        replace: a label that differs from the one the annotator already gave the item replaces it (as a changed
            answer in the app does); otherwise such a row is an error.

    Returns:
        What was stored (``Imported``).

    Raises:
        LabelFileError: rows that do not fit the set (each with file, row and column); nothing is stored.
        DataError: a file that cannot be read (not a plain file, over a cap, not UTF-8, not CSV or JSON Lines, no
            item, annotator or label column), or a damaged set.
        ConfigError: a translation-rating set.
    """
    aset = load_judge_set(Path(set_path))
    path = Path(file)
    store_path = aset.path / "answers.sqlite"
    before = {(a.annotator, a.item): a for a in AnswerStore.read_all(store_path)}
    rows, errors, answers, languages, unchanged = _check_rows(path, aset, before, add_annotators, replace)
    if not rows:
        raise DataError("no label in the file", file=str(path))
    if errors:
        raise LabelFileError(errors)
    added = sorted({a.annotator for a, _ in answers} - set(aset.annotators))
    if added:
        _add_annotators(aset, added)
    try:
        AnswerStore(store_path).save_many(answers, labels=aset.labels)
    except ConfigError as exc:  # checked above; a store that refuses is a damaged set
        raise DataError(str(exc), file=str(store_path)) from None
    return Imported(len(answers), unchanged, languages, added)


def _check_rows(
    path: Path, aset: AnnotationSet, before: dict[tuple[str, str], Answer], add_annotators: bool, replace: bool
) -> tuple[int, list[DataError], list[tuple[Answer, str]], dict[str, int], int]:
    """Every row of the label file checked against the set and the labels stored ``before``: (rows read, errors,
    the good answers with their judge labels, answers per language, answers that change nothing)."""
    index = _Index(aset)
    errors: list[DataError] = []
    answers: list[tuple[Answer, str]] = []
    seen: dict[tuple[str, str], int] = {}
    languages: dict[str, int] = {}
    unchanged = 0
    rows = 0
    for n, columns, row, shape in _rows(path):
        rows += 1
        if shape is not None:
            errors.append(DataError(shape, file=str(path), row=n))
            continue
        answer, judge_label, lang, problems = _check_row(row, columns, aset, index, add_annotators)
        if answer is not None:
            key = (answer.annotator, answer.item)
            old = before.get(key)
            if key in seen:
                problems.append((columns.get("item") or columns["item_id"], f"duplicate: a second label of "
                                 f"{answer.annotator} on {answer.item} (the first is row {seen[key]})"))  # fmt: skip
            elif old is not None and old.label != answer.label and not replace:
                problems.append((columns["label"], f"duplicate: {answer.annotator} already labelled {answer.item} "
                                 f"{old.label!r} in the set (--replace replaces it)"))  # fmt: skip
            seen.setdefault(key, n)
        errors += [DataError(what, file=str(path), row=n, column=col) for col, what in problems]
        if answer is not None and not problems:
            answers.append((answer, judge_label))
            languages[lang] = languages.get(lang, 0) + 1
            old = before.get((answer.annotator, answer.item))
            unchanged += old is not None and old.label == answer.label and old.reason == answer.reason
    return rows, errors, answers, languages, unchanged


def _add_annotators(aset: AnnotationSet, names: Sequence[str]) -> None:
    """``annotators.json`` with ``names`` added, each with a fresh secret token (owner-only, written whole)."""
    import os

    from xlingmed import output

    tokens = {**aset.annotators, **{name: secrets.token_urlsafe(24) for name in names}}
    target = aset.path / "annotators.json"
    output.write_json(target, tokens)
    os.chmod(target, 0o600)
