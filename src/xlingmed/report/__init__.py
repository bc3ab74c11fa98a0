"""``xlingmed report RUN_DIR [RUN_DIR ...]``: figures, statistics and one self-contained HTML page, rebuilt from
the stored results of finished runs (no model is called).

Writes into the output folder (default ``RUN_DIR/report``): ``index.html`` (figures embedded as base64 PNG, no
external resource), ``verdict.txt`` (the verdict paragraphs), ``figures/*.png`` and ``stats/*.csv`` (every table
of ``xlingmed.analysis``). With
several runs, files of run k are prefixed ``runk_`` and the page starts with the models side by side.
"""

from __future__ import annotations

import base64
import contextlib
import sys
import types
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from xlingmed import output
from xlingmed.analysis.records import rows_of
from xlingmed.analysis.verdict_record import MIN_JUDGE_KAPPA, Verdict
from xlingmed.errors import ConfigError
from xlingmed.filemodes import follow_private, is_owner_only
from xlingmed.report import compare, explorer, sections
from xlingmed.report.compare import model_names
from xlingmed.report.load import RunData, load_run
from xlingmed.report.options import ReportOptions as ReportOptions
from xlingmed.report.run_view import ENGINE_PACKAGES as ENGINE_PACKAGES  # kept for callers of their old home
from xlingmed.report.run_view import TOY_MODELS as TOY_MODELS
from xlingmed.report.run_view import ReportContext, run_section
from xlingmed.report.run_view import engines as engines
from xlingmed.report.view_records import AgreementView, ModelsView, RunView
from xlingmed.tasks.registry import task_outcomes
from xlingmed.views import figures
from xlingmed.views.base import encoder_note as encoder_note  # kept for callers of its old home

MODELS_XLABEL = "difference to English: pp (proportions) or the outcome's units; ← worse | better →; filled = inferior"


def _languages(runs: Sequence[RunData]) -> list[str]:
    return list(dict.fromkeys(lg for r in runs for lg in r.languages))




def build_report(
    run_dirs: Sequence[Path],
    out_dir: Path | None = None,
    options: ReportOptions | None = None,
    **settings: Any,
) -> Path:
    """Build the report of ``run_dirs`` and return the path of its ``index.html``.

    ``options`` (``ReportOptions``; or its fields as keyword arguments, ``settings``): ``annotations``, annotation
    sets (``xlingmed annotate sample``), one batch each, whose judge–human agreement per language (XLingEval Table
    A7) is added as a table and written to ``stats/judge_human_agreement.csv``; ``margins`` (``"accuracy=0.05,…"``
    or a mapping), ``alpha`` and ``equivalence``: the non-inferiority verdicts (``analysis.verdicts``), at the top
    of each run and in ``stats/verdicts.csv``; a verdict on a judged outcome is judge-unverified unless
    ``annotations`` measure the judge's κ with humans in its language at ``min_judge_kappa`` or more;
    ``answer_encoder`` (a sentence-transformers model, multilingual for a fair comparison): the similarity of each
    reply with the English reply to the same item.

    Raises:
        ConfigError: a margin that is not a positive number or names no primary outcome; an answer encoder that
            cannot be loaded; an alpha outside (0, 0.5).
        TypeError: ``options`` and keyword settings both, or a setting that is no field of ``ReportOptions``.
        DataNotFoundError: a folder that is not a finished run.
        DataError: a run file that cannot be parsed.
    """
    if options is not None and settings:
        raise TypeError("build_report: give ReportOptions or its fields as keywords, not both")
    if options is None:
        settings["annotations"] = tuple(Path(p) for p in settings.get("annotations") or ())
        options = ReportOptions(**settings)
    if not 0 < options.alpha < 0.5:
        raise ConfigError(f"alpha {options.alpha}: the one-sided level must be between 0 and 0.5")
    context = _context(options)
    runs = [load_run(Path(p)) for p in run_dirs]
    target = Path(out_dir) if out_dir is not None else runs[0].path / "report"
    with contextlib.ExitStack() as stack:
        out = _out_dir(stack, target, runs)
        views = []
        verdicts_of: dict[str, list[Verdict]] = {}
        for k, run in enumerate(runs, start=1):
            prefix = f"run{k}_" if len(runs) > 1 else ""
            view = run_section(run, prefix, out, context)
            views.append(view)
            verdicts_of[model_names(runs)[k - 1]] = view.verdict.raw if view.verdict is not None else []
        models = _models(runs, verdicts_of, out, options)
        agreement, headline = _agreement_and_headline(options.annotations, runs, out)
        html = _template().render(
            title=", ".join(r.label for r in runs), runs=views, comparison=sections.comparison(runs), models=models,
            explorer=explorer.section(runs, model_names(runs)), headline=headline,
            agreement=agreement.table if agreement is not None else None,
            built=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), version=_version(),
            n_resamples=options.n_resamples, seed=options.seed,
        )  # fmt: skip
        html = with_script_hashes(html)
        output.write_atomic(out / "verdict.txt", _verdict_text(views))
        output.write_atomic(out / "index.html", html)
    return target / "index.html"


