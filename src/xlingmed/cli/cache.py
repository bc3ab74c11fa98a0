"""``xlingmed cache info|verify|prune|export|import``: see into the completion cache, check it, prune it, share it
(``cache_admin``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from xlingmed.cli.app import app
from xlingmed.cli.common import console, fail, set_format, stdout
from xlingmed.cli.tables import FormatOption
from xlingmed.errors import EXIT_ENVIRONMENT, XlingmedError

cache_app = typer.Typer(no_args_is_help=True, help="See into the completion cache, check, prune and share it.")
app.add_typer(cache_app, name="cache")

CacheFile = Annotated[
    Path | None,
    typer.Argument(help="The cache file (default: --cache's default, $XLINGMED_CACHE or the user cache folder)."),
]
CacheOption = Annotated[Path | None, typer.Option("--cache", help="The cache file, as `xlingmed run` names it.")]


def _path(path: Path | None, option: Path | None = None) -> Path:
    """The cache file: the positional path, else ``--cache``, else the default cache."""
    from xlingmed.errors import ConfigError
    from xlingmed.store import default_cache_path

    if path is not None and option is not None and Path(path) != Path(option):
        fail(ConfigError(f"two cache files named: {path} and --cache {option}; name one"))
    return path or option or default_cache_path()


@cache_app.command("info")
def info_command(path: CacheFile = None, cache: CacheOption = None, output_format: FormatOption = "text") -> None:
    """The file, its size, mode and schema, and its rows per model and task with the oldest and newest."""
    from xlingmed.cache_admin import info

    set_format(output_format)
    path = _path(path, cache)
    try:
        out = info(path)
    except XlingmedError as exc:
        fail(exc)
        return
    if output_format == "json":  # the whole record, the rows per model and task included
        stdout.emit_json(out)
        return
    stdout.print(f"{out['file']}: {out['rows']:,} completions, {out['bytes'] / 2**20:.1f} MiB, mode {out['mode']}, "
                 f"schema {out['schema']}", highlight=False)  # fmt: skip
    table = Table()
    for col in ("model", "task", "rows", "oldest", "newest"):
        table.add_column(col, justify="right" if col == "rows" else "left")
    for g in out["by_model_task"]:
        table.add_row(g["model"], g["task"] or "(before 0.2)", f"{g['rows']:,}", g["oldest"], g["newest"])
    stdout.print(table)


@cache_app.command("verify")
def verify_command(path: CacheFile = None, cache: CacheOption = None) -> None:
    """SQLite's integrity check, then every row decoded into a request and a completion; exits 5 on a problem."""
    from xlingmed.cache_admin import verify

    path = _path(path, cache)
    try:
        found = verify(_path(path))
    except XlingmedError as exc:
        fail(exc)
        return
    if found.ok:
        stdout.print(f"{_path(path)}: ok (integrity check ok, {found.rows:,} rows decode)", highlight=False)
        return
    keys = ", ".join(found.bad_keys)
    console.print(f"[bold red]error:[/] {_path(path)}: integrity check: {found.integrity}; {found.bad_rows} of "
                  f"{found.rows} rows do not decode{f' ({keys})' if keys else ''}. Prune or re-create them: "
                  "`xlingmed cache export` keeps the readable rows", highlight=False)  # fmt: skip
    raise typer.Exit(code=EXIT_ENVIRONMENT)


@cache_app.command("prune")
def prune_command(
    path: CacheFile = None,
    cache: CacheOption = None,
    model: Annotated[str | None, typer.Option(help="Rows of models matching this glob (openai/*).")] = None,
    older_than: Annotated[float | None, typer.Option(help="Rows older than this many days.")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Count the rows; delete nothing.")] = False,
) -> None:
    """Delete rows by model and/or age (both must hold when both are given)."""
    from xlingmed.cache_admin import prune

    path = _path(path, cache)
    try:
        n = prune(_path(path), model=model, older_than_days=older_than, dry_run=dry_run)
    except XlingmedError as exc:
        fail(exc)
        return
    verb = "would delete" if dry_run else "deleted"
    stdout.print(f"{_path(path)}: {verb} {n:,} completion(s)", highlight=False)


@cache_app.command("export")
def export_command(
    file: Annotated[Path, typer.Argument(help="The JSON Lines file to write (gzip when it ends in .gz).")],
    path: Annotated[Path | None, typer.Option("--cache", help="The cache file (default: the default cache).")] = None,
    model: Annotated[str | None, typer.Option(help="Only the rows of models matching this glob.")] = None,
) -> None:
    """Write the cache's completions, keys kept, to a portable file (to share, or to combine shards' caches)."""
    from xlingmed.cache_admin import export

    try:
        n = export(_path(path), file, model=model)
    except XlingmedError as exc:
        fail(exc)
        return
    stdout.print(f"wrote {n:,} completion(s) to {file}", highlight=False)


@cache_app.command("import")
def import_command(
    file: Annotated[Path, typer.Argument(help="An export (JSON Lines, .gz) or another cache file.")],
    path: Annotated[Path | None, typer.Option("--cache", help="The cache file (default: the default cache).")] = None,
) -> None:
    """Add the completions the cache lacks; a stored completion is never replaced (a different one is counted)."""
    from xlingmed.cache_admin import import_file

    try:
        counts = import_file(_path(path), file)
    except XlingmedError as exc:
        fail(exc)
        return
    stdout.print(f"{_path(path)}: added {counts.added:,}, already held {counts.same:,}", highlight=False)
    if counts.differing:
        console.print(f"[bold yellow]note:[/] {counts.differing:,} key(s) were held with a different completion: "
                      "the stored ones were kept", highlight=False)  # fmt: skip
    if counts.rejected:
        console.print(f"[bold yellow]warning:[/] {counts.rejected:,} row(s) not imported: their key is not their "
                      "request's, or they hold no completion (a damaged or tampered file)",
                      highlight=False)  # fmt: skip
