"""One run's part of the report (``report.build_report``): its statistics, figures and verdicts written to the report
folder, and the view its template renders."""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xlingmed import output
from xlingmed.analysis.corrected_verdicts import HumanLabels
from xlingmed.analysis.crosslingual import answer_agreement, answer_similarity
from xlingmed.analysis.effects import language_effects
from xlingmed.analysis.gaps import UnpairedGap
from xlingmed.analysis.overview import by_language
from xlingmed.analysis.records import rows_of
from xlingmed.analysis.run import RunStats, analyse_run, read_scores
from xlingmed.benchmarks.odd_rows import skipped_sentence
from xlingmed.outcomes import TaskOutcome
from xlingmed.report import run_figures, sections
from xlingmed.report.load import RunData
from xlingmed.report.options import ReportOptions
from xlingmed.report.view_records import (
    FigureSectionView,
    FigureView,
    GapView,
    RunHeader,
    RunView,
    TableView,
    VerdictSection,
)
from xlingmed.safe_paths import child
from xlingmed.tasks.registry import task_outcomes
from xlingmed.tasks.run_views import notes_of, verdict_notes_of
from xlingmed.views import figures
from xlingmed.views.base import Figure, FigureSection, cell, tau

TOY_MODELS = ("llamacpp/smollm2", "llamacpp/gemma3-270m")
EFFECTS_TITLE = "Language effects on each primary outcome (GEE, exchangeable correlation clustered by item)"
EFFECTS_NOTE = (
    "Coefficient against English: log odds ratio for binary outcomes (marginal_difference: the fitted share in the "
    "language minus in English), a difference in the outcome's units for continuous ones; robust 95% CIs."
)
AGREEMENT_TITLE = "Cross-lingual answer agreement: the same reading as in English, item by item"
AGREEMENT_NOTE = (
    "What was read from each reply (the chosen option, the judge's label, a claim's yes/no) compared with the English "
    "reading of the same item: share alike and Cohen's κ; lang = all: alike in every language, Fleiss' κ."
)
SIMILARITY_TITLE = "Cross-lingual answer similarity: each reply against the English reply to the same item"
SIMILARITY_NOTE = "Cosine similarity of sentence embeddings (the encoder named by --answer-encoder), per item."


# The package behind each provider, whose version the manifest records: two runs on different engines differ.
ENGINE_PACKAGES = {"llamacpp": "llama-cpp-python", "hf": "transformers", "openai": "openai", "litellm": "litellm"}


def engines(run: RunData) -> str:
    """``"llamacpp/smollm2: llama-cpp-python 0.3.36"`` for the model, judge and translator of a run."""
    packages = run.manifest.get("packages") or {}
    names = dict.fromkeys(str(run.summary.get(k)) for k in ("model", "judge", "translator") if run.summary.get(k))
    out = []
    for name in names:
        package = ENGINE_PACKAGES.get(name.split("/", 1)[0])
        out.append(f"{name}: {package} {packages.get(package) or '?'}" if package else name)
    return "; ".join(out) or "–"


_fmt = cell  # the report's cell format, shared with the task views
_tau = tau


@dataclass(frozen=True)
class ReportContext:
    """What every run's part of a report is computed with (``build_report``'s options, resolved once): the tasks'
    outcomes, the margins, the judge's reliability and the human labels of the annotations, the answer encoder."""

    options: ReportOptions
    tasks: dict[str, TaskOutcome]
    deltas: dict[str, float]
    judges: Mapping[tuple[str, str], Mapping[str, object]]
    humans: Mapping[str, HumanLabels]
    encoder: Any