def _agreement_and_headline(
    annotations: Sequence[Path], runs: list[RunData], out: Path
) -> tuple[AgreementView | None, Mapping[str, Any] | None]:
    """The judge–human agreement of ``annotations`` and the paper's headline numbers (a task view's, free-form),
    each written to ``stats/``."""
    agreement = sections.agreement(annotations)
    if agreement is not None:
        output.write_csv(out / "stats" / "judge_human_agreement.csv", [dict(r) for r in agreement.raw])
    headline = sections.headline(runs)
    if headline is not None and headline.get("rows"):  # a pipeline reads the paper's numbers, with their inputs
        output.write_csv(out / "stats" / "paper_headline.csv", headline["rows"])
    return agreement, headline


def _out_dir(stack: contextlib.ExitStack[Any], target: Path, runs: list[RunData]) -> Path:
    """Where the report is written: beside ``target`` and renamed into place when it can replace it whole (a crash
    leaves the old report whole), else ``target`` itself, file by file; owner-only for a --private run."""
    if _replaceable(target):  # built beside it and renamed into place: a crash leaves the old report whole
        private = any(is_owner_only(r.path) for r in runs)
        out: Path = stack.enter_context(output.staged_dir(target, private=private))
        return out
    # a folder holding other files: written into, file by file (each file whole)
    follow_private([r.path for r in runs], target)  # a report of a --private run, wherever it goes, is private
    return target


def _context(options: ReportOptions) -> ReportContext:
    """The report's settings resolved once: the tasks' outcomes, the margins, the judges' reliability and the human
    labels of the annotations, and the answer encoder (loaded before any file is written)."""
    from xlingmed.analysis.verdicts import parse_margins
    from xlingmed.report import verdicts

    tasks = task_outcomes()  # what the statistics need of each task: analysis imports no task
    deltas = parse_margins(options.margins, tasks)
    judges = verdicts.reliability(options.annotations)
    humans = verdicts.human_values(options.annotations, tasks)  # what the annotators said, for corrected verdicts
    encoder = None
    if options.answer_encoder is not None:  # loaded once, before any file is written
        from xlingmed.metrics.embedding import SentenceSimilarity

        encoder = SentenceSimilarity(options.answer_encoder)
    return ReportContext(options=options, tasks=tasks, deltas=deltas, judges=judges, humans=humans, encoder=encoder)


