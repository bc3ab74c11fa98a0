"""Errors a user can act on. The CLI prints their message and exits non-zero, without a traceback."""

from __future__ import annotations


class XlingmedError(Exception):
    """Base class of every error that is the user's input, not a bug."""


class ConfigError(XlingmedError):
    """A bad option or configuration field (the message names it)."""


class DataError(XlingmedError):
    """A data file that does not have the expected format.

    The message names the file and, where they are known, the sheet, the row (1-based, as a spreadsheet
    shows it, header = row 1) and the column.
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        sheet: str | None = None,
        row: int | None = None,
        column: str | None = None,
    ) -> None:
        self.message, self.file, self.sheet, self.row, self.column = message, file, sheet, row, column
        where = []
        if file is not None:
            where.append(f"file {file}")
        if sheet is not None:
            where.append(f"sheet {sheet!r}")
        if row is not None:
            where.append(f"row {row}")
        if column is not None:
            where.append(f"column {column!r}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)


class DataNotFoundError(XlingmedError):
    """The data files are not where we looked and could not be downloaded."""


class ModelError(XlingmedError):
    """A model name that no backend knows, or a backend that cannot start."""


class BudgetExhausted(XlingmedError):
    """``--max-requests`` or ``--max-cost`` reached: the run stopped cleanly, every answer so far is cached, and
    the same command (with a larger budget) resumes it. Nothing is written to the run folder."""
