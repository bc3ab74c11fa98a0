"""``xlingmed report RUN_DIR [RUN_DIR ...]``: figures, statistics and one self-contained HTML page, rebuilt from
the stored results of finished runs (no model is called).

Writes into the output folder (default ``RUN_DIR/report``): ``index.html`` (figures embedded as base64 PNG, no
external resource), ``figures/*.png`` and ``stats/*.csv`` (every table of ``xlingmed.analysis.run``). With
several runs, files of run k are prefixed ``runk_`` and the page starts with the models side by side.
"""

from __future__ import annotations

import base64
import json
import sys
import types
from collections.abc import Sequence
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import pandas as pd

from xlingmed import output
from xlingmed.analysis.overview import by_language
from xlingmed.analysis.run import analyse_run, read_scores
from xlingmed.report import figures
from xlingmed.report.load import RunData, load_run
from xlingmed.views.base import REPORT, cell, losses_of, tables_of, tau
from xlingmed.views.open_qa import encoder_note

TOY_MODELS = ("llamacpp/smollm2", "llamacpp/gemma3-270m")


_fmt = cell  # the report's cell format, shared with the task views
_tau = tau


def _p_holm(paired: list[dict[str, Any]], g: dict[str, Any]) -> float | None:
    for r in paired:
        same = (r["criterion"], r["metric"], r["temperature"]) == (g["criterion"], g["metric"], g["temperature"])
        if same and {r["lang_a"], r["lang_b"]} == {g["reference"], g["lang"]}:
            p = r.get("p_t_holm") if "p_t_holm" in r else r.get("p_mcnemar_holm")
            return None if p is None else float(p)
    return None


def _forest_rows(run: RunData, gaps: list[dict[str, Any]], paired: list[dict[str, Any]]) -> pd.DataFrame:
    """The gaps shown in the forest plot: correctness outcomes, verifiability per τ, consistency (Table A9
    metrics) averaged over τ; in % of English (continuous) or pp (binary), left = worse."""
    cons = run.summary.get("tasks", {}).get("consistency")
    a9 = set(cons["table_a9"]["columns"]) if cons else set()
    rows = []
    for g in gaps:
        if g["gap"] is None:
            continue
        if g["criterion"] == "consistency" and (g["temperature"] is not None or g["metric"] not in a9):
            continue
        if g.get("effect_size_name") != "cohen_h":  # continuous: % of the English value
            if not g["mean_reference"]:
                continue
            scale = 100.0 / g["mean_reference"]
        else:  # binary: percentage points
            scale = 100.0
        sign = 1.0 if g["higher_is_better"] else -1.0
        eff = sign * g["gap"] * scale
        lo = g["ci_low"] if g["ci_low"] is not None else g["gap"]
        hi = g["ci_high"] if g["ci_high"] is not None else g["gap"]
        ends = sorted([sign * lo * scale, sign * hi * scale])
        p = _p_holm(paired, g)
        if g["criterion"] == "correctness":
            tau = ""
        elif g["temperature"] is None:
            tau = " (mean over τ)"
        else:
            tau = f" τ={_tau(g['temperature'])}"
        rows.append(
            {
                "label": f"{g['criterion']}: {g['metric']}{tau} [{g['lang']}]",
                "lang": g["lang"],
                "effect": eff,
                "low": ends[0],
                "high": ends[1],
                "significant": p is not None and p < 0.05,
            }
        )
    return pd.DataFrame(rows)


def _counts(run: RunData) -> list[dict[str, Any]]:
    """What each task could not score, per language (each task's view says what it counts)."""
    return losses_of(run.summary, run.languages)


