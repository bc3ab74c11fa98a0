"""``xlingmed annotate sample | import | translations | export | serve``: human evaluation of the judge (XLingEval
App. C, Table A7) and of machine translations (App. A, Table A2)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from xlingmed.cli.app import app
from xlingmed.cli.common import console, fail, fmt, stdout
from xlingmed.errors import ConfigError, XlingmedError

if TYPE_CHECKING:
    from xlingmed.annotate import AnnotationSet

annotate_app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Human evaluation of the judge (XLingEval App. C, Table A7) and of translations (App. A, Table A2).",
)
app.add_typer(annotate_app, name="annotate")


@annotate_app.command("sample")
def annotate_sample(
    run_dir: Annotated[Path, typer.Argument(help="A finished run with a judged task (correctness, rubric…).")],
    out: Annotated[Path, typer.Option(help="Annotation set folder to create.")],
    fraction: Annotated[
        float | None, typer.Option(help="Share of each stratum (paper: 0.1; the default); at least 1 item each.")
    ] = None,
    stratify: Annotated[str | None, typer.Option(help="label (the judge's; the default) | none.")] = None,
    per_language: Annotated[bool | None, typer.Option("--per-language/--across-languages",
                                                      help="Strata per language (the default) or across.")] = None,
    seed: Annotated[int, typer.Option(help="Fixes the items drawn and their order.")] = 0,
    annotators: Annotated[str, typer.Option(help="Comma-separated names; each gets a secret token.")] = "a1,a2",
    task: Annotated[
        str | None, typer.Option(help="The judged task to sample (default: the run's first one with judge decisions).")
    ] = None,
    paired: Annotated[
        bool, typer.Option("--paired", help="The same questions in every language, drawn at random (no strata): "
                           "judge-corrected gaps are then taken item by item.")
    ] = False,
    for_verdict: Annotated[
        list[Path] | None, typer.Option("--for-verdict", help="Sets already answered (repeat): draw, paired, the "
                                        "further questions their inconclusive judge-corrected verdicts need.")
    ] = None,
    margin: Annotated[
        str | None, typer.Option(help="--for-verdict: the margins δ the report uses (e.g. contradictory=0.03); "
                                 "default: the report's (--report), else each outcome's own.")
    ] = None,
    alpha: Annotated[
        float | None, typer.Option(help="--for-verdict: the report's one-sided level (default: the report's, else "
                                   "0.05).")
    ] = None,
    report: Annotated[
        Path | None, typer.Option(help="--for-verdict: the report folder to plan for (its stats/verdicts.csv gives "
                                  "margins and α; default RUN/report where it exists).")
    ] = None,
) -> None:
    """Draw a stratified, seeded sample of a run's judged items for annotators; with --for-verdict, the further
    questions that would decide the judge-corrected verdicts still inconclusive."""
    from xlingmed.annotate import build_annotation_set

    if for_verdict:
        _refuse_options("--for-verdict draws paired questions, as many as the verdicts need; it takes no such option",
                        {"--fraction": fraction, "--stratify": stratify,
                         "--per-language/--across-languages": per_language, "--paired": paired or None})  # fmt: skip
        _sample_for_verdict(run_dir, out, for_verdict, seed=seed, annotators=annotators, task=task, margin=margin,
                            alpha=alpha, report=report)  # fmt: skip
        return
    _refuse_options("only --for-verdict plans with the report's margins",
                    {"--margin": margin, "--alpha": alpha, "--report": report})  # fmt: skip
    fraction = 0.1 if fraction is None else fraction
    try:
        aset = build_annotation_set(
            run_dir, out, fraction=fraction, stratify=stratify or "label",
            per_language=True if per_language is None else per_language, seed=seed,
            annotators=annotators.split(","), task=task, paired=paired,
        )  # fmt: skip
    except XlingmedError as exc:
        fail(exc)
        return
    _print_strata(aset, fraction, seed)


def _refuse_options(why: str, options: dict[str, object]) -> None:
    """Fails (``ConfigError``) naming the options given (not ``None``) of ``options``: ``"NAMES: why"``."""
    given = [name for name, value in options.items() if value is not None]
    if given:
        fail(ConfigError(f"{', '.join(given)}: {why}"))


def _print_strata(aset: AnnotationSet, fraction: float, seed: int) -> None:
    """The sampled set's strata (items and sampled per language × label) and where the tokens are."""
    table = Table(title=f"{aset.path}: {len(aset.items)} items (fraction {fraction}, seed {seed})")
    for col in ("stratum (lang|label)", "items", "sampled"):
        table.add_column(col, justify="left" if col.startswith("stratum") else "right")
    for key, n in aset.settings["strata"].items():
        table.add_row(key, str(n["stratum"]), str(n["sampled"]))
    stdout.print(table)
    stdout.print(f"annotator tokens are in {aset.path / 'annotators.json'} (keep them secret)", highlight=False)


