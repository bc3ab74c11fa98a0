"""Errors a user can act on. The CLI prints their message and exits non-zero, without a traceback.

Exit statuses of every command (the README lists them): 0 done; 1 a bug (a traceback: please report it);
2 bad input or options (nothing was sent or written); 3 the budget ran out (``--max-requests``/``--max-cost``:
every answer so far is cached, the same command resumes); 4 requests failed beyond ``--fail-on-error`` (the run
folder is written, with the failures counted); 5 the environment failed (disk full, a folder that cannot be
written, a damaged cache: ``EnvironmentFault``); 130 interrupted (Ctrl-C: every answer so far is cached).
"""

from __future__ import annotations

EXIT_BAD_INPUT = 2
EXIT_BUDGET = 3
EXIT_FAILED_REQUESTS = 4
EXIT_ENVIRONMENT = 5
EXIT_INTERRUPTED = 130


# what a malformed file from others makes Python's own parsers raise where no reader check named it: deep nesting,
# a 5,000-digit number, bytes that are not UTF-8, a list where a mapping stands, "²" where a number stands. A reader
# of files from others turns these into one ``DataError`` naming the file (issue 60).
MALFORMED = (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError, OverflowError,
             UnicodeDecodeError)  # fmt: skip


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


class EnvironmentFault(XlingmedError):
    """The machine, not the input: a full disk, a folder that cannot be created or written, a damaged cache or
    one from a newer xlingmed. The message names the file or folder, what was kept and what to do."""
