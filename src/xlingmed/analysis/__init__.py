"""Language-disparity statistics: is the model worse in language X than in English, by how much, how sure?

* ``paper``: the authors' tests, reproduced (XLingEval §4.2, Tables 2, 3, A12, A13; spec §4): one-way ANOVA,
  Tukey HSD and unpaired Student t-tests over languages treated as independent groups.
* ``paired``: tests that use the pairing by ``item_id`` (the same question in two languages): paired t and
  Wilcoxon signed-rank, McNemar for binary outcomes, Friedman / Cochran's Q across all languages, Holm
  correction across language pairs.
* ``gaps``: the gap against English with a bootstrap 95% CI resampled by item, and an effect size.

Input everywhere: a long table (``item_id``, ``lang``, ``value``) of per-item values of one metric.
"""

from xlingmed.analysis.data import Paired, complete_items, paired_values
from xlingmed.analysis.gaps import gap_vs_reference
from xlingmed.analysis.paired import cochran_q, friedman, mcnemar, paired_pairwise
from xlingmed.analysis.paper import anova_oneway, tukey_hsd, unpaired_t

__all__ = [
    "Paired",
    "anova_oneway",
    "cochran_q",
    "complete_items",
    "friedman",
    "gap_vs_reference",
    "mcnemar",
    "paired_pairwise",
    "paired_values",
    "tukey_hsd",
    "unpaired_t",
]
