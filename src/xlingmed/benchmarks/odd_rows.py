"""Rows that cannot be an item: skipped and counted by reason, or, with ``strict_data``, an error (issue 61).

Real published sets hold rows no question can be made of: an answer key that names an empty or "N/A" option
(AfriMed-QA), an answer that is no option's letter or text, a key that accepts either of two options
("AorB", MedAraBench), a question without options. One such row never stops a set of thousands: it is left out,
counted under its reason in ``dataset.skipped`` (the run summary, the report, ``--dry-run`` and ``xlingmed data
check`` show it), and its first rows are named. ``-B strict_data=true`` (``--strict-data``) makes the first one
the run's error, naming file, row and column.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from xlingmed.errors import DataError

# reason → what it means, as the summary and ``data check`` print it
SKIP_REASONS: dict[str, str] = {
    "no_options": "no options (no options column, no per-option columns, none in the question text)",
    "one_option": "fewer than two options",
    "too_many_options": "more options than A–J",
    "options_unreadable": "the options cell is not a list, a mapping or 'A. …' lines",
    "answer_missing": "no answer key",
    "answer_not_an_option": "the answer key names no option (by letter, number or text)",
    "answer_empty_option": "the answer key names an empty or N/A option",
    "alternative_answers": "the answer key accepts either of several options ('A or B')",
    "empty_question": "an empty question",
    "empty_reference": "an empty reference answer",
}
EXAMPLES_KEPT = 20  # rows named per run: enough to find the pattern, never a copy of the set


class RowSkipped(DataError):
    """A row that cannot be an item, with its reason (a key of ``SKIP_REASONS``)."""

    def __init__(self, reason: str, message: str, *, column: str | None = None) -> None:
        super().__init__(message, column=column)
        self.reason = reason


@dataclass
class SkipLog:
    """The rows left out of one load: counts per language and reason, and the first rows (file, row, column)."""

    strict: bool = False
    counts: dict[str, Counter[str]] = field(default_factory=dict)
    examples: list[dict[str, Any]] = field(default_factory=list)

    def add(self, lang: str, skipped: RowSkipped, *, file: str, row: int) -> None:
        """Count ``skipped``; with ``strict`` raise it as the error it is.

        Raises:
            DataError: with ``strict``, naming file, row and column.
        """
        if self.strict:
            raise DataError(f"{skipped.message} ({skipped.reason}; without --strict-data such a row is skipped)",
                            file=file, row=row, column=skipped.column)  # fmt: skip
        self.counts.setdefault(lang, Counter())[skipped.reason] += 1
        if len(self.examples) < EXAMPLES_KEPT:
            self.examples.append({"lang": lang, "row": row, "column": skipped.column, "reason": skipped.reason,
                                  "message": skipped.message[:120]})  # fmt: skip

    def by_language(self) -> dict[str, dict[str, int]]:
        """``{lang: {reason: rows}}`` of the languages that lost any row."""
        return {lang: dict(c) for lang, c in self.counts.items() if c}


def merge_skipped(*parts: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    """``{lang: {reason: rows}}`` summed over ``parts`` (an adapter's own skips and the table reader's)."""
    out: dict[str, Counter[str]] = {}
    for part in parts:
        for lang, reasons in (part or {}).items():
            out.setdefault(lang, Counter()).update(reasons)
    return {lang: dict(c) for lang, c in out.items() if c}


def skipped_sentence(dataset: dict[str, Any]) -> str | None:
    """One sentence on the rows a load left out (``summary.json`` → ``dataset.skipped``), for the console, the
    report and ``--dry-run``; ``None`` where none was."""
    skipped = dataset.get("skipped") or {}
    if not skipped:
        return None
    parts = [f"{lang}: " + ", ".join(f"{reason} {n}" for reason, n in sorted(reasons.items()))
             for lang, reasons in skipped.items()]  # fmt: skip
    total = sum(n for reasons in skipped.values() for n in reasons.values())
    return (f"{total} row(s) of the data could not be items and were skipped ({'; '.join(parts)}); "
            "dataset.skipped_rows names the first, --strict-data stops at them")  # fmt: skip