def run_section(run: RunData, prefix: str, out: Path, ctx: ReportContext) -> RunView:
    """Writes one run's statistics (``stats/PREFIX*.csv``) and figures, and returns its view with its verdict."""
    from xlingmed.report import verdicts

    # a set with different questions per language gets unpaired statistics only (summary: dataset.parallel)
    parallel = bool(run.summary.get("dataset", {}).get("parallel", True))
    tables, figs, figure_sections = _stats(run, prefix, out, ctx, parallel)
    scores = read_scores(run.path, ctx.tasks)
    verdict = _verdict(run, scores, prefix, out, ctx, parallel)
    effects = language_effects(scores, run.languages, tasks=ctx.tasks)
    output.write_csv(out / "stats" / f"{prefix}language_effects.csv", rows_of(effects))
    # agreement compares the readings of the same question: a set without shared questions has none
    agreement_rows = answer_agreement(scores, run.languages, tasks=ctx.tasks) if parallel else []
    output.write_csv(out / "stats" / f"{prefix}crosslingual_agreement.csv", rows_of(agreement_rows))
    if verdict.corrected:  # the three intervals of each judged outcome, drawn
        drawn = figures.three_ways(verdict.corrected, verdicts.CORRECTED_TITLE)
        output.write_atomic(out / "figures" / f"{prefix}judge_corrected.png", drawn)
        figure_sections.append(FigureSection(verdicts.CORRECTED_TITLE, [Figure(
            "judge_corrected", drawn, "each judged outcome's gap three ways: judge only, human only, corrected"
        )], verdicts.CORRECTED_NOTE))  # fmt: skip
    view = run_view(run, tables, figs, figure_sections)
    view.verdict = verdict
    view.stat_tables[:0] = [
        sections.table(AGREEMENT_TITLE, agreement_rows, AGREEMENT_NOTE),
        sections.table(EFFECTS_TITLE, effects, EFFECTS_NOTE),
    ]
    if verdict.corrected:
        corrected_table = verdicts.three_ways(verdict.corrected)
        view.stat_tables.insert(0, sections.table(verdicts.CORRECTED_TITLE, corrected_table,
                                                     verdicts.CORRECTED_NOTE))  # fmt: skip
    if ctx.encoder is not None:
        similar = answer_similarity(sections.reply_texts(run), run.languages, ctx.encoder)
        output.write_csv(out / "stats" / f"{prefix}crosslingual_similarity.csv", rows_of(similar))
        view.stat_tables.insert(1, sections.table(SIMILARITY_TITLE, similar, SIMILARITY_NOTE))
    return view


def _stats(
    run: RunData, prefix: str, out: Path, ctx: ReportContext, parallel: bool
) -> tuple[RunStats, dict[str, bytes], list[FigureSection]]:
    """The run's statistics and figures, written: (tables, figures, figure sections)."""
    stats = analyse_run(run.path, run.languages, tasks=ctx.tasks, n_resamples=ctx.options.n_resamples,
                        seed=ctx.options.seed, parallel=parallel)  # fmt: skip
    for name, rows in stats.tables().items():
        output.write_csv(child(out / "stats", f"{prefix}{name}.csv"), rows_of(rows))
    figs, figure_sections = run_figures.figures_of(run, stats)
    for name, png in figs.items():
        output.write_atomic(child(out / "figures", f"{prefix}{name}.png"), png)
    return stats, figs, figure_sections


def _verdict(run: RunData, scores: Any, prefix: str, out: Path, ctx: ReportContext, parallel: bool) -> VerdictSection:
    """The run's verdicts (``report.verdicts.section``; ``human``: those on human-translated items only where the set
    mixes them), written to ``stats/``."""
    from xlingmed.report import verdicts

    options = ctx.options.verdicts(ctx.judges, parallel)
    verdict = verdicts.section(scores, run.summary, run.languages, ctx.deltas, options=options, humans=ctx.humans)
    if verdict.corrected:  # each judged outcome three ways: judge only, human only, corrected
        output.write_csv(out / "stats" / f"{prefix}judge_corrected.csv", rows_of(verdict.corrected))
    notes = verdict_notes_of(run.summary)  # e.g. a refusal or harm gap belongs in the verdict a reader sees
    verdict.footnotes = [*notes, *verdict.footnotes]
    output.write_csv(out / "stats" / f"{prefix}verdicts.csv", rows_of(verdict.raw))
    by_people = verdicts.human_translated(scores)
    if by_people is not None:  # the set mixes human and machine translations: the verdicts on both
        langs = [lg for lg in run.languages if lg in set(by_people["lang"])]
        verdict.human = verdicts.section(by_people, run.summary, langs, ctx.deltas, options=options,
                                         humans=ctx.humans)  # fmt: skip
        output.write_csv(out / "stats" / f"{prefix}verdicts_human_translated.csv", rows_of(verdict.human.raw))
    return verdict


