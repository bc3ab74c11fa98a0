"""``xlingmed data check BENCHMARK``: load a benchmark's files as a run would and say what they hold, before the
first request (issue 61): items per language, pairing across languages, rows skipped by reason, the answer keys'
distribution and what the loader was verified on."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from xlingmed.cli.app import app
from xlingmed.cli.common import fail, stdout
from xlingmed.errors import XlingmedError

data_app = typer.Typer(no_args_is_help=True, help="Check a benchmark's data files before a run.")
app.add_typer(data_app, name="data")


@data_app.command("check")
def check_command(
    benchmark: Annotated[str, typer.Argument(help="A benchmark name (xlingmed list benchmarks), mcq:FILE or qa:FILE.")],
    data_dir: Annotated[Path | None, typer.Option(help="The folder holding the benchmark's files.")] = None,
    languages: Annotated[str | None, typer.Option(help="Comma-separated codes (default: the benchmark's).")] = None,
    benchmark_arg: Annotated[
        list[str] | None, typer.Option("-B", "--benchmark-arg", help="A benchmark option KEY=VALUE (repeat).")
    ] = None,
    strict_data: Annotated[bool, typer.Option("--strict-data", help="Stop at the first odd row.")] = False,
) -> None:
    """Load BENCHMARK as `xlingmed run` would, print what it holds; exit 0 when it loads, 2 when it does not."""
    from xlingmed.benchmarks import get_benchmark, load_benchmark
    from xlingmed.benchmarks.verified import verification

    try:
        spec = get_benchmark(benchmark)
        options = _options(benchmark_arg or [])
        if strict_data:
            options["strict_data"] = True
        checked = spec.check_options(options)
        langs = [x.strip() for x in languages.split(",")] if languages else list(spec.languages_for(checked))
        items, provenance = load_benchmark(spec, data_dir, langs, **checked)
    except XlingmedError as exc:
        fail(exc)
    _print(benchmark, items, provenance, verification(spec))


def _options(pairs: list[str]) -> dict[str, Any]:
    from xlingmed.errors import ConfigError

    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            fail(ConfigError(f"-B {pair!r}: expected KEY=VALUE"))
        out[key.strip()] = value.strip()
    return out


def _print(name: str, items: list[Any], provenance: dict[str, Any], record: str) -> None:
    per_lang = Counter(it.lang for it in items)
    keys: dict[str, Counter[str]] = {}
    for it in items:
        if getattr(it, "gold_label", None):
            keys.setdefault(it.lang, Counter())[str(it.gold_label)] += 1
    skipped = provenance.get("skipped") or {}
    table = Table(title=f"{name}: {len(items)} items (split {provenance.get('split', '-')})")
    for col in ("language", "items", "skipped", "answer keys"):
        table.add_column(col, overflow="fold")
    for lang, n in per_lang.items():
        lost = ", ".join(f"{r} {c}" for r, c in sorted(skipped.get(lang, {}).items())) or "0"
        dist = " ".join(f"{k}:{v}" for k, v in sorted(keys.get(lang, Counter()).items())) or "-"
        table.add_row(lang, str(n), lost, dist)
    stdout.print(table)
    ids = {lang: {it.item_id for it in items if it.lang == lang} for lang in per_lang}
    if len(ids) > 1:
        common = set.intersection(*ids.values())
        stdout.print(f"paired across {', '.join(ids)}: {len(common)} questions in every language")
    for row in provenance.get("skipped_rows") or []:
        stdout.print(f"  skipped: row {row['row']}, column {row['column']!r} ({row['lang']}): {row['reason']}",
                     markup=False, highlight=False)  # fmt: skip
    stdout.print(f"verified on: {record}", markup=False, highlight=False)