def _sample_for_verdict(run_dir: Path, out: Path, sets: list[Path], *, seed: int, annotators: str,
                        task: str | None, margin: str | None, alpha: float | None,
                        report: Path | None) -> None:  # fmt: skip
    from xlingmed.annotate.for_verdict import build_for_verdict, planning

    try:
        margins, level, source = planning(run_dir, sets, task=task, margin=margin, alpha=alpha, report=report)
    except XlingmedError as exc:
        fail(exc)
        return
    shown = ", ".join(f"{k} δ = {v:g}" for k, v in margins.items()) or "each outcome's own margin"
    stdout.print(f"planned at {shown}, α = {level:g} ({source})", highlight=False, soft_wrap=True)
    try:
        aset, need = build_for_verdict(run_dir, out, sets, seed=seed, annotators=annotators.split(","),
                                       margins=margins, alpha=level)  # fmt: skip
    except XlingmedError as exc:
        fail(exc)
        return
    for lang, more in sorted(need.items()):
        stdout.print(f"{lang}: about {more} more human labels for its judge-corrected verdicts", highlight=False)
    stdout.print(f"wrote {aset.path}: {len(aset.items)} items ({aset.settings['strata']}); annotator tokens are "
                 f"in {aset.path / 'annotators.json'} (keep them secret)", highlight=False)  # fmt: skip


@annotate_app.command("import")
def annotate_import(
    annotation_set: Annotated[Path, typer.Argument(help="A judge-check set (xlingmed annotate sample).")],
    file: Annotated[Path, typer.Argument(help="Labels: CSV, TSV or JSON Lines with item_id, lang, annotator, label "
                                         "(unit, reason optional), or annotate export's answers.csv.")],
    add_annotators: Annotated[
        bool, typer.Option("--add-annotators", help="Add annotators the set does not name (each gets a token).")
    ] = False,
    replace: Annotated[
        bool, typer.Option("--replace", help="A label that differs from the annotator's earlier one replaces it.")
    ] = False,
) -> None:
    """Import human labels collected elsewhere (Label Studio, REDCap, a spreadsheet) into a judge-check set, as the
    app stores them. Every row is checked first (item, language, unit, annotator, label, duplicates); one line per
    problem, naming file, row and column, and nothing is stored unless every row fits (exit 2)."""
    from rich.text import Text

    from xlingmed.annotate.label_import import SHOWN_ERRORS, LabelFileError, import_labels
    from xlingmed.errors import EXIT_BAD_INPUT

    try:
        done = import_labels(annotation_set, file, add_annotators=add_annotators, replace=replace)
    except LabelFileError as exc:
        for err in exc.errors[:SHOWN_ERRORS]:  # Text: a cell's brackets are never markup
            console.print(Text("error: ", style="bold red") + Text(str(err)), soft_wrap=True)
        if len(exc.errors) > SHOWN_ERRORS:
            console.print(Text(f"… and {len(exc.errors) - SHOWN_ERRORS} more; nothing was stored"))
        else:
            console.print(Text("nothing was stored"))
        raise typer.Exit(code=EXIT_BAD_INPUT) from None
    except XlingmedError as exc:
        fail(exc)
        return
    langs = ", ".join(f"{lang} {n}" for lang, n in sorted(done.languages.items()))
    stdout.print(Text(f"stored {done.stored} labels in {annotation_set / 'answers.sqlite'} ({langs}; "
                      f"{done.unchanged} already there)"), soft_wrap=True)  # fmt: skip
    if done.added_annotators:
        stdout.print(Text(f"added annotators {', '.join(done.added_annotators)}: their tokens are in "
                          f"{annotation_set / 'annotators.json'}"), soft_wrap=True)  # fmt: skip


