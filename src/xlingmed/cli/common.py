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
    at their natural width, one line each, so ``grep`` finds a row whole. With ``output_format`` ``tsv`` or
    ``json`` (``--format``: ``cli/tables.py``), tables print as such and prose goes to stderr."""

    output_format: str = "text"

    def print(self, *objects: Any, **kwargs: Any) -> None:  # type: ignore[override]
        if self.output_format != "text":
            self._print_data(objects)
            return
        if not self.is_terminal and "COLUMNS" not in os.environ and any(isinstance(o, Table) for o in objects):
            for o in objects:
                super().print(_whole_rows(o) if isinstance(o, Table) else o, soft_wrap=True, **kwargs)
            return
        if "soft_wrap" not in kwargs and all(isinstance(o, str) for o in objects):
            kwargs["soft_wrap"] = True
        super().print(*objects, **kwargs)


    def _print_data(self, objects: tuple[Any, ...]) -> None:
        from xlingmed.cli.tables import as_json, as_tsv

        for o in objects:
            if not isinstance(o, Table):  # prose: stdout holds only the data
                console.print(o, highlight=False)
            elif self.output_format == "json":
                self.file.write(as_json(o) + "\n")
            else:
                self.file.write(("\n" if self._tables_written else "") + as_tsv(o) + "\n")
                self._tables_written += 1
        self.file.flush()

    _tables_written = 0

    def emit_json(self, data: Any) -> None:
        """``data`` as one JSON line on this console's file (``--format json`` of a command whose data is not a
        table: ``cache info``)."""
        import json

        self.file.write(json.dumps(data, ensure_ascii=False, default=str) + "\n")
        self.file.flush()


def set_format(output_format: str) -> None:
    """``--format``: how ``stdout`` prints tables from now on (``cli/tables.py``); an unknown one exits 2."""
    from xlingmed.cli.tables import FORMATS
    from xlingmed.errors import ConfigError

    if output_format not in FORMATS:
        fail(ConfigError(f"--format {output_format}: expected one of {', '.join(FORMATS)}"))
    stdout.output_format = output_format


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
