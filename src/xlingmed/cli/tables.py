"""Tables for pipes and programs: ``--format text|tsv|json`` of the commands that print tables.

``text`` is rich's table (on a terminal, fitted to its width; off one, whole rows at their natural width: see
``common._Console``). ``tsv`` is one header line and one line per row, tab-separated, a table's title before it
as a ``# title`` line and a blank line between tables (``pandas.read_csv(sep="\\t", comment="#")`` reads it).
``json`` is one JSON object per table and line (JSON Lines): ``{"title", "columns", "rows": [{column: value}]}``,
a cell that is a plain number given as a number. In both, prose goes to stderr, so stdout holds only the data.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal

import typer
from rich.table import Table
from rich.text import Text

from xlingmed.cells import safe

Format = Literal["text", "tsv", "json"]
FORMATS: tuple[str, ...] = ("text", "tsv", "json")
FORMAT_HELP = "text (a table) | tsv (tab-separated, for cut and spreadsheets) | json (JSON Lines, one per table)."

FormatOption = Annotated[str, typer.Option("--format", help=FORMAT_HELP)]

_NUMBER = re.compile(r"[+-]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?([eE][+-]?\d+)?")


def plain(cell: Any) -> str:
    """A cell's text without rich's markup."""
    if isinstance(cell, Text):
        return cell.plain
    return Text.from_markup(str(cell)).plain if isinstance(cell, str) else str(cell)


def table_data(table: Table) -> tuple[str | None, list[str], list[list[str]]]:
    """(title, column headers, rows of plain cells) of a rich ``Table``."""
    columns = [plain(c.header) for c in table.columns]
    cells = [[plain(x) for x in c._cells] for c in table.columns]
    rows = [[col[i] for col in cells] for i in range(table.row_count)]
    title = None if table.title is None else plain(table.title)
    return title, columns, rows


def _value(cell: str) -> Any:
    """A plain number as a number (thousands separators dropped), anything else the text itself; "" and "–"
    (a missing value) are null."""
    if cell in ("", "–", "-"):
        return None
    if _NUMBER.fullmatch(cell):
        number = float(cell.replace(",", ""))
        return int(number) if number.is_integer() and "." not in cell and "e" not in cell.lower() else number
    return cell


def as_tsv(table: Table) -> str:
    """The table as TSV (tabs and newlines inside a cell become spaces), its title first as ``# title``. A text
    cell that a spreadsheet would run as a formula (``=…``, ``+…``, ``-…``, ``@…``) or that begins with ``'`` gets
    a leading ``'`` (``cells.safe``; issue 49); numbers (``-0.05``, ``+3%``) and ``-`` are left as they are.
    ``--format json`` keeps every text raw."""
    title, columns, rows = table_data(table)
    clean = [[_cell(re.sub(r"[\t\r\n]+", " ", c)) for c in row] for row in [columns, *rows]]
    lines = ([f"# {title}"] if title else []) + ["\t".join(row) for row in clean]
    return "\n".join(lines)


def _cell(text: str) -> str:
    if text in ("-", "–") or _NUMBER.fullmatch(text.removesuffix("%")):
        return text
    return str(safe(text))


def as_json(table: Table) -> str:
    """The table as one JSON line: ``{"title", "columns", "rows"}``."""
    title, columns, rows = table_data(table)
    records = [{col: _value(cell) for col, cell in zip(columns, row, strict=True)} for row in rows]
    return json.dumps({"title": title, "columns": columns, "rows": records}, ensure_ascii=False)