def _parsing(run: RunData) -> dict[str, Any]:
    """How replies were read per task × method × language, and the >5 % warnings (``parsing.methods``).

    Runs written before xlingmed 0.2 have no ``parsing`` block: it is counted from their task CSVs."""
    from xlingmed.parsing.methods import kind_of, parse_counts, parse_key

    langs = run.languages
    rows: list[dict[str, Any]] = []
    warnings: list[str] = []
    for name, task in run.summary.get("tasks", {}).items():
        block = task.get("parsing")
        if block is None and name in run.tables:
            records = [{str(k): v for k, v in r.items()} for r in run.tables[name].to_dict("records")]
            key = parse_key(records)
            block = parse_counts(records, langs, method_key=key) if key else None
        if block is None:
            continue
        methods = sorted({m for lg in langs for m in block["methods"].get(lg, {})}, key=lambda m: (kind_of(m), m))
        for m in methods:
            cells = [block["methods"].get(lg, {}).get(m, 0) for lg in langs]
            rows.append({"what": f"{name}: {m} ({kind_of(m)})", "cells": cells})
        rows.append(
            {
                "what": f"{name}: share not read by a direct rule",
                "cells": [
                    "–" if block["not_read_share"].get(lg) is None else f"{100 * block['not_read_share'][lg]:.1f}%"
                    for lg in langs
                ],
            }
        )
        warnings += [f"{name}: {w}" for w in block["warnings"]]
    return {"rows": rows, "warnings": warnings}


def _table(title: str, rows: list[dict[str, Any]], note: str = "") -> dict[str, Any]:
    columns = list(rows[0]) if rows else []
    return {
        "title": title,
        "note": note,
        "columns": columns,
        "rows": [[_fmt(r.get(c)) if c != "temperature" else _tau(r.get(c)) for c in columns] for r in rows],
    }


def _headline(runs: list[RunData]) -> dict[str, Any] | None:
    """XLingEval's two abstract numbers over the correctness runs with English (``analysis.paper``); one
    dataset per benchmark (the last run of a benchmark counts when several models judged it)."""
    from xlingmed.analysis.paper import headline_numbers

    counts: dict[str, dict[str, dict[str, int]]] = {}
    models: set[str] = set()
    for run in runs:
        corr = run.summary.get("tasks", {}).get("correctness")
        if corr and "en" in corr["languages"] and len(corr["languages"]) > 1:
            counts[str(run.summary.get("benchmark"))] = {lg: s["counts"] for lg, s in corr["languages"].items()}
            models.add(str(run.summary.get("model")))
    if not counts:
        return None
    h = headline_numbers(counts)

    def fmt(v: float | None, unit: str) -> str:
        return "–" if v is None else f"{v:.2f}{unit}"

    return {
        "fewer": fmt(h["fewer_comprehensive_pp"], " %"),
        "times": fmt(h["times_more_contradictory"], "×"),
        "datasets": ", ".join(counts),
        "models": ", ".join(sorted(models)),
        "per_dataset": [
            {
                "dataset": d,
                "fewer": fmt(v["fewer_comprehensive_pp"], " pp"),
                "times": fmt(v["times_more_contradictory"], "×"),
            }
            for d, v in h["per_dataset"].items()
        ],
    }


def _comparison(runs: list[RunData]) -> dict[str, Any] | None:
    if len(runs) < 2:
        return None
    langs = list(dict.fromkeys(lg for r in runs for lg in r.languages))
    rows = []
    for r in runs:
        tasks = r.summary.get("tasks", {})
        if "correctness" in tasks:
            c = tasks["correctness"]["languages"]
            vals = [_fmt((c[lg]["proportions"] or {}).get("contradictory")) if lg in c else "–" for lg in langs]
            rows.append({"metric": "correctness: share contradictory", "run": r.label, "cells": vals})
        if "verifiability" in tasks:
            v = tasks["verifiability"]["languages"]
            vals = [_fmt(v[lg]["mean_over_temperatures"]["macro_f1"]) if lg in v else "–" for lg in langs]
            rows.append({"metric": "verifiability: macro-F1 (mean over τ)", "run": r.label, "cells": vals})
        if "consistency" in tasks:
            a9 = tasks["consistency"]["table_a9"]
            for col in ("bertscore_f1", "sim_sent", "sim_2gram"):
                if col in a9["metrics"]:
                    cells = a9["metrics"][col]
                    vals = [cells[lg]["cell"] or "–" if lg in cells else "–" for lg in langs]
                    rows.append({"metric": f"consistency: {a9['columns'][col]}", "run": r.label, "cells": vals})
    return {"languages": langs, "rows": rows}


