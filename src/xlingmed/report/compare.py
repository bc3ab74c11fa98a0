"""The report's model comparison: whether several runs can be compared item by item, and if so their paired
model-vs-model tests, rankings, model × language effects and a forest plot of each model's gap to English.

Runs are compared only on the same benchmark and dataset file (the same items); the comparison is refused
otherwise, with the reason shown. Differences that leave the items alike but change what is measured (the judge,
temperatures, token limits, parsers, task options, prompt templates) are listed as marks above the tables.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import pandas as pd

from xlingmed.analysis.run import read_scores
from xlingmed.analysis.verdict_record import Verdict, as_verdicts
from xlingmed.report.load import RunData, first_prompts
from xlingmed.report.options import ReportOptions
from xlingmed.report.view_records import ModelsView
from xlingmed.tasks.registry import task_outcomes

# ``manifest.json`` → ``resolved`` keys that change what a score measures; the model itself is what is compared.
MEASURED = ("temperatures", "max_tokens", "tasks", "task_options", "judge")  # "tasks": each task's resolved settings


def model_names(runs: Sequence[RunData]) -> list[str]:
    """Each run's model, with the folder name where two runs share a model."""
    models = [str(r.summary.get("model", "?")) for r in runs]
    return [r.label if models.count(m) > 1 else m for r, m in zip(runs, models, strict=True)]


def compatibility(runs: Sequence[RunData]) -> tuple[str | None, list[str]]:
    """``(refusal, marks)``: why the runs cannot be compared item by item (``None`` if they can), and what differs
    between them that a reader must know."""
    benchmarks = {str(r.summary.get("benchmark")) for r in runs}
    if len(benchmarks) > 1:
        return f"the runs are on different benchmarks ({', '.join(sorted(benchmarks))}): no item is shared", []
    files = {str((r.manifest.get("dataset") or {}).get("sha256")) for r in runs}
    if len(files) > 1:
        return "the runs read different dataset files (sha256 differs): their items may differ", []
    marks = []
    names = model_names(runs)
    for key in MEASURED:
        values = [((r.manifest.get("resolved") or {}).get(key)) for r in runs]
        if any(v != values[0] for v in values[1:]):
            shown = "; ".join(f"{n}: {v}" for n, v in zip(names, values, strict=True))
            marks.append(f"{key} differs ({shown})")
    version = [r.manifest.get("xlingmed_version") for r in runs]
    if any(v != version[0] for v in version[1:]):
        marks.append(f"the runs were made by different xlingmed versions ({', '.join(map(str, version))})")
    asked = [first_prompts(r) for r in runs]
    shared = set(asked[0]).intersection(*asked[1:])
    differ = sum(1 for k in shared if any(a[k] != asked[0][k] for a in asked[1:]))
    if differ:
        marks.append(f"the prompts differ on {differ} of {len(shared)} shared (task, item, language)")
    items = [r.summary.get("n_items_per_language") for r in runs]
    if any(i != items[0] for i in items[1:]):
        marks.append("the runs scored different numbers of items; each comparison uses the items both scored")
    return None, marks


def combined_scores(runs: Sequence[RunData]) -> pd.DataFrame:
    """The Scores of every run, with a ``model`` column (``model_names``)."""
    return pd.concat(
        [
            read_scores(r.path, task_outcomes()).assign(model=name)
            for r, name in zip(runs, model_names(runs), strict=True)
        ],
        ignore_index=True,
    )


def forest_rows(verdicts: Mapping[str, Sequence[Verdict | Mapping[str, Any]]]) -> pd.DataFrame:
    """One row per model × outcome × language for the forest plot, from each model's verdicts (``Verdict``: the
    judge-corrected figures where a verdict is corrected, marked ‡ in its label): the difference to English and
    its one-sided bounds, in percentage points for proportions; ``method``; filled marker = inferior."""
    rows = []
    for model, raw in verdicts.items():
        for r in as_verdicts(raw):
            if r.difference is None or r.lower is None or r.upper is None:
                continue
            scale = 100.0 if r.unit == "proportion" else 1.0
            rows.append(
                {
                    "label": f"{r.outcome} [{r.lang}]{'‡' if r.judge_corrected else ''} {model}",
                    "lang": r.lang,
                    "effect": scale * r.difference,
                    "low": scale * r.lower,
                    "high": scale * r.upper,
                    "significant": r.verdict == "inferior",
                    "method": r.method,
                }
            )
    return pd.DataFrame(rows)


def section(runs: Sequence[RunData], languages: Sequence[str], options: ReportOptions) -> ModelsView | None:
    """The comparison of ``runs`` (≥ 2): ``refused`` or the tables ``pairs``, ``ranking`` and ``effects``
    (bootstrapped with ``options.n_resamples`` and ``options.seed``)."""
    if len(runs) < 2:
        return None
    refused, marks = compatibility(runs)
    if refused is not None:
        return ModelsView(refused=refused, marks=[])
    from xlingmed.analysis.effects import language_effects
    from xlingmed.analysis.models import compare_models

    scores = combined_scores(runs)
    tasks = task_outcomes()  # what the statistics need of each task, handed to them
    compared = compare_models(scores, languages, tasks=tasks, n_resamples=options.n_resamples, seed=options.seed)
    tables = replace(compared, effects=language_effects(scores, languages, tasks=tasks))
    return ModelsView(refused=None, marks=marks, tables=tables)
