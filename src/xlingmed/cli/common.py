"""What every command shares: the consoles, the one-line error exit, progress bars."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.progress import Progress, TaskID
from rich.table import Table
from rich.text import Text


class _Console(Console):
    """A text is never folded at the terminal's width, so a path in a message stays one piece to copy (the
    terminal wraps the line); tables fit a terminal's width, and off a terminal (a pipe, a log) print whole rows
    at their natural width, one line each, so ``grep`` finds a row whole."""

    def print(self, *objects: Any, **kwargs: Any) -> None:  # type: ignore[override]
        if not self.is_terminal and "COLUMNS" not in os.environ and any(isinstance(o, Table) for o in objects):
            for o in objects:
                super().print(_whole_rows(o) if isinstance(o, Table) else o, soft_wrap=True, **kwargs)
            return
        if "soft_wrap" not in kwargs and all(isinstance(o, str) for o in objects):
            kwargs["soft_wrap"] = True
        super().print(*objects, **kwargs)


def _whole_rows(table: Table) -> Text:
    """``table`` rendered at its natural width (no column folded), trailing spaces trimmed."""
    wide = Console(width=100_000, file=io.StringIO(), color_system=None, legacy_windows=False)
    wide.print(table)
    lines = [line.rstrip() for line in wide.file.getvalue().splitlines()]  # type: ignore[attr-defined]
    return Text("\n".join(lines))


console = _Console(stderr=True)
stdout = _Console()


class RichProgress:
    """One progress bar per stage, with counts and ETA. A stage met again (its next chunk of samples:
    ``engine/walk.py``) grows its bar instead of adding one."""

    def __init__(self, progress: Progress) -> None:
        self._progress = progress
        self._task: TaskID | None = None
        self._bars: dict[str, TaskID] = {}

    def start(self, description: str, total: int) -> None:
        if description in self._bars:
            self._task = self._bars[description]
            bar = next(t for t in self._progress.tasks if t.id == self._task)
            self._progress.update(self._task, total=(bar.total or 0) + total)
            return
        self._task = self._progress.add_task(description, total=total)
        self._bars[description] = self._task

    def advance(self, n: int = 1) -> None:
        if self._task is not None:
            self._progress.advance(self._task, n)


def write_report(run_dir: Path, *, show_verdict: bool = True) -> None:
    """Build ``run_dir/report`` (``xlingmed run`` and ``merge`` end with it) and print where it is, after its
    verdict when ``show_verdict``; a report that cannot be built exits 2 with its reason."""
    from xlingmed.errors import XlingmedError
    from xlingmed.report import build_report

    try:
        index = build_report([run_dir])
    except XlingmedError as exc:
        fail(exc)
        return
    verdict = index.parent / "verdict.txt"
    if show_verdict and verdict.is_file():
        console.print(verdict.read_text(encoding="utf-8").strip(), highlight=False)
    console.print(f"report: {index}", highlight=False)


def fail(exc: Exception) -> None:
    """Print ``exc`` in one line and exit: 5 for an environment fault (disk, folder, cache), else 2 (the input);
    ``--debug`` (or ``XLINGMED_DEBUG=1``) prints the traceback first."""
    import os
    import traceback

    from xlingmed.errors import EXIT_BAD_INPUT, EXIT_ENVIRONMENT, EnvironmentFault

    if os.environ.get("XLINGMED_DEBUG"):
        traceback.print_exception(exc)
    console.print(f"[bold red]error:[/] {exc}", highlight=False)
    raise typer.Exit(code=EXIT_ENVIRONMENT if isinstance(exc, EnvironmentFault) else EXIT_BAD_INPUT)


def fmt(v: Any, digits: int = 3) -> str:
    return "–" if v is None else (f"{v:.{digits}f}" if isinstance(v, float) else str(v))