def run_view(run: RunData, tables: RunStats, figs: dict[str, bytes], figure_sections: list[FigureSection]) -> RunView:
    """One run's part of the report: its header, gaps, figures, counts and tables (the verdict added by
    ``run_section``)."""
    summary = run.summary
    header = RunHeader(
        benchmark=summary.get("benchmark", "?"), model=summary.get("model", "?"),
        n_items=", ".join(f"{k}: {v}" for k, v in summary.get("n_items_per_language", {}).items()),
        judge=summary.get("judge") or "–", translator=summary.get("translator") or "–", engines=engines(run),
    )  # fmt: skip
    return RunView(
        label=run.label, header=header, languages=run.languages, toy=summary.get("model") in TOY_MODELS,
        skipped=skipped_sentence(summary.get("dataset") or {}),
        uneven=[
            f"{task}: {', '.join(f'{lang} {n}' for lang, n in b['fewer'].items())} scored items, against {b['most']}"
            for task, b in summary.get("uneven_losses", {}).items()
        ],
        gaps=_gap_rows(tables),
        figures={k: base64.b64encode(v).decode("ascii") for k, v in figs.items()},
        figure_sections=[
            FigureSectionView(sec.title, sec.note, [FigureView(f.alt, base64.b64encode(f.png).decode("ascii"))
                                                    for f in sec.figures])
            for sec in figure_sections
        ],
        counts=sections.counts(run), parsing=sections.parsing(run),
        stat_tables=[t for t in _stat_tables(run, tables) if t.rows], notes=notes_of(summary),
        manifest=json.dumps(run.manifest, indent=2, ensure_ascii=False),
    )  # fmt: skip


def _gap_rows(stats: RunStats) -> list[GapView]:
    """The gaps table's rows, formatted (paired: Holm-adjusted p; unpaired: the test that fits them)."""
    gaps: list[GapView] = []
    for g in stats.gaps:
        key = g.key
        assert key is not None  # analyse_run keys every gap
        n_items: int | str
        excluded: int | str
        if isinstance(g, UnpairedGap):  # each language's own questions, and the test that fits them (Welch / Fisher)
            p, n_items, excluded = g.p, f"{g.n_items} vs {g.n_reference}", "–"
            design = f"unpaired, {g.test.replace('_', ' ')}"
        else:
            p, n_items, excluded = run_figures.p_holm(stats.paired, g), g.n_items, \
                g.excluded_missing_reference + g.excluded_missing_lang
            design = "paired, Holm"
        gaps.append(GapView(
            criterion=key.criterion, metric=key.metric,
            temperature="–" if run_figures.one_temperature(key.criterion) else _tau(key.temperature),
            lang=g.lang, n_items=n_items, excluded=excluded, design=design,
            mean_reference=_fmt(g.mean_reference), mean_lang=_fmt(g.mean_lang), gap=_fmt(g.gap),
            ci="–" if g.ci_low is None else f"[{_fmt(g.ci_low)}, {_fmt(g.ci_high)}]",
            effect="–" if g.effect_size is None else f"{g.effect_size_name} {_fmt(g.effect_size, 2)}",
            p=_fmt(p), significant=p is not None and p < 0.05,
        ))  # fmt: skip
    return gaps


def _stat_tables(run: RunData, tables: RunStats) -> list[TableView]:
    """The run's statistics tables, as the template shows them."""
    return [
        *sections.task_tables(run),
        sections.table(
            "Every outcome per language, from the Scores: mean (scored units), and what could not be scored",
            by_language(read_scores(run.path, task_outcomes()), run.languages),
            "Binary outcomes are shares (0–1); units not scored (failed requests, unread replies) are excluded from "
            "the mean and from every test.",
        ),
        sections.table("Omnibus tests across languages (Friedman; Cochran's Q for binary outcomes)", tables["omnibus"]),
        sections.table("Paired tests per language pair (Holm-adjusted across pairs)", tables["paired"]),
        sections.table(
            "Paper: one-way ANOVA (languages as independent groups, listwise deletion)",
            tables["paper_anova"],
            "As XLingEval §4.2 / Table 2: statsmodels OLS value ~ C(lang), anova_lm typ 2.",
        ),
        sections.table("Paper: Tukey HSD, 95% CI", tables["paper_tukey"], "meandiff = mean(group2) − mean(group1)."),
        sections.table("Paper: unpaired Student t-tests (uncorrected)", tables["paper_unpaired_t"]),
    ]
