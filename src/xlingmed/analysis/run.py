"""All disparity statistics of one run folder, from its stored tables (no model is called).

Per-item values come from the task CSVs:

* ``correctness.csv``: binary outcomes per question: ``more_comprehensive`` (higher is better; the outcome behind
  the paper's headline), ``contradictory`` (the judge said the answer contradicts the expert answer) and
  ``less_comprehensive`` (lower is better).
* ``verifiability.csv``: per claim (question × candidate answer) and temperature, ``correct`` = the parsed
  Yes/No equals the label; claims that were unparsed, refused or failed are excluded (as in the paper's metrics).
* ``consistency.csv``: every per-question metric per temperature, and (temperature None) its mean over the
  temperatures, the grain of the paper's Table A9 (continuous; higher is more consistent).
* MedArabiQ: ``multiple_choice.csv`` (binary ``correct`` per item, temperature and bias condition; invalid
  answers are wrong, failed requests excluded), ``open_qa.csv`` (BERTScore F1 × 100) and ``rubric.csv`` (each
  judge dimension, 1–5). With ``--languages ar,en`` on the bilingual FITB files these give the Arabic-vs-English
  gap on the same items.

For each (criterion, metric, temperature): the paper's tests for continuous metrics (ANOVA, Tukey HSD,
unpaired t), paired tests of every language pair with Holm correction, the omnibus test across languages
(Friedman or Cochran's Q) and the gap of each language against the reference with a bootstrap CI.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pandas as pd

from xlingmed.analysis.gaps import gap_vs_reference
from xlingmed.analysis.paired import cochran_q, friedman, paired_pairwise
from xlingmed.analysis.paper import anova_oneway, tukey_hsd, unpaired_t
from xlingmed.errors import DataError


@dataclass(frozen=True)
class MetricValues:
    """Per-item values of one metric in every language (long table: item_id, lang, value)."""

    criterion: str
    metric: str
    temperature: float | None
    kind: Literal["continuous", "binary"]
    higher_is_better: bool
    values: pd.DataFrame


def _read(path: Path) -> pd.DataFrame:
    try:
        return pd.read_csv(path, dtype={"item_id": str, "lang": str})
    except (OSError, pd.errors.ParserError) as exc:
        raise DataError(f"cannot read {exc}", file=str(path)) from None


CONSISTENCY_SKIP = {"item_id", "lang", "temperature", "mode", "n_samples", "skipped", "topic_skipped"}


def metric_values(run_dir: Path) -> Iterator[MetricValues]:
    """The per-item values of every metric the run folder holds, one ``MetricValues`` per metric × τ."""
    run_dir = Path(run_dir)
    path = run_dir / "correctness.csv"
    if path.is_file():
        df = _read(path)
        df = df[df["label"].notna()]
        # "more comprehensive" is the outcome behind the paper's headline (18.12 % fewer in non-English)
        for metric, label, higher in (
            ("more_comprehensive", "more", True),
            ("contradictory", "contradictory", False),
            ("less_comprehensive", "less", False),
        ):
            values = pd.DataFrame(
                {"item_id": df["item_id"], "lang": df["lang"], "value": (df["label"] == label).astype(float)}
            )
            yield MetricValues("correctness", metric, None, "binary", higher, values)
    path = run_dir / "verifiability.csv"
    if path.is_file():
        df = _read(path)
        df = df[df["prediction"].isin([0, 1])]
        for temp, sub in df.groupby("temperature", sort=True):
            values = pd.DataFrame(
                {
                    "item_id": sub["item_id"] + "#c" + sub["candidate_index"].astype(str),
                    "lang": sub["lang"],
                    "value": (sub["prediction"] == sub["label"]).astype(float),
                }
            )
            yield MetricValues("verifiability", "correct", float(str(temp)), "binary", True, values)
    path = run_dir / "consistency.csv"
    if path.is_file():
        df = _read(path)
        metrics = [c for c in df.columns if c not in CONSISTENCY_SKIP and not c.endswith("_sd")]
        for temp, sub in df.groupby("temperature", sort=True):
            for metric in metrics:
                vals = sub[["item_id", "lang", metric]].rename(columns={metric: "value"}).dropna()
                yield MetricValues("consistency", metric, float(str(temp)), "continuous", True, vals)
        if df["temperature"].nunique() > 1:
            # temperature None: each question's mean over the temperatures it has a value at (Table A9's grain)
            for metric in metrics:
                means = df.groupby(["item_id", "lang"], as_index=False)[[metric]].mean()
                vals = means.rename(columns={metric: "value"}).dropna()
                yield MetricValues("consistency", metric, None, "continuous", True, vals)
    yield from _medarabiq_values(run_dir)


def _medarabiq_values(run_dir: Path) -> Iterator[MetricValues]:
    path = run_dir / "multiple_choice.csv"
    if path.is_file():
        df = _read(path)
        df = df[df["correct"].notna()]
        bias = df["bias"].fillna("") if "bias" in df.columns else pd.Series("", index=df.index)
        df = df.assign(variant=[c if not b else f"{c}|{b}" for c, b in zip(df["condition"], bias, strict=True)])
        # one metric per variant (condition and bias): an item is asked once per variant and language
        for (temp, variant), sub in df.groupby(["temperature", "variant"], sort=True):
            values = pd.DataFrame(
                {"item_id": sub["item_id"], "lang": sub["lang"], "value": sub["correct"].astype(str).eq("True")}
            ).astype({"value": float})
            metric = "correct" if variant == "original" else f"correct[{variant}]"
            yield MetricValues("multiple_choice", metric, float(str(temp)), "binary", True, values)
    path = run_dir / "open_qa.csv"
    if path.is_file():
        df = _read(path)
        for temp, sub in df.groupby("temperature", sort=True):
            vals = sub[["item_id", "lang", "bertscore_f1"]].rename(columns={"bertscore_f1": "value"}).dropna()
            yield MetricValues("open_qa", "bertscore_f1", float(str(temp)), "continuous", True, vals)
    path = run_dir / "rubric.csv"
    if path.is_file():
        df = _read(path)
        for temp, sub in df.groupby("temperature", sort=True):
            for dim in ("similarity", "relevance", "factuality", "safety", "average"):
                vals = sub[["item_id", "lang", dim]].rename(columns={dim: "value"}).dropna()
                yield MetricValues("rubric", dim, float(str(temp)), "continuous", True, vals)


def analyse_run(
    run_dir: Path,
    languages: Sequence[str],
    reference: str = "en",
    *,
    n_resamples: int = 10_000,
    seed: int = 0,
) -> dict[str, list[dict[str, Any]]]:
    """Every statistic of the run, as tables (lists of flat rows) named ``paper_anova``, ``paper_tukey``,
    ``paper_unpaired_t``, ``paired``, ``omnibus`` and ``gaps``; each row names criterion, metric, temperature."""
    tables: dict[str, list[dict[str, Any]]] = {
        k: [] for k in ("paper_anova", "paper_tukey", "paper_unpaired_t", "paired", "omnibus", "gaps")
    }
    with warnings.catch_warnings():
        # degenerate inputs (a toy model's identical answers: zero variance) give NaN, reported as None below
        warnings.simplefilter("ignore", RuntimeWarning)
        _fill(tables, run_dir, languages, reference, n_resamples, seed)
    return {
        name: [{k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in row.items()} for row in rows]
        for name, rows in tables.items()
    }


def _fill(
    tables: dict[str, list[dict[str, Any]]],
    run_dir: Path,
    languages: Sequence[str],
    reference: str,
    n_resamples: int,
    seed: int,
) -> None:
    for mv in metric_values(run_dir):
        langs = [lang for lang in languages if lang in set(mv.values["lang"])]
        key = {"criterion": mv.criterion, "metric": mv.metric, "temperature": mv.temperature}
        if len(langs) < 2 or mv.values.empty:
            continue
        if mv.kind == "continuous":
            tables["paper_anova"].append({**key, **anova_oneway(mv.values, langs)})
            tables["paper_tukey"] += [{**key, **r} for r in tukey_hsd(mv.values, langs)]
            tables["paper_unpaired_t"] += [{**key, **r} for r in unpaired_t(mv.values, langs)]
            omnibus = {"test": "friedman", **friedman(mv.values, langs)}
        else:
            omnibus = {"test": "cochran_q", **cochran_q(mv.values, langs)}
        tables["omnibus"].append({**key, **omnibus})
        tables["paired"] += [{**key, **r} for r in paired_pairwise(mv.values, langs, kind=mv.kind)]
        if reference in langs:
            for lang in langs:
                if lang != reference:
                    gap = gap_vs_reference(mv.values, lang, reference, kind=mv.kind, n_resamples=n_resamples, seed=seed)
                    tables["gaps"].append({**key, "higher_is_better": mv.higher_is_better, **gap})