def build_report(
    run_dirs: Sequence[Path],
    out_dir: Path | None = None,
    *,
    n_resamples: int = 2000,
    seed: int = 0,
    annotations: Sequence[Path] = (),
) -> Path:
    """Build the report of ``run_dirs`` and return the path of its ``index.html``.

    ``annotations``: annotation sets (``xlingmed annotate sample``), one batch each; their judge–human agreement
    per language (XLingEval Table A7) is added as a table and written to ``stats/judge_human_agreement.csv``.

    Raises:
        DataNotFoundError: a folder that is not a finished run.
        DataError: a run file that cannot be parsed.
    """
    import jinja2

    runs = [load_run(Path(p)) for p in run_dirs]
    out = Path(out_dir) if out_dir is not None else runs[0].path / "report"
    views = []
    for k, run in enumerate(runs, start=1):
        prefix = f"run{k}_" if len(runs) > 1 else ""
        tables = analyse_run(run.path, run.languages, n_resamples=n_resamples, seed=seed)
        for name, rows in tables.items():
            output.write_csv(out / "stats" / f"{prefix}{name}.csv", rows)
        figs = _figures(run, tables)
        for name, png in figs.items():
            output.write_atomic(out / "figures" / f"{prefix}{name}.png", png)
        views.append(_view(run, tables, figs))
    agreement = _agreement(annotations)
    if agreement is not None:
        output.write_csv(out / "stats" / "judge_human_agreement.csv", agreement["raw"])
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("xlingmed.report", "templates"), autoescape=True, undefined=jinja2.StrictUndefined
    )
    html = env.get_template("report.html.j2").render(
        title=", ".join(r.label for r in runs),
        runs=views,
        comparison=_comparison(runs),
        headline=_headline(runs),
        agreement=agreement["table"] if agreement is not None else None,
        built=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        version=_version(),
        n_resamples=n_resamples,
        seed=seed,
    )
    index = out / "index.html"
    output.write_atomic(index, html)
    return index


def _agreement(sets: Sequence[Path]) -> dict[str, Any] | None:
    """Judge–human agreement rows, one batch (annotation set) after another."""
    if not sets:
        return None
    from xlingmed.annotate import AnswerStore, agreement_table, load_annotation_set

    raw = []
    for path in sets:
        aset = load_annotation_set(Path(path))
        answers = AnswerStore(aset.path / "answers.sqlite").all()
        for row in agreement_table(aset, answers):
            raw.append({"batch": aset.path.name, "task": aset.settings.get("task"), **row})
    note = (
        "Per batch (annotation set) and language: share of items whose majority human label equals the judge's "
        "(ties excluded, counted), share where every annotator agreed with the judge, and the humans' agreement "
        "beyond chance (Cohen's κ for two annotators, Fleiss' κ for more; – when undefined)."
    )
    return {"raw": raw, "table": _table("Judge–human agreement (XLingEval Table A7)", raw, note)}


def _task_tables(run: RunData) -> list[dict[str, Any]]:
    """The tables each task's view gives the report (MedArabiQ's paper layouts: Table 1, Table 2, Table J1)."""
    return [
        {"title": t.title, "note": t.note, "columns": t.columns, "rows": t.rows} for t in tables_of(run.summary, REPORT)
    ]


def _version() -> str:
    try:
        return metadata.version("xlingmed")
    except metadata.PackageNotFoundError:
        return "?"


def _figures(run: RunData, tables: dict[str, list[dict[str, Any]]]) -> dict[str, bytes]:
    langs = run.languages
    tasks = run.summary.get("tasks", {})
    model = run.summary.get("model", "?")
    figs: dict[str, bytes] = {}
    forest_rows = _forest_rows(run, tables["gaps"], tables["paired"])
    if not forest_rows.empty:
        figs["forest"] = figures.forest(forest_rows, f"{model}: gap vs English")
    if "correctness" in tasks:
        figs["correctness"] = figures.correctness_bars(tasks["correctness"], langs, f"{model}: correctness labels")
    if "consistency" in tasks:
        cons = tasks["consistency"]
        figs["consistency_lines"] = figures.consistency_lines(cons, langs, f"{model}: consistency vs temperature")
        if "consistency" in run.tables:
            figs["consistency_boxes"] = figures.consistency_boxes(
                run.tables["consistency"], cons["table_a9"]["columns"], langs, f"{model}: per-question values"
            )
    if "verifiability" in tasks:
        figs["verifiability"] = figures.verifiability_heatmaps(tasks["verifiability"], langs, f"{model}: verifiability")
    bench = run.summary.get("benchmark", "?")
    if "multiple_choice" in tasks:
        mc = tasks["multiple_choice"]
        if len(mc["settings"]["conditions"]) > 1:
            figs["bias_conditions"] = figures.bias_conditions(mc, langs, f"{model}: {bench}, accuracy per condition")
        rows = [{**r, "note": f"{r['numerator']}/{r['denominator']}"} for r in mc["table1"]]
        figs["multiple_choice"] = figures.headline_bars(rows, "accuracy %", f"{model}: {bench}", ymax=100)
    if "open_qa" in tasks:
        rows = [{**r, "note": f"n={r['n']}"} for r in tasks["open_qa"]["table1"]]
        figs["open_qa"] = figures.headline_bars(rows, "BERTScore F1 × 100", f"{model}: {bench}", ymax=100)
    return figs


