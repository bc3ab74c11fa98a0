"""Judge–human agreement (XLingEval Table A7): does the LLM judge's label match what medical experts say?

Per language and over all languages, on the items at least one annotator answered:

* ``judge_agreement``: share of items whose majority human label equals the judge's label (items without a
  strict majority are counted in ``n_no_majority`` and left out of the share);
* ``unanimous``: share of items where every annotator who answered agrees with the judge;
* ``cohen_kappa`` (exactly two annotators, items both answered; scikit-learn) or ``fleiss_kappa`` (three or more,
  items all answered; statsmodels): agreement between the humans themselves, beyond chance;
* ``judge_kappa``: Cohen's κ between the judge's label and the majority human label (items with a majority): the
  judge's agreement with the humans beyond chance, which a verdict on a judged outcome needs (``judge_reliability``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from xlingmed.analysis.agreement import cohen_kappa, fleiss_kappa
from xlingmed.annotate.answers import Answer
from xlingmed.annotate.sample import AnnotationSet
from xlingmed.errors import ConfigError


def inter_rater_kappa(
    per_item: Mapping[Any, Mapping[str, Hashable]],
    annotators: Sequence[str],
    labels: Sequence[Hashable],
    *,
    weights: str | None = None,
) -> dict[str, Any]:
    """Agreement beyond chance between annotators, on the items every one of them labelled.

    Args:
        per_item: item → annotator → label.
        annotators: the raters (two: Cohen's κ, scikit-learn; three or more: Fleiss' κ, statsmodels).
        labels: every possible label, in order (the order matters for ``weights``).
        weights: ``linear`` / ``quadratic`` for a weighted Cohen's κ; Fleiss' κ has none, so with weights and
            three or more annotators ``kappa`` is ``None``.

    Returns:
        ``{"kappa", "kappa_kind", "n_kappa_items"}``: κ (``None`` with fewer than two annotators, no complete item,
        or when undefined: every label in one category), ``cohen`` | ``fleiss`` | ``None``, and the number of
        items every annotator labelled.
    """
    if len(annotators) < 2:
        return {"kappa": None, "kappa_kind": None, "n_kappa_items": 0}
    complete = [item for item, by in per_item.items() if all(a in by for a in annotators)]
    if not complete:
        return {"kappa": None, "kappa_kind": None, "n_kappa_items": 0}
    if len(annotators) == 2:
        a, b = ([per_item[i][x] for i in complete] for x in annotators)
        return {"kappa": cohen_kappa(a, b, labels, weights=weights), "kappa_kind": "cohen",
                "n_kappa_items": len(complete)}  # fmt: skip
    if weights is not None:
        return {"kappa": None, "kappa_kind": None, "n_kappa_items": len(complete)}
    counts = [[sum(per_item[i][x] == lab for x in annotators) for lab in labels] for i in complete]
    return {"kappa": fleiss_kappa(counts), "kappa_kind": "fleiss", "n_kappa_items": len(complete)}


def _judge_set(annotation_set: AnnotationSet) -> None:
    if annotation_set.kind != "judge":
        raise ConfigError(
            f"{annotation_set.path} is a {annotation_set.kind}-rating set, not a judge check: "
            "`xlingmed annotate export` gives its table"
        )


def agreement_table(annotation_set: AnnotationSet, answers: Sequence[Answer]) -> list[dict[str, Any]]:
    """One row per language (in the set's order of first appearance) and a final ``all`` row.

    Returns:
        rows with ``lang``, ``n_items``, ``n_annotators``, ``n_answers``, ``judge_agreement``,
        ``n_no_majority``, ``unanimous``, ``kappa``, ``kappa_kind`` (``cohen`` | ``fleiss``), ``n_kappa_items``,
        ``judge_kappa``;
        shares are in [0, 1], ``None`` where undefined.

    Raises:
        ConfigError: a translation-rating set (its table is ``translations.translation_table``).
    """
    _judge_set(annotation_set)
    items = {it["id"]: it for it in annotation_set.items}
    by_item: dict[str, dict[str, str]] = defaultdict(dict)
    for ans in answers:
        if ans.item in items and ans.annotator in annotation_set.annotators and ans.label in annotation_set.labels:
            by_item[ans.item][ans.annotator] = ans.label
    langs = list(dict.fromkeys(it["lang"] for it in annotation_set.items))
    rows = []
    for lang in [*langs, "all"]:
        scope = {i: by for i, by in by_item.items() if lang == "all" or items[i]["lang"] == lang}
        annotators = sorted({a for by in scope.values() for a in by})
        majority_hits = no_majority = unanimous = 0
        pairs: list[tuple[str, str]] = []  # (judge, majority) of the items with a majority
        for item, by in scope.items():
            judge = items[item]["label"]
            ranked = Counter(by.values()).most_common()
            if len(ranked) > 1 and ranked[1][1] == ranked[0][1]:
                no_majority += 1  # a tie: no majority label
            else:
                majority_hits += ranked[0][0] == judge
                pairs.append((judge, ranked[0][0]))
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
                **inter_rater_kappa(scope, annotators, annotation_set.labels),
                "judge_kappa": judge_kappa(pairs, annotation_set.labels),
            }
        )
    return rows


def judge_kappa(pairs: Sequence[tuple[str, str]], labels: Sequence[str]) -> float | None:
    """Cohen's κ of (judge label, majority human label) pairs; ``None`` without pairs or when undefined (every
    label in one category)."""
    return cohen_kappa([j for j, _ in pairs], [h for _, h in pairs], labels)


def judge_reliability(sets: Sequence[tuple[AnnotationSet, Sequence[Answer]]]) -> dict[tuple[str, str], dict[str, Any]]:
    """(task, language) → ``{"judge_kappa", "n_items"}`` over every annotation set given (batches pooled: each
    item with a majority human label is one (judge, human) pair).

    Raises:
        ConfigError: a translation-rating set among them.
    """
    pooled: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    labels: dict[tuple[str, str], list[str]] = {}
    for aset, answers in sets:
        _judge_set(aset)
        task = str(aset.settings.get("task"))
        items = {it["id"]: it for it in aset.items}
        by_item: dict[str, list[str]] = defaultdict(list)
        for ans in answers:
            if ans.item in items and ans.annotator in aset.annotators:
                by_item[ans.item].append(ans.label)
        for item, given in by_item.items():
            ranked = Counter(given).most_common()
            if len(ranked) > 1 and ranked[1][1] == ranked[0][1]:
                continue
            key = (task, str(items[item]["lang"]))
            pooled[key].append((items[item]["label"], ranked[0][0]))
            labels[key] = list(dict.fromkeys([*labels.get(key, []), *aset.labels]))
    return {k: {"judge_kappa": judge_kappa(v, labels[k]), "n_items": len(v)} for k, v in pooled.items()}
