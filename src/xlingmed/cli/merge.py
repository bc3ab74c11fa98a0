"""``xlingmed merge``: the run folders of ``--shard 0/N`` … ``N-1/N`` back into one (``engine/merge.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from xlingmed.cli.app import app
from xlingmed.cli.common import console, fail, set_format, write_report
from xlingmed.cli.tables import FormatOption
from xlingmed.cli.views import print_failures, print_summary
from xlingmed.errors import XlingmedError


@app.command()
def merge(
    run_dirs: Annotated[list[Path], typer.Argument(help="The run folders of every shard of one run.")],
    out: Annotated[Path, typer.Option(help="The merged run folder.")],
    cache: Annotated[
        Path | None, typer.Option(help="Completion cache the shards' completions go into (default: the default).")
    ] = None,
    data_dir: Annotated[
        Path | None, typer.Option(help="Benchmark files, when not where the shards found them.")
    ] = None,
    report: Annotated[bool, typer.Option("--report/--no-report", help="Write OUT/report at the end.")] = True,
    output_format: FormatOption = "text",
) -> None:
    """Merge the shards of one run: their completions go into the cache, and the run is scored unsharded from it,
    sending nothing; the result equals the unsharded run's."""
    from xlingmed.engine.merge import merge_runs

    set_format(output_format)
    try:
        result, imports = merge_runs(run_dirs, out, cache=cache, data_dir=data_dir)
    except XlingmedError as exc:
        fail(exc)
        return
    for path, counts in imports.items():
        line = f"{path}: {counts.added} completions added to the cache, {counts.same} already there"
        if counts.differing:
            line += f", [yellow]{counts.differing} held with another answer (the cache's kept)[/]"
        if counts.rejected:
            line += f", [yellow]{counts.rejected} not imported (key not their request's: damaged or tampered)[/]"
        console.print(line, highlight=False)
    print_summary(result.summary)
    print_failures(result.summary)
    missing = result.failed_requests
    if missing:
        console.print(
            f"[yellow]{missing} requests have no completion in any shard (they failed there): re-run those shards "
            "(the same command resends only them), then merge again[/]",
            highlight=False,
        )
    console.print(
        f"wrote {result.out_dir}  shards: {len(imports)}  backend_calls (in the shards): "
        f"{result.summary['backend_calls']}",
        highlight=False,
    )
    if report:
        write_report(result.out_dir, show_verdict=False)
