"""``xlingmed import`` (another tool's logs → a run folder, ``importers/``) and ``xlingmed export`` (a run folder →
another tool's log format, ``exporters/``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from xlingmed.cli.app import app
from xlingmed.cli.common import console, fail, fmt, set_format, write_report
from xlingmed.cli.tables import FormatOption
from xlingmed.cli.views import print_summary
from xlingmed.errors import ConfigError, XlingmedError

if TYPE_CHECKING:
    from xlingmed.importers.base import ImportedLog


@app.command("import")
def import_logs(
    fmt: Annotated[str, typer.Argument(metavar="FORMAT", help="lm-eval, inspect or lighteval.")],
    paths: Annotated[list[Path], typer.Argument(help="The tool's output files or folders.")],
    out: Annotated[Path, typer.Option(help="The run folder to write.")],
    rescore: Annotated[bool, typer.Option(help="Read the raw replies again with xlingmed's answer extraction; the "
                                          "source's reading is kept beside it.")] = False,
    metric: Annotated[str | None, typer.Option(help="The per-sample 0/1 metric to take (default: acc, "
                                               "exact_match, or the task's first).")] = None,
    language_from: Annotated[str | None, typer.Option(help="Where a sample's language is: 'task' (the task name) "
                                                      "or a field path such as doc.language.")] = None,
    pair_by: Annotated[str | None, typer.Option(help="The field path of the item id shared across languages "
                                                "(doc.sample_id; a+b joins several).")] = None,
    model: Annotated[str | None, typer.Option(help="The model's name in the run folder, provider/model (default: "
                                              "as the tool logged it).")] = None,
    language: Annotated[list[str] | None, typer.Option(
        "--language", help="The language of the whole log (CODE: any BCP-47 code, e.g. en, ca, th), or of one task or "
        "file (TASK=CODE, FILE=CODE; repeat). It overrides what names and fields say.")] = None,
    allow_partial: Annotated[bool, typer.Option(help="Import a task whose samples are fewer than the tool's results "
                                                "file says (recorded in the manifest).")] = False,
    overwrite: Annotated[bool, typer.Option(help="Replace OUT where it is an earlier run folder.")] = False,
    pool_tasks: Annotated[bool, typer.Option(help="Treat the log's tasks as one set (items paired by id across "
                                             "tasks, one row per language); by default each task is apart.")] = False,
    private: Annotated[bool, typer.Option(help="Make the run folder readable by you alone.")] = False,
    answer_marker: Annotated[str | None, typer.Option(help="With --rescore: the marker the replies were asked to "
                                                      "end with ('ANSWER:', '【回答】'); by default the one each "
                                                      "logged prompt asks for.")] = None,
    reading: Annotated[str, typer.Option(help="With --rescore: 'strict' (a reply only a fallback rule would read "
                                         "gives no option) or 'lenient' (it does).")] = "strict",
    report: Annotated[bool, typer.Option("--report/--no-report", help="Write OUT/report at the end.")] = True,
    output_format: FormatOption = "text",
) -> None:
    """Import another tool's per-sample results as a run folder: per-language accuracy equal to the tool's, with
    xlingmed's paired gaps, verdicts and explorer (``xlingmed report OUT`` as on any run)."""
    from xlingmed.importers import read_logs
    from xlingmed.importers.families import LanguageOption
    from xlingmed.importers.run_folder import write_run
    from xlingmed.parsing.choice import READINGS

    set_format(output_format)
    try:
        if out.exists() and not overwrite and (not out.is_dir() or any(out.iterdir())):
            raise ConfigError(f"--out {out}: exists; --overwrite replaces it (an earlier run folder only)")
        log = read_logs(fmt, paths, metric=metric, language_from=language_from, pair_by=pair_by,
                        language=LanguageOption.parse(language), allow_partial=allow_partial)  # fmt: skip
        _name_model(log, model)
        if reading not in READINGS:
            raise ConfigError(f"--reading {reading!r}: one of {', '.join(READINGS)}")
        if rescore:  # how the replies were read again, recorded with the log's settings (manifest)
            log.settings["reading"] = reading
            log.settings.update({} if answer_marker is None else {"answer_marker": answer_marker})
        summary = write_run(log, out, rescore=rescore, private=private, overwrite=True, pool=pool_tasks)
    except XlingmedError as exc:
        fail(exc)
        return
    print_summary(summary)
    _print_import_notes(log, summary, out, rescore)
    if report:
        write_report(out, show_verdict=True)