def _models(
    runs: list[RunData], verdicts_of: dict[str, list[Verdict]], out: Path, options: ReportOptions
) -> ModelsView | None:
    """The comparison of the runs' models (``compare.section``; ``None`` for one model), its tables and forest
    figure written."""
    models = compare.section(runs, _languages(runs), options)
    if models is not None:
        tables = models.tables.tables() if models.tables is not None else {}
        for name, rows in tables.items():
            output.write_csv(out / "stats" / f"models_{name}.csv", rows_of(rows))
        forest_rows = compare.forest_rows(verdicts_of)
        if models.refused is None and not forest_rows.empty:
            png = figures.forest(forest_rows, "Each model's difference to English (one-sided bounds)",
                                 MODELS_XLABEL)
            output.write_atomic(out / "figures" / "models_forest.png", png)
            models.figure = base64.b64encode(png).decode("ascii")
        models.shown = {
            name: sections.table(title, tables.get(name, []))
            for name, title in (
                ("pairs", "Model against model, per language (paired by item; Holm across pairs and languages)"),
                ("ranking", "Ranking per language (bootstrap intervals of the value and of the rank; 1 = best)"),
                ("effects", "Model × language effects (GEE clustered by item; first model and English = baseline)"),
            )
        }
    return models


def _template() -> Any:
    """The report's page template (autoescaped, strict about undefined names)."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("xlingmed.report", "templates"), autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    return env.get_template("report.html.j2")


def _verdict_text(views: list[RunView]) -> str:
    """The verdicts in plain text, one paragraph per run: what a reviewer reads first (and the CLI prints)."""
    paragraphs = []
    for v in views:
        if v.verdict is None:
            continue
        paragraphs.append("\n".join([v.verdict.paragraph, *v.verdict.footnotes]))
        if v.verdict.human is not None:
            paragraphs.append("Human-translated items only: " + v.verdict.human.paragraph)
    return "\n\n".join(paragraphs) + "\n"


def _replaceable(folder: Path) -> bool:
    """``folder`` is absent, empty or an earlier report: a new report may replace it whole."""
    return not folder.exists() or (folder / "index.html").is_file() or (folder.is_dir() and not any(folder.iterdir()))


SCRIPT_HASHES = "'script-hashes'"  # the template's placeholder in its Content-Security-Policy


def with_script_hashes(html: str) -> str:
    """``html`` with its CSP's ``script-src`` naming each inline ``<script>`` by its SHA-256 (CSP Level 2 hash
    sources), so that only the report's own scripts run: no ``'unsafe-inline'``. Model and dataset text cannot add
    one: every ``<`` of theirs is escaped (autoescape, and ``\u003c`` in the explorer's JSON), so ``<script>`` with no
    attribute is only ever the template's."""
    import base64
    import hashlib
    import re

    bodies = re.findall(r"<script>(.*?)</script>", html, flags=re.S)
    sources = " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(b.encode()).digest()).decode()}'" for b in bodies)
    return html.replace(SCRIPT_HASHES, sources or "'none'", 1)


def _version() -> str:
    try:
        return metadata.version("xlingmed")
    except metadata.PackageNotFoundError:
        return "?"


class _CallableModule(types.ModuleType):
    """``xlingmed.report(run_dirs, out_dir=None, …)`` is ``build_report``: the Python API names it ``report``."""

    def __call__(
        self,
        run_dirs: Sequence[Path | str],
        out_dir: Path | str | None = None,
        *,
        n_resamples: int = 2000,
        seed: int = 0,
        annotations: Sequence[Path] = (),
        margins: str | Mapping[str, float] | None = None,
        alpha: float = 0.05,
        equivalence: bool = False,
        min_judge_kappa: float = MIN_JUDGE_KAPPA,
        answer_encoder: str | None = None,
    ) -> Path:
        options = ReportOptions(
            n_resamples=n_resamples, seed=seed, annotations=tuple(Path(p) for p in annotations), margins=margins,
            alpha=alpha, equivalence=equivalence, min_judge_kappa=min_judge_kappa, answer_encoder=answer_encoder,
        )  # fmt: skip
        return build_report([Path(r) for r in run_dirs], Path(out_dir) if out_dir is not None else None, options)


sys.modules[__name__].__class__ = _CallableModule
