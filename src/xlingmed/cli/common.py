"""What every command shares: the consoles, the one-line error exit, progress bars."""

from __future__ import annotations

from typing import Any

import typer
from rich.console import Console
from rich.progress import Progress, TaskID

console = Console(stderr=True)
stdout = Console()


class RichProgress:
    """One progress bar per stage, with counts and ETA."""

    def __init__(self, progress: Progress) -> None:
        self._progress = progress
        self._task: TaskID | None = None

    def start(self, description: str, total: int) -> None:
        if self._task is not None:
            self._progress.update(self._task, completed=self._progress.tasks[-1].total)
        self._task = self._progress.add_task(description, total=total)

    def advance(self, n: int = 1) -> None:
        if self._task is not None:
            self._progress.advance(self._task, n)


def fail(exc: Exception) -> None:
    console.print(f"[bold red]error:[/] {exc}", highlight=False)
    raise typer.Exit(code=2)


def fmt(v: Any, digits: int = 3) -> str:
    return "–" if v is None else (f"{v:.{digits}f}" if isinstance(v, float) else str(v))
