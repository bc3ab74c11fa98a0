"""``xlingmed annotate sample | export | serve``: human evaluation of the judge."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from xlingmed.cli.app import app
from xlingmed.cli.common import console, fail, fmt, stdout
from xlingmed.errors import XlingmedError

annotate_app = typer.Typer(
    add_completion=False, no_args_is_help=True, help="Human evaluation of the judge (XLingEval App. C, Table A7)."
)
app.add_typer(annotate_app, name="annotate")


@annotate_app.command("sample")
def annotate_sample(
    run_dir: Annotated[Path, typer.Argument(help="A finished run with the correctness task.")],
    out: Annotated[Path, typer.Option(help="Annotation set folder to create.")],
    fraction: Annotated[float, typer.Option(help="Share of each stratum (paper: 0.1); at least 1 item each.")] = 0.1,
    stratify: Annotated[str, typer.Option(help="label (the judge's) | none.")] = "label",
    per_language: Annotated[bool, typer.Option("--per-language/--across-languages")] = True,
    seed: Annotated[int, typer.Option(help="Fixes the items drawn and their order.")] = 0,
    annotators: Annotated[str, typer.Option(help="Comma-separated names; each gets a secret token.")] = "a1,a2",
) -> None:
    """Draw a stratified, seeded sample of a run's judged items for annotators."""
    from xlingmed.annotate import build_annotation_set

    try:
        aset = build_annotation_set(
            run_dir,
            out,
            fraction=fraction,
            stratify=stratify,
            per_language=per_language,
            seed=seed,
            annotators=annotators.split(","),
        )
    except XlingmedError as exc:
        fail(exc)
        return
    table = Table(title=f"{aset.path}: {len(aset.items)} items (fraction {fraction}, seed {seed})")
    for col in ("stratum (lang|label)", "items", "sampled"):
        table.add_column(col, justify="left" if col.startswith("stratum") else "right")
    for key, n in aset.settings["strata"].items():
        table.add_row(key, str(n["stratum"]), str(n["sampled"]))
    stdout.print(table)
    stdout.print(f"annotator tokens are in {aset.path / 'annotators.json'} (keep them secret)", highlight=False)


@annotate_app.command("export")
def annotate_export(
    annotation_set: Annotated[Path, typer.Argument(help="An annotation set folder.")],
) -> None:
    """Judge–human agreement per language (Table A7) → SET/agreement.csv and answers.csv."""
    from xlingmed import output
    from xlingmed.annotate import AnswerStore, agreement_table, load_annotation_set

    try:
        aset = load_annotation_set(annotation_set)
    except XlingmedError as exc:
        fail(exc)
        return
    answers = AnswerStore(aset.path / "answers.sqlite").all()
    rows = agreement_table(aset, answers)
    output.write_csv(aset.path / "agreement.csv", rows)
    output.write_csv(
        aset.path / "answers.csv",
        [{"annotator": a.annotator, "item": a.item, "verdict": a.verdict, "label": a.label, "reason": a.reason}
         for a in answers],
    )  # fmt: skip
    table = Table(title=f"Judge–human agreement ({len(answers)} answers)")
    for col in ("lang", "items", "annotators", "judge = majority", "no majority", "unanimous", "κ", "κ items"):
        table.add_column(col, justify="right")
    for r in rows:
        kappa = "–" if r["kappa"] is None else f"{r['kappa']:.3f} ({r['kappa_kind']})"
        table.add_row(
            r["lang"], str(r["n_items"]), str(r["n_annotators"]), fmt(r["judge_agreement"]),
            str(r["n_no_majority"]), fmt(r["unanimous"]), kappa, str(r["n_kappa_items"]),
        )  # fmt: skip
    stdout.print(table)
    stdout.print(f"wrote {aset.path / 'agreement.csv'} and answers.csv", highlight=False)


@annotate_app.command("serve")
def annotate_serve(
    annotation_set: Annotated[Path, typer.Argument(help="An annotation set folder.")],
    host: Annotated[str, typer.Option(help="Address to bind (loopback unless --allow-remote).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port.")] = 8700,
    allow_remote: Annotated[bool, typer.Option("--allow-remote", help="Permit a non-loopback --host.")] = False,
) -> None:
    """Serve the annotation web app; prints each annotator's personal link."""
    from xlingmed.annotate import load_annotation_set
    from xlingmed.annotate.server import annotator_links, check_host, serve

    try:
        aset = load_annotation_set(annotation_set)
        warning = check_host(host, allow_remote)
    except XlingmedError as exc:
        fail(exc)
        return
    if warning:
        console.print(f"[bold yellow]{warning}[/]", highlight=False)
    for name, link in annotator_links(aset, f"http://{host}:{port}").items():
        stdout.print(f"{name}: {link}", highlight=False, soft_wrap=True)
    serve(aset, host, port)
