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
from dataclasses import dataclass, field, replace
from itertools import combinations

import numpy as np
import pandas as pd

from xlingmed.analysis.effects import Effect
from xlingmed.analysis.items import difference, item_table, per_item, resample, statistic_of
from xlingmed.analysis.paired import holm, mcnemar
from xlingmed.analysis.records import Record, Tables
from xlingmed.analysis.verdicts import Outcome
from xlingmed.outcomes import TaskOutcome, apart


@dataclass(frozen=True, eq=False, kw_only=True)
class ModelPair(Record):
    """Two models on the items both scored in one language: their values, the difference (b − a, better =
    positive) with its bootstrap CI, the test (``mcnemar`` / ``wilcoxon``), p and ``p_holm`` (across the pairs and
    languages of the outcome). A pair without a common item has none of these columns."""

    task: str
    outcome: str
    lang: str
    model_a: str
    model_b: str
    n_items: int
    value_a: float | None = None
    value_b: float | None = None
    difference: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    test: str | None = None
    p: float | None = None
    p_holm: float | None = None

    def absent(self) -> frozenset[str]:
        if self.n_items:
            return frozenset()
        return frozenset({"value_a", "value_b", "difference", "ci_low", "ci_high", "test", "p", "p_holm"})


@dataclass(frozen=True, eq=False, kw_only=True)
class ModelRank(Record):
    """One model's statistic and rank (1 = best) on the items every model scored in one language, with bootstrap
    percentile intervals of both."""

    task: str
    outcome: str
    lang: str
    model: str
    n_items: int
    value: float
    ci_low: float
    ci_high: float
    rank: int
    rank_low: int
    rank_high: int


@dataclass(frozen=True)
class ModelTables(Tables):
    """The model comparison's tables (``stats/models_<name>.csv``): ``pairs``, ``ranking`` and, added by the
    report, the GEE ``effects`` (``analysis.effects.language_effects``)."""

    pairs: list[ModelPair] = field(default_factory=list)
    ranking: list[ModelRank] = field(default_factory=list)
    effects: list[Effect] = field(default_factory=list)


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
) -> ModelTables:
    """Model-vs-model tests and rankings per language, on each task's primary outcome.

    Args:
        scores: the Scores of several runs with a ``model`` column (one model per run), plain questions only.
        languages: the languages to compare in.

    Returns:
        ``ModelTables`` with ``pairs`` (``ModelPair``) and ``ranking`` (``ModelRank``; ``effects`` empty).
    """
    from xlingmed.analysis.verdicts import outcomes

    pairs: list[ModelPair] = []
    ranking: list[ModelRank] = []
    plain = scores[scores["condition"].isna()] if "condition" in scores else scores
    lo_q, hi_q = (1 - confidence) / 2, 1 - (1 - confidence) / 2
    for oc in outcomes(apart(tasks, plain["task"])):
        sub = plain[(plain["task"] == oc.task) & (plain["metric"] == oc.metric)]
        models = list(dict.fromkeys(sub["model"]))
        if len(models) < 2:
            continue
        sign = 1.0 if bool(sub["higher_is_better"].iloc[0]) else -1.0
        block: list[ModelPair] = []
        for k, lang in enumerate(languages):
            tables = _tables(sub, models, lang, oc.statistic)
            for j, (a, b) in enumerate(combinations(models, 2)):
                items = tables[a].index.intersection(tables[b].index)
                ta, tb = tables[a].loc[items].to_numpy(float), tables[b].loc[items].to_numpy(float)
                row = ModelPair(task=oc.task, outcome=oc.name, lang=lang, model_a=a, model_b=b, n_items=len(items))
                if len(items):
                    ones = np.ones((1, len(items)))
                    sa, sb = statistic_of(oc.statistic, ta), statistic_of(oc.statistic, tb)
                    boot = sign * resample(difference(oc.statistic, ta, tb), len(items), n_resamples, seed + j)
                    test, p = _paired_test(per_item(oc.statistic, ta), per_item(oc.statistic, tb))
                    row = replace(
                        row, value_a=float(sa(ones)[0]), value_b=float(sb(ones)[0]),
                        difference=sign * float(sb(ones)[0] - sa(ones)[0]),
                        ci_low=float(np.quantile(boot, lo_q)), ci_high=float(np.quantile(boot, hi_q)), test=test, p=p,
                    )  # fmt: skip
                block.append(row)
            ranking += _rank(oc, lang, tables, models, sign, n_resamples, seed + 1000 * (k + 1), lo_q, hi_q)
        tested = [i for i, r in enumerate(block) if r.p is not None]
        adjusted = holm([block[i].p or 0.0 for i in tested]) if tested else np.array([])
        for i, p in zip(tested, adjusted, strict=True):
            block[i] = replace(block[i], p_holm=float(p))
        pairs += block
    return ModelTables(pairs=pairs, ranking=ranking)


def _rank(
    oc: Outcome,
    lang: str,
    tables: dict[str, pd.DataFrame],
    models: Sequence[str],
    sign: float,
    n_resamples: int,
    seed: int,
    lo_q: float,
    hi_q: float,
) -> list[ModelRank]:
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
        ModelRank(
            task=oc.task, outcome=oc.name, lang=lang, model=m, n_items=n, value=float(observed[i]),
            ci_low=float(np.quantile(boot[:, i], lo_q)), ci_high=float(np.quantile(boot[:, i], hi_q)),
            rank=int(ranks[i]), rank_low=int(np.quantile(boot_ranks[:, i], lo_q, method="lower")),
            rank_high=int(np.quantile(boot_ranks[:, i], hi_q, method="higher")),
        )
        for i, m in enumerate(models)
    ]
