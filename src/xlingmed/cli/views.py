"""What the CLI prints of a run: the dry-run plan, each task's view, how replies were read, failures."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from xlingmed.cli.common import console, stdout
from xlingmed.tasks.run_views import tables_of
from xlingmed.views.base import CLI, ViewTable


def print_plan(rows: list[dict[str, Any]]) -> None:
    """The ``--dry-run`` table: requests per task × stage × model × language × τ, tokens and cost."""
    models = sorted({r["model"] for r in rows})
    one = len(models) == 1
    table = Table(
        title=f"Plan{' for ' + models[0] if one else ''} (dry run: no model called); * = built on answers not "
        "generated yet (upper bound)"
    )
    cols = ["task stage", *([] if one else ["model"]), "lang", "τ", "req", "cached", "send", "in tok ≈", "out tok ≤"]
    for col in [*cols, "USD ≤"]:
        table.add_column(col, justify="left" if col in ("task stage", "model") else "right", no_wrap=col == "τ")
    totals = {"requests": 0, "cached": 0, "to_send": 0, "prompt_tokens": 0, "max_completion_tokens": 0}
    cost: float | None = 0.0
    for r in rows:
        for k in totals:
            totals[k] += r[k]
        cost = None if cost is None or r["cost_usd"] is None else cost + r["cost_usd"]
        table.add_row(
            f"{r['task']} {r['stage']}" + ("*" if r["upper_bound"] else ""), *([] if one else [r["model"]]), r["lang"],
            f"{r['temperature']:g}", str(r["requests"]), str(r["cached"]), str(r["to_send"]),
            str(r["prompt_tokens"]), str(r["max_completion_tokens"]),
            "?" if r["cost_usd"] is None else f"{r['cost_usd']:.4f}",
        )  # fmt: skip
    table.add_row(
        "total",
        *[""] * (len(cols) - 6),
        *(str(v) for v in totals.values()),
        "?" if cost is None else f"{cost:.4f}",
        style="bold",
    )
    stdout.print(table)
    if cost is None:
        stdout.print("cost ?: no --price for that model (in-process llamacpp models cost nothing)")


def print_parsing(summary: dict[str, Any]) -> None:
    """How every reply was read, per task and language (``parsing.methods``), and the >5 % warnings."""
    from xlingmed.parsing.methods import KIND_ORDER, kind_of

    parsed = {name: t["parsing"] for name, t in summary["tasks"].items() if "parsing" in t}
    if not parsed:
        return
    table = Table(title="How replies were read (read = a direct rule; fallback and unread can make a gap alone)")
    for col in ("task", "lang", *KIND_ORDER):
        table.add_column(col, justify="left" if col in ("task", "lang") else "right", no_wrap=True)
    table.add_column("not read by a direct rule", overflow="fold")
    for name, p in parsed.items():
        for lang, kinds in p["kinds"].items():
            # the methods behind fallback / unread / refused; the read ones are in summary.json and the report
            other = sorted(
                ((m, n) for m, n in p["methods"][lang].items() if kind_of(m) in ("fallback", "unread", "refused")),
                key=lambda mn: -mn[1],
            )
            table.add_row(name, lang, *[str(kinds[k]) for k in KIND_ORDER], ", ".join(f"{m} {n}" for m, n in other))
    stdout.print(table)
    for name, p in parsed.items():
        for warning in p["warnings"]:
            console.print(f"[yellow]warning[/yellow] {name}: {warning}", highlight=False)


def print_not_available(summary: dict[str, Any]) -> None:
    """Each metric a task could not measure in a language, and why (``settings.not_available``)."""
    for task, block in (summary.get("tasks") or {}).items():
        missing = ((block.get("settings") or {}).get("not_available") or {}) if isinstance(block, dict) else {}
        for metric, langs in missing.items():
            for lang, why in langs.items():
                console.print(f"[yellow]not measured[/yellow] {task}: {metric} in {lang}: {why}", highlight=False)


def print_failures(summary: dict[str, Any]) -> None:
    """Failed requests per language and reason, and how to retry them."""
    failures = summary.get("failures") or {}
    if not failures:
        return
    table = Table(title=f"Failed requests: {summary['failed_requests']} (counted in each task's errors)")
    for col in ("lang", "reason", "requests"):
        table.add_column(col, justify="right" if col == "requests" else "left")
    for lang, kinds in failures.items():
        for kind, n in sorted(kinds.items(), key=lambda kv: -kv[1]):
            table.add_row(lang, kind, str(n))
    console.print(table)
    console.print(
        "re-run the same command to resend them (transient failures are not cached); --retry-failed also resends "
        "cached ones (400/413/422)",
        highlight=False,
    )


def print_view(table: ViewTable) -> None:
    """One task view's table, as rich draws it (label columns left, numbers right)."""
    out = Table(title=table.title)
    for k, col in enumerate(table.columns):
        out.add_column(col, justify="left" if k < table.left else "right")
    for row in table.rows:
        out.add_row(*row)
    stdout.print(out)


def print_summary(summary: dict[str, Any]) -> None:
    """Every task's result tables (``views``: the same views the report draws from)."""
    for table in tables_of(summary, CLI):
        print_view(table)
