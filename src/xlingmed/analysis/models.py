"""Several models on the same items: per language and primary outcome, paired model-vs-model tests and a ranking
with bootstrap intervals.

Two models answered the same question in the same language: that is one pair. Each outcome is taken per item
(the item's mean over its temperatures and units, as in ``analysis.items``); a pair of models is compared on the
items both scored, by McNemar's test where every item's value is 0 or 1 and by the Wilcoxon signed-rank test
otherwise, Holm-corrected across the model pairs and languages of one outcome. The difference (B − A, better =
positive) gets a bootstrap CI resampled by item. The ranking resamples the items every model scored jointly, ranks
the models in each resample (1 = best), and gives each model's statistic and rank with percentile intervals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd

from xlingmed.analysis.items import difference, item_table, per_item, resample, statistic_of
from xlingmed.analysis.paired import holm, mcnemar
from xlingmed.outcomes import TaskOutcome, apart


def _tables(sub: pd.DataFrame, models: Sequence[str], lang: str, statistic: str) -> dict[str, pd.DataFrame]:
    return {m: item_table(sub[sub["model"] == m], lang, statistic) for m in models}


def _paired_test(a: np.ndarray, b: np.ndarray) -> tuple[str, float | None]:
    """McNemar on 0/1 item values, else Wilcoxon signed-rank; p None when nothing differs to test."""
    from scipy import stats

    if len(a) == 0:
        return "none", None
    if np.isin(a, (0.0, 1.0)).all() and np.isin(b, (0.0, 1.0)).all():
        return "mcnemar", float(mcnemar(a, b).p)
    if np.allclose(a, b):
        return "wilcoxon", 1.0
    return "wilcoxon", float(stats.wilcoxon(b, a).pvalue)


def compare_models(
    scores: pd.DataFrame,
    languages: Sequence[str],
    *,
    tasks: Mapping[str, TaskOutcome],
    n_resamples: int = 2000,
    confidence: float = 0.95,
    seed: int = 0,
) -> dict[str, list[dict[str, Any]]]:
    """Model-vs-model tests and rankings per language, on each task's primary outcome.

    Args:
        scores: the Scores of several runs with a ``model`` column (one model per run), plain questions only.
        languages: the languages to compare in.

    Returns:
        ``{"pairs": rows, "ranking": rows}``. A pair row: task, outcome, lang, model_a, model_b, n_items,
        value_a, value_b, difference (b − a, better = positive), ci_low, ci_high, test (``mcnemar`` /
        ``wilcoxon``), p, p_holm. A ranking row: task, outcome, lang, model, n_items (scored by every model),
        value, ci_low, ci_high, rank (1 = best, on the observed items), rank_low, rank_high.
    """
    from xlingmed.analysis.verdicts import outcomes

    pairs: list[dict[str, Any]] = []
    ranking: list[dict[str, Any]] = []
    plain = scores[scores["condition"].isna()] if "condition" in scores else scores
    lo_q, hi_q = (1 - confidence) / 2, 1 - (1 - confidence) / 2
    for oc in outcomes(apart(tasks, plain["task"])):
        sub = plain[(plain["task"] == oc.task) & (plain["metric"] == oc.metric)]
        models = list(dict.fromkeys(sub["model"]))
        if len(models) < 2:
            continue
        sign = 1.0 if bool(sub["higher_is_better"].iloc[0]) else -1.0
        block: list[dict[str, Any]] = []
        for k, lang in enumerate(languages):
            tables = _tables(sub, models, lang, oc.statistic)
            key = {"task": oc.task, "outcome": oc.name, "lang": lang}
            for j, (a, b) in enumerate(combinations(models, 2)):
                items = tables[a].index.intersection(tables[b].index)
                ta, tb = tables[a].loc[items].to_numpy(float), tables[b].loc[items].to_numpy(float)
                row: dict[str, Any] = {**key, "model_a": a, "model_b": b, "n_items": len(items)}
                if len(items):
                    ones = np.ones((1, len(items)))
                    sa, sb = statistic_of(oc.statistic, ta), statistic_of(oc.statistic, tb)
                    boot = sign * resample(difference(oc.statistic, ta, tb), len(items), n_resamples, seed + j)
                    test, p = _paired_test(per_item(oc.statistic, ta), per_item(oc.statistic, tb))
                    row.update(
                        value_a=float(sa(ones)[0]), value_b=float(sb(ones)[0]),
                        difference=sign * float(sb(ones)[0] - sa(ones)[0]),
                        ci_low=float(np.quantile(boot, lo_q)), ci_high=float(np.quantile(boot, hi_q)), test=test, p=p,
                    )  # fmt: skip
                block.append(row)
            ranking += _rank(oc, key, tables, models, sign, n_resamples, seed + 1000 * (k + 1), lo_q, hi_q)
        tested = [r for r in block if r.get("p") is not None]
        for r, p in zip(tested, holm([r["p"] for r in tested]), strict=True):
            r["p_holm"] = float(p)
        pairs += block
    return {"pairs": pairs, "ranking": ranking}


def _rank(
    oc: Any,
    key: dict[str, Any],
    tables: dict[str, pd.DataFrame],
    models: Sequence[str],
    sign: float,
    n_resamples: int,
    seed: int,
    lo_q: float,
    hi_q: float,
) -> list[dict[str, Any]]:
    """Each model's statistic and rank on the items every model scored, with bootstrap percentile intervals."""
    common = tables[models[0]].index
    for m in models[1:]:
        common = common.intersection(tables[m].index)
    if len(common) == 0:
        return []
    stats_ = [statistic_of(oc.statistic, tables[m].loc[common].to_numpy(float)) for m in models]
    n = len(common)
    boot = resample(lambda w: np.stack([s(w) for s in stats_], axis=-1), n, n_resamples, seed)  # B × models
    # rank 1 = best: sort by the better direction (sign), ties share the better rank
    boot_ranks = (sign * boot[:, None, :] > sign * boot[:, :, None]).sum(axis=-1) + 1
    observed = np.array([float(s(np.ones((1, n)))[0]) for s in stats_])
    ranks = (sign * observed[None, :] > sign * observed[:, None]).sum(axis=-1) + 1
    return [
        {
            **key,
            "model": m,
            "n_items": n,
            "value": float(observed[i]),
            "ci_low": float(np.quantile(boot[:, i], lo_q)),
            "ci_high": float(np.quantile(boot[:, i], hi_q)),
            "rank": int(ranks[i]),
            "rank_low": int(np.quantile(boot_ranks[:, i], lo_q, method="lower")),
            "rank_high": int(np.quantile(boot_ranks[:, i], hi_q, method="higher")),
        }
        for i, m in enumerate(models)
    ]
