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
import json
import sys
import types
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from xlingmed import output
from xlingmed.analysis.crosslingual import answer_agreement, answer_similarity
from xlingmed.analysis.effects import language_effects
from xlingmed.analysis.overview import by_language
from xlingmed.analysis.run import analyse_run, read_scores
from xlingmed.analysis.verdicts import MIN_JUDGE_KAPPA
from xlingmed.benchmarks.odd_rows import skipped_sentence
from xlingmed.errors import ConfigError
from xlingmed.filemodes import follow_private, is_owner_only
from xlingmed.report import compare, explorer, run_figures, sections
from xlingmed.report.compare import model_names
from xlingmed.report.load import RunData, load_run
from xlingmed.safe_paths import child
from xlingmed.tasks.registry import task_outcomes
from xlingmed.tasks.run_views import notes_of, verdict_notes_of
from xlingmed.views import figures
from xlingmed.views.base import Figure, FigureSection, cell, tau
from xlingmed.views.base import encoder_note as encoder_note  # kept for callers of its old home

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
MODELS_XLABEL = "difference to English: pp (proportions) or the outcome's units; ← worse | better →; filled = inferior"


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


def _languages(runs: Sequence[RunData]) -> list[str]:
    return list(dict.fromkeys(lg for r in runs for lg in r.languages))


_fmt = cell  # the report's cell format, shared with the task views
_tau = tau