def _name_model(log: ImportedLog, model: str | None) -> None:
    """The log's model as ``--model`` names it (required where the log holds several: ``ConfigError``)."""
    if len(log.models_logged) > 1 and model is None:
        raise ConfigError(f"logs of several models ({', '.join(log.models_logged)}): import each into its own "
                          "run, or name the one model they are with --model provider/name")  # fmt: skip
    if model is not None:  # the tool's own name is often a bare checkpoint or "smollm2"
        log.settings["model_as_logged"], log.model = log.model, model


def _print_import_notes(log: ImportedLog, summary: dict[str, Any], out: Path, rescore: bool) -> None:
    """After the summary: how the replies were read again, the partial tasks and those whose sample count no
    results file gives, and what was written."""
    if rescore:
        _print_readings(summary["imported"]["readings"], log.tool)
        for task, why in summary["imported"].get("rescore_kept", {}).items():
            console.print(f"note: --rescore kept {log.tool}'s reading of task {task}: {why}", highlight=False)
    for task in log.partial:
        counted = log.counts.get(task, {})
        said = (f"{counted.get('logged')} of {counted.get('expected')} samples"
                if counted.get("logged") != counted.get("expected") else "its run did not finish")  # fmt: skip
        console.print(f"note: task {task} is partial (--allow-partial): {said}", highlight=False)
    unchecked = [t for t, c in log.counts.items() if c.get("expected") is None]
    if unchecked:
        console.print(f"note: no results file gives the sample count of {', '.join(unchecked[:5])}"
                      f"{' …' if len(unchecked) > 5 else ''}: a partial log cannot be told from a whole one",
                      highlight=False)  # fmt: skip
    version = f" {log.version}" if log.version else " (version not logged)"
    console.print(f"wrote {out}  imported from {log.tool}{version}: {len(log.answers)} samples, "
                  f"{len(log.tasks)} tasks, languages {', '.join(log.languages)}", highlight=False)  # fmt: skip


def _print_readings(readings: dict[str, dict[str, float | None]], tool: str) -> None:
    """Per language: replies each reading left unread, replies read differently, and both accuracies."""
    from rich.table import Table

    table = Table(title=f"{tool}'s reading of the replies against xlingmed's (--rescore)")
    for name in ("lang", "replies", f"unread by {tool}", "unread by xlingmed", "read differently",
                 "right by xlingmed only", f"right by {tool} only", f"accuracy ({tool})",
                 "accuracy (xlingmed)"):  # fmt: skip
        table.add_column(name, justify="left" if name == "lang" else "right")
    # the two accuracies differ by exactly (right by xlingmed only − right by the tool only) / replies
    for lang, r in readings.items():
        counts = (fmt(r.get(k), 0) for k in ("n", "source_unread", "xlingmed_unread", "read_differently",
                                              "right_by_xlingmed_only", "right_by_source_only"))  # fmt: skip
        shares = (fmt(None if (v := r[k]) is None else 100 * v, 1) for k in ("source_accuracy", "xlingmed_accuracy"))
        table.add_row(lang, *counts, *shares)
    console.print(table)


@app.command("export")
def export_run(
    fmt: Annotated[str, typer.Argument(metavar="FORMAT", help="inspect (an inspect_ai .eval log).")],
    run_dir: Annotated[Path, typer.Argument(help="A run folder.")],
    out: Annotated[Path | None, typer.Option(help="The log file (default: RUN_DIR/export/<task>.eval).")] = None,
) -> None:
    """Write a run folder in another tool's log format (``inspect view`` then browses it)."""
    from xlingmed.exporters import export

    try:
        written = export(fmt, run_dir, out)
    except XlingmedError as exc:
        fail(exc)
        return
    for path in written:
        console.print(f"wrote {path}", highlight=False)
