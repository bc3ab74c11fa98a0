"""Judge–human agreement (XLingEval Table A7): does the LLM judge's label match what medical experts say?

Per language and over all languages, on the items at least one annotator answered:

* ``judge_agreement``: share of items whose majority human label equals the judge's label (items without a
  strict majority are counted in ``n_no_majority`` and left out of the share);
* ``unanimous``: share of items where every annotator who answered agrees with the judge;
* ``cohen_kappa`` (exactly two annotators, items both answered; scikit-learn) or ``fleiss_kappa`` (three or more,
  items all answered; statsmodels): agreement between the humans themselves, beyond chance.
"""

from __future__ import annotations

import math
import warnings
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from xlingmed.annotate.answers import Answer
from xlingmed.annotate.sample import AnnotationSet


def _kappa(per_item: dict[str, dict[str, str]], annotators: list[str], labels: list[str]) -> dict[str, Any]:
    if len(annotators) < 2:
        return {"kappa": None, "kappa_kind": None, "n_kappa_items": 0}
    complete = [item for item, by in per_item.items() if all(a in by for a in annotators)]
    if not complete:
        return {"kappa": None, "kappa_kind": None, "n_kappa_items": 0}
    with warnings.catch_warnings():  # the undefined case (one category) is handled below, not warned about
        warnings.simplefilter("ignore")
        if len(annotators) == 2:
            from sklearn.metrics import cohen_kappa_score

            a, b = ([per_item[i][x] for i in complete] for x in annotators)
            value = float(cohen_kappa_score(a, b, labels=labels))
            kind = "cohen"
        else:
            import numpy as np
            from statsmodels.stats.inter_rater import fleiss_kappa

            counts = np.array([[sum(per_item[i][x] == lab for x in annotators) for lab in labels] for i in complete])
            value = float(fleiss_kappa(counts, method="fleiss"))
            kind = "fleiss"
    # κ is undefined when every rating falls in one category (no variation to agree beyond chance on)
    return {"kappa": None if math.isnan(value) else value, "kappa_kind": kind, "n_kappa_items": len(complete)}


def agreement_table(annotation_set: AnnotationSet, answers: Sequence[Answer]) -> list[dict[str, Any]]:
    """One row per language (in the set's order of first appearance) and a final ``all`` row.

    Returns:
        rows with ``lang``, ``n_items``, ``n_annotators``, ``n_answers``, ``judge_agreement``,
        ``n_no_majority``, ``unanimous``, ``kappa``, ``kappa_kind`` (``cohen`` | ``fleiss``), ``n_kappa_items``;
        shares are in [0, 1], ``None`` where undefined.
    """
    items = {it["id"]: it for it in annotation_set.items}
    by_item: dict[str, dict[str, str]] = defaultdict(dict)
    for ans in answers:
        if ans.item in items and ans.annotator in annotation_set.annotators:
            by_item[ans.item][ans.annotator] = ans.label
    langs = list(dict.fromkeys(it["lang"] for it in annotation_set.items))
    rows = []
    for lang in [*langs, "all"]:
        scope = {i: by for i, by in by_item.items() if lang == "all" or items[i]["lang"] == lang}
        annotators = sorted({a for by in scope.values() for a in by})
        majority_hits = no_majority = unanimous = 0
        for item, by in scope.items():
            judge = items[item]["label"]
            ranked = Counter(by.values()).most_common()
            if len(ranked) > 1 and ranked[1][1] == ranked[0][1]:
                no_majority += 1  # a tie: no majority label
            else:
                majority_hits += ranked[0][0] == judge
            unanimous += all(label == judge for label in by.values())
        decided = len(scope) - no_majority
        rows.append(
            {
                "lang": lang,
                "n_items": len(scope),
                "n_annotators": len(annotators),
                "n_answers": sum(len(by) for by in scope.values()),
                "judge_agreement": majority_hits / decided if decided else None,
                "n_no_majority": no_majority,
                "unanimous": unanimous / len(scope) if scope else None,
                **_kappa(scope, annotators, annotation_set.labels),
            }
        )
    return rows