def build_report(
    run_dirs: Sequence[Path],
    out_dir: Path | None = None,
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
    """Build the report of ``run_dirs`` and return the path of its ``index.html``.

    ``annotations``: annotation sets (``xlingmed annotate sample``), one batch each; their judge–human agreement
    per language (XLingEval Table A7) is added as a table and written to ``stats/judge_human_agreement.csv``.
    ``margins`` (``"accuracy=0.05,…"`` or a mapping), ``alpha`` and ``equivalence``: the non-inferiority verdicts
    (``analysis.verdicts``), at the top of each run and in ``stats/verdicts.csv``; a verdict on a judged outcome
    is judge-unverified unless ``annotations`` measure the judge's κ with humans in its language at
    ``min_judge_kappa`` or more. ``answer_encoder`` (a sentence-transformers model, multilingual for a fair
    comparison): the similarity of each reply with the English reply to the same item.

    Raises:
        ConfigError: a margin that is not a positive number or names no primary outcome; an answer encoder that
            cannot be loaded.
        DataNotFoundError: a folder that is not a finished run.
        DataError: a run file that cannot be parsed.
    """
    import jinja2

    from xlingmed.analysis.verdicts import parse_margins
    from xlingmed.report import verdicts

    if not 0 < alpha < 0.5:
        raise ConfigError(f"alpha {alpha}: the one-sided level must be between 0 and 0.5")
    tasks = task_outcomes()  # what the statistics need of each task: analysis imports no task
    deltas = parse_margins(margins, tasks)
    judges = verdicts.reliability(annotations)
    humans = verdicts.human_values(annotations, tasks)  # what the annotators said, for judge-corrected verdicts
    encoder = None
    if answer_encoder is not None:  # loaded once, before any file is written
        from xlingmed.metrics.embedding import SentenceSimilarity

        encoder = SentenceSimilarity(answer_encoder)
    runs = [load_run(Path(p)) for p in run_dirs]
    target = Path(out_dir) if out_dir is not None else runs[0].path / "report"
    with contextlib.ExitStack() as stack:
        if _replaceable(target):  # built beside it and renamed into place: a crash leaves the old report whole
            private = any(is_owner_only(r.path) for r in runs)
            out = stack.enter_context(output.staged_dir(target, private=private))
        else:  # a folder holding other files: written into, file by file (each file whole)
            out = target
            follow_private([r.path for r in runs], out)  # a report of a --private run, wherever it goes, is private
        views = []
        verdict_rows: dict[str, list[dict[str, Any]]] = {}
        for k, run in enumerate(runs, start=1):
            prefix = f"run{k}_" if len(runs) > 1 else ""
            # a set with different questions per language gets unpaired statistics only (summary: dataset.parallel)
            parallel = bool(run.summary.get("dataset", {}).get("parallel", True))
            tables = analyse_run(run.path, run.languages, tasks=tasks, n_resamples=n_resamples, seed=seed,
                                 parallel=parallel)  # fmt: skip
            for name, rows in tables.items():
                output.write_csv(child(out / "stats", f"{prefix}{name}.csv"), rows)
            figs, figure_sections = run_figures.figures_of(run, tables)
            for name, png in figs.items():
                output.write_atomic(child(out / "figures", f"{prefix}{name}.png"), png)
            scores = read_scores(run.path, tasks)
            settings: dict[str, Any] = dict(
                alpha=alpha, equivalence=equivalence, judges=judges, min_judge_kappa=min_judge_kappa,
                n_resamples=n_resamples, seed=seed, parallel=parallel, humans=humans,
            )  # fmt: skip
            verdict = verdicts.section(scores, run.summary, run.languages, deltas, **settings)
            if verdict["corrected"]:  # each judged outcome three ways: judge only, human only, corrected
                output.write_csv(out / "stats" / f"{prefix}judge_corrected.csv", verdict["corrected"])
            notes = verdict_notes_of(run.summary)  # e.g. a refusal or harm gap belongs in the verdict a reader sees
            verdict["footnotes"] = [*notes, *verdict["footnotes"]]
            output.write_csv(out / "stats" / f"{prefix}verdicts.csv", [v.row() for v in verdict["raw"]])
            by_people = verdicts.human_translated(scores)
            verdict["human"] = None
            if by_people is not None:  # the set mixes human and machine translations: the verdicts on both
                langs = [lg for lg in run.languages if lg in set(by_people["lang"])]
                verdict["human"] = verdicts.section(by_people, run.summary, langs, deltas, **settings)
                output.write_csv(out / "stats" / f"{prefix}verdicts_human_translated.csv",
                                 [v.row() for v in verdict["human"]["raw"]])
            effects = language_effects(scores, run.languages, tasks=tasks)
            output.write_csv(out / "stats" / f"{prefix}language_effects.csv", effects)
            # agreement compares the readings of the same question: a set without shared questions has none
            agreement_rows = answer_agreement(scores, run.languages, tasks=tasks) if parallel else []
            output.write_csv(out / "stats" / f"{prefix}crosslingual_agreement.csv", agreement_rows)
            if verdict["corrected"]:  # the three intervals of each judged outcome, drawn
                drawn = figures.three_ways(verdict["corrected"], verdicts.CORRECTED_TITLE)
                output.write_atomic(out / "figures" / f"{prefix}judge_corrected.png", drawn)
                figure_sections.append(FigureSection(verdicts.CORRECTED_TITLE, [Figure(
                    "judge_corrected", drawn, "each judged outcome's gap three ways: judge only, human only, corrected"
                )], verdicts.CORRECTED_NOTE))  # fmt: skip
            view = _view(run, tables, figs, figure_sections)
            view["stat_tables"][:0] = [
                sections.table(AGREEMENT_TITLE, agreement_rows, AGREEMENT_NOTE),
                sections.table(EFFECTS_TITLE, effects, EFFECTS_NOTE),
            ]
            if verdict["corrected"]:
                corrected_table = verdicts.three_ways(verdict["corrected"])
                view["stat_tables"].insert(0, sections.table(verdicts.CORRECTED_TITLE, corrected_table,
                                                             verdicts.CORRECTED_NOTE))  # fmt: skip
            if encoder is not None:
                similar = answer_similarity(sections.reply_texts(run), run.languages, encoder)
                output.write_csv(out / "stats" / f"{prefix}crosslingual_similarity.csv", similar)
                view["stat_tables"].insert(1, sections.table(SIMILARITY_TITLE, similar, SIMILARITY_NOTE))
            views.append({**view, "verdict": verdict})
            verdict_rows[model_names(runs)[k - 1]] = verdict["raw"]
        models = compare.section(runs, _languages(runs), n_resamples=n_resamples, seed=seed)
        if models is not None:
            for name, rows in models["tables"].items():
                output.write_csv(out / "stats" / f"models_{name}.csv", rows)
            models["figure"] = None
            forest_rows = compare.forest_rows(verdict_rows)
            if models["refused"] is None and not forest_rows.empty:
                png = figures.forest(forest_rows, "Each model's difference to English (one-sided bounds)",
                                     MODELS_XLABEL)
                output.write_atomic(out / "figures" / "models_forest.png", png)
                models["figure"] = base64.b64encode(png).decode("ascii")
            models["shown"] = {
                name: sections.table(title, models["tables"].get(name, []))
                for name, title in (
                    ("pairs", "Model against model, per language (paired by item; Holm across pairs and languages)"),
                    ("ranking", "Ranking per language (bootstrap intervals of the value and of the rank; 1 = best)"),
                    ("effects", "Model × language effects (GEE clustered by item; first model and English = baseline)"),
                )
            }
        agreement = sections.agreement(annotations)
        if agreement is not None:
            output.write_csv(out / "stats" / "judge_human_agreement.csv", agreement["raw"])
        env = jinja2.Environment(
            loader=jinja2.PackageLoader("xlingmed.report", "templates"), autoescape=True,
            undefined=jinja2.StrictUndefined,
        )
        headline = sections.headline(runs)
        if headline is not None and headline.get("rows"):  # a pipeline reads the paper's numbers, with their inputs
            output.write_csv(out / "stats" / "paper_headline.csv", headline["rows"])
        html = env.get_template("report.html.j2").render(
            title=", ".join(r.label for r in runs),
            runs=views,
            comparison=sections.comparison(runs),
            models=models,
            explorer=explorer.section(runs, model_names(runs)),
            headline=headline,
            agreement=agreement["table"] if agreement is not None else None,
            built=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
            version=_version(),
            n_resamples=n_resamples,
            seed=seed,
        )
        html = with_script_hashes(html)
        # the verdicts in plain text, one paragraph per run: what a reviewer reads first (and the CLI prints)
        paragraphs = []
        for v in views:
            paragraphs.append("\n".join([v["verdict"]["paragraph"], *v["verdict"]["footnotes"]]))
            if v["verdict"]["human"] is not None:
                paragraphs.append("Human-translated items only: " + v["verdict"]["human"]["paragraph"])
        output.write_atomic(out / "verdict.txt", "\n\n".join(paragraphs) + "\n")
        output.write_atomic(out / "index.html", html)
    return target / "index.html"


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


def _view(
    run: RunData, tables: dict[str, list[dict[str, Any]]], figs: dict[str, bytes], figure_sections: list[FigureSection]
) -> dict[str, Any]:
    gaps = []
    for g in tables["gaps"]:
        unpaired = g.get("design") == "unpaired"
        p = g.get("p") if unpaired else run_figures.p_holm(tables["paired"], g)
        gaps.append(
            {
                "criterion": g["criterion"],
                "metric": g["metric"],
                "temperature": "–" if run_figures.one_temperature(g["criterion"]) else _tau(g["temperature"]),
                "lang": g["lang"],
                # unpaired: each language's own questions, and the test that fits them (Welch's t / Fisher)
                "n_items": f"{g['n_items']} vs {g['n_reference']}" if unpaired else g["n_items"],
                "excluded": "–" if unpaired else g["excluded_missing_reference"] + g["excluded_missing_lang"],
                "design": f"unpaired, {g['test'].replace('_', ' ')}" if unpaired else "paired, Holm",
                "mean_reference": _fmt(g["mean_reference"]),
                "mean_lang": _fmt(g["mean_lang"]),
                "gap": _fmt(g["gap"]),
                "ci": "–" if g["ci_low"] is None else f"[{_fmt(g['ci_low'])}, {_fmt(g['ci_high'])}]",
                "effect": "–" if g["effect_size"] is None else f"{g['effect_size_name']} {_fmt(g['effect_size'], 2)}",
                "p": _fmt(p),
                "significant": p is not None and p < 0.05,
            }
        )
    stat_tables = [
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
    return {
        "label": run.label,
        "header": {
            "benchmark": run.summary.get("benchmark", "?"),
            "model": run.summary.get("model", "?"),
            "n_items": ", ".join(f"{k}: {v}" for k, v in run.summary.get("n_items_per_language", {}).items()),
            "judge": run.summary.get("judge") or "–",
            "translator": run.summary.get("translator") or "–",
            "engines": engines(run),
        },
        "languages": run.languages,
        "toy": run.summary.get("model") in TOY_MODELS,
        "skipped": skipped_sentence(run.summary.get("dataset") or {}),
        "uneven": [
            f"{task}: {', '.join(f'{lang} {n}' for lang, n in b['fewer'].items())} scored items, against {b['most']}"
            for task, b in run.summary.get("uneven_losses", {}).items()
        ],
        "gaps": gaps,
        "figures": {k: base64.b64encode(v).decode("ascii") for k, v in figs.items()},
        "figure_sections": [
            {
                "title": sec.title,
                "note": sec.note,
                "images": [{"alt": f.alt, "png": base64.b64encode(f.png).decode("ascii")} for f in sec.figures],
            }
            for sec in figure_sections
        ],
        "counts": sections.counts(run),
        "parsing": sections.parsing(run),
        "stat_tables": [t for t in stat_tables if t["rows"]],
        "notes": notes_of(run.summary),
        "manifest": json.dumps(run.manifest, indent=2, ensure_ascii=False),
    }


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
        return build_report(
            [Path(r) for r in run_dirs],
            Path(out_dir) if out_dir is not None else None,
            n_resamples=n_resamples,
            seed=seed,
            annotations=annotations,
            margins=margins,
            alpha=alpha,
            equivalence=equivalence,
            min_judge_kappa=min_judge_kappa,
            answer_encoder=answer_encoder,
        )


sys.modules[__name__].__class__ = _CallableModule
