"""``xlingmed run``: one option per ``RunConfig`` field, generated from the schema (``cli/run_options.py``), the
command's own options (``--dry-run``, ``--config``, ``--report``…) and the task flags of 0.1 (aliases of ``-T``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from xlingmed.benchmarks.odd_rows import skipped_sentence
from xlingmed.cli.app import app
from xlingmed.cli.common import RichProgress, console, fail, set_format, write_report
from xlingmed.cli.run_options import config_overrides, schema_options
from xlingmed.cli.tables import FormatOption
from xlingmed.cli.views import print_failures, print_not_available, print_parsing, print_plan, print_summary
from xlingmed.errors import EXIT_FAILED_REQUESTS, EXIT_INTERRUPTED, XlingmedError

if TYPE_CHECKING:
    from xlingmed.config import RunConfig
    from xlingmed.engine import RunResult


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
@schema_options  # one option per RunConfig field, from the field's metadata (config/schema.py)
def run(
    ctx: typer.Context,
    *,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print the requests and estimated tokens/cost; call no model.")
    ] = False,
    config: Annotated[Path | None, typer.Option(help="YAML file of RunConfig fields; flags override it.")] = None,
    trust_config: Annotated[
        bool,
        typer.Option(
            "--trust-config",
            help="Let --config choose servers (base_url…), the key variable and trust_remote_code; said first.",
        ),
    ] = False,
    quiet: Annotated[bool, typer.Option(help="No progress bars.")] = False,
    report: Annotated[bool, typer.Option("--report/--no-report", help="Write RUN_DIR/report at the end.")] = True,
    output_format: FormatOption = "text",
    **options: Any,
) -> None:
    """Evaluate a model on a benchmark and write RUN_DIR (manifest, samples, summary, CSVs)."""
    from xlingmed.engine import dry_run as plan_only
    from xlingmed.errors import BudgetExhausted

    set_format(output_format)
    cfg: RunConfig | None = None
    try:
        cfg = _configure(config, trust_config, config_overrides(options, ctx.args))
        if dry_run:
            print_plan(plan_only(cfg, on_plan=lambda p: _say_skipped(p.provenance)))
            return
        result = _evaluate(cfg, quiet)
    except BudgetExhausted as exc:
        console.print(f"[bold yellow]stopped:[/] {exc}", highlight=False)
        raise typer.Exit(code=3) from None
    except XlingmedError as exc:
        fail(exc)
        return
    except KeyboardInterrupt:
        _interrupted(cfg)
    _print_end(result)
    if report:
        write_report(result.out_dir)
    failed = result.failure(cfg.fail_on_error)
    if failed:  # after the run folder and the report: what was done is kept, and the pipeline is told
        console.print(f"[bold red]failed:[/] {failed}", highlight=False)
        raise typer.Exit(code=EXIT_FAILED_REQUESTS)


def _configure(source: Path | None, trust_config: bool, overrides: dict[str, Any]) -> RunConfig:
    """The run's ``RunConfig`` from ``--config`` and the flags (``make_config``); a benchmark's licence notice is
    said before anything runs.

    Raises:
        ConfigError: as ``make_config``.
    """
    from xlingmed.config import make_config

    cfg = make_config(source, trust_config=trust_config,
                      say=lambda line: console.print(f"[bold yellow]note:[/] {line}", highlight=False),
                      **overrides)  # fmt: skip
    notice = getattr(cfg.spec, "notice", "")
    if notice:  # a non-commercial or research-only licence, a gate: said before anything runs
        console.print(f"[bold yellow]note:[/] {notice}", highlight=False)
    return cfg


def _evaluate(cfg: RunConfig, quiet: bool) -> RunResult:
    """``evaluate(cfg)`` with progress bars (none with ``--quiet``); returns its ``RunResult``."""
    from xlingmed.engine import evaluate

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        console=console,
        disable=quiet,
        transient=False,
    ) as bars:
        return evaluate(cfg, progress=RichProgress(bars))


def _interrupted(cfg: RunConfig | None) -> NoReturn:
    """Ctrl-C: say where the completions received so far are kept, exit ``EXIT_INTERRUPTED``."""
    from xlingmed.store import default_cache_path

    where = "the cache" if cfg is None else (cfg.cache or default_cache_path())
    console.print(f"interrupted: every completion received so far is kept in {where}; no run folder was "
                  "written; run the same command to resume", highlight=False)  # fmt: skip
    raise typer.Exit(code=EXIT_INTERRUPTED) from None


def _print_end(result: RunResult) -> None:
    """The summary tables, notes and warnings of a finished run, then its one ``wrote …`` line."""
    print_summary(result.summary)
    skipped = skipped_sentence(result.summary.get("dataset", {}))
    if skipped:
        console.print(f"[bold yellow]note:[/] {skipped}", highlight=False)
    print_parsing(result.summary)
    print_not_available(result.summary)
    print_failures(result.summary)
    for task, block in result.summary.get("uneven_losses", {}).items():
        fewer = ", ".join(f"{lang} {n}" for lang, n in block["fewer"].items())
        console.print(f"[bold yellow]warning:[/] {task}: fewer scored items in {fewer} than the {block['most']} of "
                      "the other languages; unequal losses bias the comparison", highlight=False)  # fmt: skip
    console.print(
        f"wrote {result.out_dir}  backend_calls: {result.backend_calls}  cache_hits: {result.cache_hits}  "
        f"failed_requests: {result.failed_requests}  wall: {result.wall_s:.1f} s",
        highlight=False,
    )


def _say_skipped(dataset: dict[str, Any]) -> None:
    skipped = skipped_sentence(dataset)
    if skipped:
        console.print(f"[bold yellow]note:[/] {skipped}", highlight=False)
