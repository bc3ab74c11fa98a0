"""Consistency's summary: per-language means over the questions, the listwise means (questions complete in
every language) and XLingEval's Table A9 layout (mean over temperatures, % change against English)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from statistics import mean, stdev
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from xlingmed.tasks.consistency.task import ConsistencyTask

# Columns of the paper's Table A9, in its order, with the labels it prints.
TABLE_A9: tuple[tuple[str, str], ...] = (
    ("sim_sent", "sim_sent"),
    ("bertscore_f1", "BERTScore"),
    ("sim_1gram", "sim_1-gram"),
    ("sim_2gram", "sim_2-gram"),
    ("length_mean", "Length"),
    ("sim_hdp", "sim_HDP"),
)


def metric_columns(metrics: Sequence[str], lda_topics: Sequence[int]) -> list[str]:
    """The per-question metric columns that ``metrics`` (groups of ``METRIC_GROUPS``) produce."""
    cols: list[str] = []
    for group in metrics:
        if group == "ngram":
            cols += ["sim_1gram", "sim_2gram"]
        elif group == "length":
            cols += ["length_mean", "length_sd"]
        elif group == "bertscore":
            cols += ["bertscore_p", "bertscore_r", "bertscore_f1"]
        elif group == "sim_sent":
            cols += ["sim_sent"]
        elif group == "lda":
            for t in lda_topics:
                cols += [f"sim_lda{t}", f"sim_lda{t}_sd"]
        elif group == "hdp":
            cols += ["sim_hdp", "sim_hdp_sd"]
        elif group == "lang_consistency":
            cols += ["lang_consistency"]
    return cols


def summarize(task: ConsistencyTask, rows: Sequence[dict[str, Any]], languages: Sequence[str]) -> dict[str, Any]:
    """Per language × temperature × metric: mean, sd and number of questions (each language over its own valid
    questions), the skip counts, the listwise means and the Table A9 layout."""
    cols = [c for c in metric_columns(task.metrics, task.lda_topics) if not c.endswith("_sd")]
    per_lang: dict[str, Any] = {}
    for lang in languages:
        per_t: dict[str, Any] = {}
        for temp in task.temperatures:
            sel = [r for r in rows if r["lang"] == lang and r["temperature"] == temp]
            metrics: dict[str, Any] = {}
            for c in cols:
                vals = [float(r[c]) for r in sel if r[c] is not None]
                metrics[c] = {
                    "mean": mean(vals) if vals else None,
                    "sd": stdev(vals) if len(vals) > 1 else None,
                    "n": len(vals),
                }
            per_t[f"{temp:g}"] = {
                "n_questions": len(sel),
                "skipped": {
                    "missing_answer": sum(1 for r in sel if r["skipped"] == "missing_answer"),
                    "no_letters": sum(1 for r in sel if r["skipped"] == "no_letters"),
                    "topic_empty_or_stopwords_only": sum(1 for r in sel if r["topic_skipped"]),
                },
                "metrics": metrics,
            }
        per_lang[lang] = per_t
    return {
        "settings": task.settings(),
        "languages": per_lang,
        "listwise": listwise(task, rows, languages, cols),
        "table_a9": table_a9(task, per_lang, languages),
    }


def listwise(
    task: ConsistencyTask, rows: Sequence[dict[str, Any]], languages: Sequence[str], cols: Sequence[str]
) -> dict[str, Any]:
    """Per temperature and metric: the mean per language over only the questions that have a value in every
    language (listwise deletion, as the authors' box plots and tests; spec §3.5), and their number."""
    out: dict[str, Any] = {}
    for temp in task.temperatures:
        by_item: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
        for r in rows:
            if r["temperature"] == temp:
                by_item[r["item_id"]][r["lang"]] = r
        per_metric: dict[str, Any] = {}
        for c in cols:
            complete = [
                langs for langs in by_item.values() if all(langs.get(lg, {}).get(c) is not None for lg in languages)
            ]
            per_metric[c] = {
                "n": len(complete),
                "mean": {lg: (mean(float(q[lg][c]) for q in complete) if complete else None) for lg in languages},
            }
        out[f"{temp:g}"] = per_metric
    return out


def table_a9(task: ConsistencyTask, per_lang: Mapping[str, Any], languages: Sequence[str]) -> dict[str, Any]:
    """Per metric and language: the mean over temperatures of the per-temperature means, and its change
    against English in % ((v − v_en) / v_en × 100), as the paper's Table A9 ("0.9699/0.0%")."""
    available = set(metric_columns(task.metrics, task.lda_topics))
    columns = [(c, label) for c, label in TABLE_A9 if c in available]
    columns += [(f"sim_lda{t}", f"sim_LDA^{t}") for t in task.lda_topics if "lda" in task.metrics]
    if "lang_consistency" in task.metrics:
        columns.append(("lang_consistency", "LangCons"))
    out: dict[str, Any] = {"mode": task.mode, "columns": {c: label for c, label in columns}, "metrics": {}}
    for c, _ in columns:
        values: dict[str, float | None] = {}
        for lang in languages:
            means = [t["metrics"][c]["mean"] for t in per_lang[lang].values() if t["metrics"][c]["mean"] is not None]
            values[lang] = mean(means) if means else None
        en = values.get("en")
        cells = {}
        for lang, v in values.items():
            change = (v - en) / en * 100 if v is not None and en not in (None, 0.0) else None
            cells[lang] = {
                "value": v,
                "change_vs_en_pct": change,
                "cell": None if v is None else f"{v:.4f}/{change:.1f}%" if change is not None else f"{v:.4f}",
            }
        out["metrics"][c] = cells
    return out