def _view(run: RunData, tables: dict[str, list[dict[str, Any]]], figs: dict[str, bytes]) -> dict[str, Any]:
    gaps = []
    for g in tables["gaps"]:
        p = _p_holm(tables["paired"], g)
        gaps.append(
            {
                "criterion": g["criterion"],
                "metric": g["metric"],
                "temperature": _tau(g["temperature"]) if g["criterion"] != "correctness" else "–",
                "lang": g["lang"],
                "n_items": g["n_items"],
                "excluded": g["excluded_missing_reference"] + g["excluded_missing_lang"],
                "mean_reference": _fmt(g["mean_reference"]),
                "mean_lang": _fmt(g["mean_lang"]),
                "gap": _fmt(g["gap"]),
                "ci": "–" if g["ci_low"] is None else f"[{_fmt(g['ci_low'])}, {_fmt(g['ci_high'])}]",
                "effect": "–" if g["effect_size"] is None else f"{g['effect_size_name']} {_fmt(g['effect_size'], 2)}",
                "p": _fmt(p),
                "significant": p is not None and p < 0.05,
            }
        )
    cons = run.summary.get("tasks", {}).get("consistency")
    stat_tables = [
        *_task_tables(run),
        _table(
            "Every outcome per language, from the Scores: mean (scored units), and what could not be scored",
            by_language(read_scores(run.path), run.languages),
            "Binary outcomes are shares (0–1); units not scored (failed requests, unread replies) are excluded from "
            "the mean and from every test.",
        ),
        _table("Omnibus tests across languages (Friedman; Cochran's Q for binary outcomes)", tables["omnibus"]),
        _table("Paired tests per language pair (Holm-adjusted across pairs)", tables["paired"]),
        _table(
            "Paper: one-way ANOVA (languages as independent groups, listwise deletion)",
            tables["paper_anova"],
            "As XLingEval §4.2 / Table 2: statsmodels OLS value ~ C(lang), anova_lm typ 2.",
        ),
        _table("Paper: Tukey HSD, 95% CI", tables["paper_tukey"], "meandiff = mean(group2) − mean(group1)."),
        _table("Paper: unpaired Student t-tests (uncorrected)", tables["paper_unpaired_t"]),
    ]
    return {
        "label": run.label,
        "header": {
            "benchmark": run.summary.get("benchmark", "?"),
            "model": run.summary.get("model", "?"),
            "n_items": ", ".join(f"{k}: {v}" for k, v in run.summary.get("n_items_per_language", {}).items()),
            "judge": run.summary.get("judge") or "–",
            "translator": run.summary.get("translator") or "–",
        },
        "languages": run.languages,
        "toy": run.summary.get("model") in TOY_MODELS,
        "gaps": gaps,
        "figures": {k: base64.b64encode(v).decode("ascii") for k, v in figs.items()},
        "counts": _counts(run),
        "parsing": _parsing(run),
        "stat_tables": [t for t in stat_tables if t["rows"]],
        "consistency_mode": cons["settings"]["mode"] if cons else None,
        "encoders": [
            n
            for n in (
                encoder_note((cons or {}).get("settings", {}).get("bertscore"), "BERTScore"),
                encoder_note((cons or {}).get("settings", {}).get("sim_sent"), "sim_sent"),
                encoder_note(
                    run.summary.get("tasks", {}).get("open_qa", {}).get("settings", {}).get("bertscore"), "BERTScore"
                ),
            )
            if n
        ],
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
    ) -> Path:
        return build_report(
            [Path(r) for r in run_dirs],
            Path(out_dir) if out_dir is not None else None,
            n_resamples=n_resamples,
            seed=seed,
            annotations=annotations,
        )


sys.modules[__name__].__class__ = _CallableModule
