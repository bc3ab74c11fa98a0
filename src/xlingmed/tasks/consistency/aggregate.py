"""Consistency's Scores and its summary: the per-question metrics as Score records, and from those alone the
per-language means over the questions, the skip counts, the listwise means (questions complete in every
language) and XLingEval's Table A9 layout (mean over temperatures, % change against English): the
``ConsistencySummary`` of ``summary.py``."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from statistics import mean, stdev
from typing import Any, Protocol

from xlingmed.metrics.sets import SetSettings, set_metric_columns, set_metrics
from xlingmed.tasks.base import cell, number, scores_by_item, temperature_of
from xlingmed.tasks.consistency.summary import ConsistencySummary
from xlingmed.types import Score, declare_parse_methods

# The parse methods this module returns, and their kinds (parsing.methods): declared here, where they are made.
declare_parse_methods({"no_letters": "unread", "topic_empty_or_stopwords_only": "unread", "missing_answer": "error"})


class ConsistencySettings(Protocol):
    """What the summary reads of the task (``task.ConsistencyTask`` is one): its settings, not the task itself, so
    that the task's module imports this one and not the other way round."""

    temperatures: tuple[float, ...]
    mode: str
    metrics: tuple[str, ...]
    lda_topics: tuple[int, ...]

    def settings(self) -> dict[str, Any]: ...


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
    """The per-question metric columns that the set metrics ``metrics`` (``metrics.sets``) write, in order."""
    return set_metric_columns(metrics, SetSettings(lda_topics=tuple(lda_topics)))


# Columns of consistency.csv that are not metrics.
NOT_METRICS = {"item_id", "lang", "temperature", "mode", "n_samples", "skipped", "topic_skipped"}

# Why a question has no value, as the parse method of its Scores (spec §3.3, §3.4e): the row's cleaning rule for
# the surface and semantic metrics, the topic rule for sim_LDA/sim_HDP; language consistency is never skipped.
SKIP_REASONS = ("missing_answer", "no_letters", "topic_empty_or_stopwords_only")


def _is_topic(metric: str) -> bool:
    return metric.startswith(("sim_lda", "sim_hdp"))


def _value(question: Mapping[str, Score], metric: str) -> float | None:
    sc = question.get(metric)
    return None if sc is None or sc.value is None else float(sc.value)


def scores(rows: Sequence[Mapping[str, Any]]) -> list[Score]:
    """Per question and temperature, one Score per similarity metric (continuous, higher = more consistent; the
    sd columns are descriptive and not scored). A question the cleaning rules skip keeps its Scores, without a
    value and with the rule as parse method (``SKIP_REASONS``), so the summary counts it."""
    out = []
    for r in rows:
        skipped, topic_skipped = cell(r.get("skipped")), cell(r.get("topic_skipped"))
        for metric, raw in r.items():
            if metric in NOT_METRICS or metric.endswith("_sd"):
                continue
            if metric == "lang_consistency":
                method = None
            elif _is_topic(metric):
                method = "topic_empty_or_stopwords_only" if topic_skipped else None
            else:
                method = str(skipped) if skipped else None
            out.append(
                Score(
                    item_id=str(r["item_id"]), lang=str(r["lang"]), task="consistency", metric=metric,
                    value=number(raw), temperature=temperature_of(r), parse_method=method,
                )
            )  # fmt: skip
    return out


def summarize(task: ConsistencySettings, units: Sequence[Score], languages: Sequence[str]) -> ConsistencySummary:
    """Per language × temperature × metric, from the task's Scores: mean, sd and number of questions (each
    language over its own valid questions), the skip counts (a question counts once per rule that excluded it
    from a chosen metric), the listwise means and the Table A9 layout."""
    cols = [c for c in metric_columns(task.metrics, task.lda_topics) if not c.endswith("_sd")]
    by_condition = scores_by_item(units)
    per_lang: dict[str, Any] = {}
    for lang in languages:
        per_t: dict[str, Any] = {}
        for temp in task.temperatures:
            questions = list(by_condition.get((lang, float(temp)), {}).values())
            metrics: dict[str, Any] = {}
            for c in cols:
                vals = [v for q in questions if (v := _value(q, c)) is not None]
                metrics[c] = {
                    "mean": mean(vals) if vals else None,
                    "sd": stdev(vals) if len(vals) > 1 else None,
                    "n": len(vals),
                }
            per_t[f"{temp:g}"] = {
                "n_questions": len(questions),
                "skipped": {
                    reason: sum(1 for q in questions if any(sc.parse_method == reason for sc in q.values()))
                    for reason in SKIP_REASONS
                },
                "metrics": metrics,
            }
        per_lang[lang] = per_t
    return ConsistencySummary.model_validate({
        "settings": task.settings(),
        "languages": per_lang,
        "listwise": listwise(task, by_condition, languages, cols),
        "table_a9": table_a9(task, per_lang, languages),
    })  # fmt: skip


def listwise(
    task: ConsistencySettings,
    by_condition: Mapping[tuple[str, float | None], Mapping[str, Mapping[str, Score]]],
    languages: Sequence[str],
    cols: Sequence[str],
) -> dict[str, Any]:
    """Per temperature and metric: the mean per language over only the questions that have a value in every
    language (listwise deletion, as the authors' box plots and tests; spec §3.5), and their number."""
    out: dict[str, Any] = {}
    for temp in task.temperatures:
        by_item: dict[str, dict[str, Mapping[str, Score]]] = defaultdict(dict)
        for lang in languages:
            for item_id, q in by_condition.get((lang, float(temp)), {}).items():
                by_item[item_id][lang] = q
        per_metric: dict[str, Any] = {}
        for c in cols:
            complete = [
                langs for langs in by_item.values() if all(_value(langs.get(lg, {}), c) is not None for lg in languages)
            ]
            per_metric[c] = {
                "n": len(complete),
                "mean": {
                    lg: (mean(_value(q[lg], c) or 0.0 for q in complete) if complete else None) for lg in languages
                },
            }
        out[f"{temp:g}"] = per_metric
    return out


def table_a9(task: ConsistencySettings, per_lang: Mapping[str, Any], languages: Sequence[str]) -> dict[str, Any]:
    """Per metric and language: the mean over temperatures of the per-temperature means, and its change
    against English in % ((v − v_en) / v_en × 100), as the paper's Table A9 ("0.9699/0.0%")."""
    available = set(metric_columns(task.metrics, task.lda_topics))
    columns = [(c, label) for c, label in TABLE_A9 if c in available]
    settings = SetSettings(lda_topics=tuple(task.lda_topics))
    known = set_metrics()  # the metrics the paper's layout does not place, after it, by their own labels
    columns += [(c, label) for m in task.metrics for c, label in known[m].labels(settings).items()
                if c not in dict(columns)]  # fmt: skip
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