@annotate_app.command("translations")
def annotate_translations(
    files: Annotated[
        list[Path], typer.Argument(help="Translated benchmark files (xlingmed translate), one per engine.")
    ],
    out: Annotated[Path, typer.Option(help="Translation-rating set folder to create.")],
    fields: Annotated[str, typer.Option(help="Comma-separated texts to rate: question, reference, options.")] = (
        "question"
    ),
    per_language: Annotated[int, typer.Option(help="Items drawn per target language (paper: 50 per dataset).")] = 50,
    seed: Annotated[int, typer.Option(help="Fixes the items drawn and their order.")] = 0,
    annotators: Annotated[str, typer.Option(help="Comma-separated names; each gets a secret token.")] = "a1,a2",
) -> None:
    """Draw translations for human rating of fluency and meaning, 1–5 (XLingEval App. A, Table A2): the same items
    for every engine of a language, engines mixed and hidden from the annotators."""
    from xlingmed.annotate import build_translation_set

    try:
        aset = build_translation_set(
            files,
            out,
            fields=[f.strip() for f in fields.split(",") if f.strip()],
            per_language=per_language,
            seed=seed,
            annotators=annotators.split(","),
        )
    except XlingmedError as exc:
        fail(exc)
        return
    table = Table(title="Translations drawn for rating")
    for col in ("lang", "engine", "translated", "by every engine", "drawn", "rating items"):
        table.add_column(col, justify="left" if col in ("lang", "engine") else "right")
    for lang, info in aset.settings["languages"].items():
        for engine in info["translators"]:
            n = sum(1 for it in aset.items if it["lang"] == lang and it["translator"] == engine)
            table.add_row(
                lang, engine, str(info["translated"][engine]), str(info["translated_by_all"]), str(info["sampled"]),
                str(n),
            )  # fmt: skip
    stdout.print(table)
    stdout.print(
        f"{aset.path}: {len(aset.items)} rating items (per language {per_language}, seed {seed}); "
        "the engines are not shown to the annotators",
        highlight=False,
        soft_wrap=True,
    )
    stdout.print(f"annotator tokens are in {aset.path / 'annotators.json'} (keep them secret)", highlight=False)


@annotate_app.command("export")
def annotate_export(
    annotation_set: Annotated[Path, typer.Argument(help="An annotation set folder.")],
) -> None:
    """Judge check: judge–human agreement per language (Table A7) → SET/agreement.csv and answers.csv.
    Translation rating: translation quality per language (Table A2) → SET/translation_quality.csv and ratings.csv."""
    from xlingmed import output
    from xlingmed.annotate import AnswerStore, agreement_table, load_annotation_set

    try:
        aset = load_annotation_set(annotation_set)
        if aset.kind == "translation":
            _export_translations(aset)
            return
        answers = AnswerStore.read_all(aset.path / "answers.sqlite")
        rows = agreement_table(aset, answers)
    except XlingmedError as exc:  # a set or its database from someone else, malformed: one line, exit 2
        fail(exc)
        return
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


def _export_translations(aset: AnnotationSet) -> None:
    from xlingmed import output
    from xlingmed.annotate import RatingStore, rating_records, translation_table

    ratings = RatingStore.read_all(aset.path / "ratings.sqlite")
    rows = translation_table(aset, ratings)
    output.write_csv(aset.path / "translation_quality.csv", rows)
    output.write_csv(aset.path / "ratings.csv", rating_records(aset, ratings))
    engines = list(aset.settings.get("translators", []))
    overall = rows[-1]
    table = Table(title="Translation quality (XLingEval Table A2)")
    table.add_column("lang")
    for dim in ("Fluency", "Meaning"):
        for engine in engines:
            table.add_column(f"{dim}\n{engine}", justify="right", overflow="fold")
    table.add_column("κ", justify="right")
    for r in rows:
        kappa = "–" if r["kappa"] is None else f"{r['kappa']:.3f} ({r['kappa_kind']})"
        means = [fmt(r[f"{dim}:{e}"], 2) for dim in ("fluency", "meaning") for e in engines]
        table.add_row(r["lang"], *means, kappa)
    stdout.print(table)
    stdout.print(
        f"mean scores, 1 = strongly disagree … 5 = strongly agree: {overall['n_ratings']} ratings of "
        f"{overall['n_items']} items by {overall['n_annotators']} annotators; κ on fluency and meaning pooled",
        highlight=False,
        soft_wrap=True,
    )
    stdout.print(f"wrote {aset.path / 'translation_quality.csv'} and ratings.csv", highlight=False)


@annotate_app.command("serve")
def annotate_serve(
    annotation_set: Annotated[Path, typer.Argument(help="An annotation set folder (judge check or translations).")],
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
