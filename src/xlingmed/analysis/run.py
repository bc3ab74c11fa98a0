"""All disparity statistics of one run folder, from its stored Scores (no model is called).

The per-item values are the run's Score records (``types.Score``): ``scores.parquet`` where the run wrote one,
else the task CSVs of a run made before 0.2, turned into Scores by each task's registered ``scores`` function.
One ``MetricValues`` per (task, metric, prompt condition, temperature); a Score without a value (failed request,
unread reply) is excluded, and a unit inside an item (a verifiability claim) is paired as ``item_id#unit``.
Tasks that sweep temperatures for a per-question metric (consistency) also get the mean over the temperatures
(temperature ``None``), the grain of XLingEval's Table A9.

For each (criterion, metric, temperature): the paper's tests for continuous metrics (ANOVA, Tukey HSD,
unpaired t), paired tests of every language pair with Holm correction, the omnibus test across languages
(Friedman or Cochran's Q) and the gap of each language against the reference with a bootstrap CI. On a set whose
questions differ across languages (``parallel=False``) nothing is paired: the paired and omnibus tables stay empty
and each gap is unpaired (``analysis.gaps.gap_unpaired``: Welch's t or Fisher's exact test), its ``design`` said.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

import pandas as pd

from xlingmed.analysis.gaps import Gap, OutcomeKey, UnpairedGap, gap_unpaired, gap_vs_reference
from xlingmed.analysis.paired import (
    CochranQ,
    Omnibus,
    PairedBinary,
    PairedContinuous,
    cochran_q,
    friedman,
    paired_pairwise,
)
from xlingmed.analysis.paper import Anova, Tukey, UnpairedT, anova_oneway, tukey_hsd, unpaired_t
from xlingmed.analysis.records import StatKey, Tables, without_nan
from xlingmed.cells import read_csv
from xlingmed.errors import DataError
from xlingmed.outcomes import TaskOutcome, apart


@dataclass(frozen=True)
class MetricValues:
    """Per-item values of one metric in every language (long table: item_id, lang, value)."""

    criterion: str
    metric: str
    temperature: float | None
    kind: Literal["continuous", "binary"]
    higher_is_better: bool
    values: pd.DataFrame


def read_scores(run_dir: Path, tasks: Mapping[str, TaskOutcome] | None = None) -> pd.DataFrame:
    """The run's Scores as a table (the columns of ``output.SCORE_COLUMNS``): ``scores.parquet``, or in a run folder
    older than it, each task's CSV read back by that task's ``scores`` (``tasks``, handed by the caller).

    Raises:
        DataError: a damaged ``scores.parquet`` or task CSV (the file named).
    """
    from xlingmed.output import SCORE_COLUMNS

    run_dir = Path(run_dir)
    path = run_dir / "scores.parquet"
    if path.is_file():
        try:
            table = pd.read_parquet(path)
        except Exception as exc:  # pyarrow raises several types for a damaged file
            raise DataError(f"cannot read it: {exc}", file=str(path)) from None
        table = table.reindex(columns=list(SCORE_COLUMNS))  # answer, target, probability, group: absent before
        return _apart(table, run_dir)
    records = []
    for name, spec in (tasks or {}).items():
        csv = run_dir / f"{name}.csv"
        if spec.scores is None or not csv.is_file():
            continue
        try:
            table = read_csv(csv)
            rows = [{str(k): v for k, v in r.items()} for r in table.to_dict(orient="records")]
        except (OSError, pd.errors.ParserError) as exc:
            raise DataError(f"cannot read {exc}", file=str(csv)) from None
        records += [s.to_json() for s in spec.scores(rows)]
    return pd.DataFrame(records, columns=list(SCORE_COLUMNS))


def _apart(table: pd.DataFrame, run_dir: Path) -> pd.DataFrame:
    """An import that keeps its source tasks apart (``summary.json`` ``dataset.tasks_apart``): each Score's task
    becomes ``task[group]`` (``multiple_choice[mmlu_anatomy]``), so every statistic is on one source task's items
    (``outcomes.apart`` gives each its outcome)."""
    import json

    try:
        summary = json.loads((run_dir / "summary.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return table
    if not (isinstance(summary, dict) and (summary.get("dataset") or {}).get("tasks_apart")):
        return table
    grouped = table["group"].notna()
    table.loc[grouped, "task"] = table.loc[grouped, "task"] + "[" + table.loc[grouped, "group"].astype(str) + "]"
    return table


def metric_values(run_dir: Path, tasks: Mapping[str, TaskOutcome]) -> Iterator[MetricValues]:
    """The per-item values of every metric the run folder holds, one ``MetricValues`` per metric × τ, tasks in
    the order of ``tasks``."""
    df = read_scores(run_dir, tasks)
    if df.empty:
        return
    tasks = apart(tasks, df["task"])
    df = df.assign(
        unit_id=[i if not u or u != u else f"{i}#{u}" for i, u in zip(df["item_id"], df["unit"], strict=True)],
        variant=df["condition"].where(df["condition"].notna(), None),
        temp_key=df["temperature"].fillna(-1.0),
    )
    for task in tasks:
        sub = df[df["task"] == task]
        if sub.empty:
            continue
        metrics = list(dict.fromkeys(sub["metric"]))
        groups = sub.groupby(["temp_key", sub["variant"].fillna("original")], sort=True)
        for (temp_key, variant), g in groups:
            temperature = None if temp_key == -1.0 else float(str(temp_key))
            for metric in metrics:
                m = g[g["metric"] == metric]
                if m.empty:
                    continue
                yield _values(task, metric, str(variant), temperature, m)
        for metric in metrics:
            m = sub[(sub["metric"] == metric) & (sub["kind"] == "continuous") & sub["variant"].isna()]
            if tasks[task].mean_over_temperatures and m["temperature"].nunique() > 1:
                # each question's mean over the temperatures it has a value at (Table A9's grain)
                means = m.dropna(subset=["value"]).groupby(["unit_id", "lang"], as_index=False)["value"].mean()
                yield MetricValues(task, metric, None, "continuous", bool(m["higher_is_better"].iloc[0]),
                                   means.rename(columns={"unit_id": "item_id"}))  # fmt: skip


def _values(task: str, metric: str, variant: str, temperature: float | None, m: pd.DataFrame) -> MetricValues:
    name = metric if variant == "original" else f"{metric}[{variant}]"
    kind: Literal["continuous", "binary"] = "binary" if m["kind"].iloc[0] == "binary" else "continuous"
    scored = m.dropna(subset=["value"])
    values = pd.DataFrame(
        {"item_id": scored["unit_id"].to_numpy(), "lang": scored["lang"].to_numpy(),
         "value": scored["value"].astype(float).to_numpy()}
    )  # fmt: skip
    return MetricValues(task, name, temperature, kind, bool(m["higher_is_better"].iloc[0]), values)


@dataclass(frozen=True)
class RunStats(Tables):
    """Every statistic of a run (``analyse_run``), one list of records per table; ``tables()`` names them as the
    ``stats/*.csv`` files are named, in that order."""

    paper_anova: list[Anova] = field(default_factory=list)
    paper_tukey: list[Tukey] = field(default_factory=list)
    paper_unpaired_t: list[UnpairedT] = field(default_factory=list)
    paired: list[PairedContinuous | PairedBinary] = field(default_factory=list)
    omnibus: list[Omnibus | CochranQ] = field(default_factory=list)
    gaps: list[Gap | UnpairedGap] = field(default_factory=list)


def analyse_run(
    run_dir: Path,
    languages: Sequence[str],
    reference: str = "en",
    *,
    tasks: Mapping[str, TaskOutcome],
    n_resamples: int = 10_000,
    seed: int = 0,
    parallel: bool = True,
) -> RunStats:
    """Every statistic of the run (``RunStats``): the tables ``paper_anova``, ``paper_tukey``, ``paper_unpaired_t``,
    ``paired``, ``omnibus`` and ``gaps``; each record's ``key`` names criterion, metric, temperature, and a NaN is
    ``None``.

    ``parallel``: the benchmark holds the same questions in every language (``summary.json`` ``dataset.parallel``;
    true for every set that does not say otherwise). When false, only unpaired statistics are computed."""
    stats = RunStats()
    with warnings.catch_warnings():
        # degenerate inputs (a toy model's identical answers: zero variance) give NaN, reported as None
        warnings.simplefilter("ignore", RuntimeWarning)
        from statsmodels.tools.sm_exceptions import ValueWarning

        warnings.simplefilter("ignore", ValueWarning)  # the same inputs: "covariance of constraints … rank 0"
        _fill(stats, run_dir, languages, reference, n_resamples, seed, parallel, tasks)
    return stats


def _fill(
    stats: RunStats,
    run_dir: Path,
    languages: Sequence[str],
    reference: str,
    n_resamples: int,
    seed: int,
    parallel: bool,
    tasks: Mapping[str, TaskOutcome],
) -> None:
    for mv in metric_values(run_dir, tasks):
        langs = [lang for lang in languages if lang in set(mv.values["lang"])]
        key = StatKey(mv.criterion, mv.metric, mv.temperature)
        if len(langs) < 2 or mv.values.empty:
            continue
        if mv.kind == "continuous":
            stats.paper_anova.append(without_nan(replace(anova_oneway(mv.values, langs), key=key)))
            stats.paper_tukey.extend(without_nan(replace(r, key=key)) for r in tukey_hsd(mv.values, langs))
            stats.paper_unpaired_t.extend(without_nan(replace(r, key=key)) for r in unpaired_t(mv.values, langs))
        if parallel:
            omnibus = friedman(mv.values, langs) if mv.kind == "continuous" else cochran_q(mv.values, langs)
            stats.omnibus.append(without_nan(replace(omnibus, key=key)))
            pairs = paired_pairwise(mv.values, langs, kind=mv.kind)
            stats.paired.extend(without_nan(replace(r, key=key)) for r in pairs)
        if reference in langs:
            gap = gap_vs_reference if parallel else gap_unpaired
            direction = OutcomeKey(mv.criterion, mv.metric, mv.temperature, mv.higher_is_better)
            for lang in langs:
                if lang != reference:
                    row = gap(mv.values, lang, reference, kind=mv.kind, n_resamples=n_resamples, seed=seed)
                    stats.gaps.append(without_nan(replace(row, key=direction)))
