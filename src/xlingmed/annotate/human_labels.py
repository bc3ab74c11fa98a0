"""What the annotators said, as the outcome a verdict is drawn on: per judged task and language, each labelled
item's human value (the task's primary outcome scored from the majority human label) and its sampling weight.

``analysis.judge_corrected`` combines these with the judge's values on every item (prediction-powered
inference). The weights undo the draw of ``annotate sample``: an item drawn from a stratum (a language × judge
label) of N_h items of which n_h were labelled stands for N_h / n_h items (``set.json`` → ``strata`` records N_h;
n_h counts the items of the stratum with a majority label). A set drawn ``paired`` labelled the same items in
every language, so gaps can be taken item by item. An item that is a part of its question's outcome (it carries a
``weight``: a HealthBench criterion) is kept with the judge's value of that part (``HumanLabels.parts``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from xlingmed.analysis.corrected_verdicts import HumanLabels
from xlingmed.annotate.answers import Answer
from xlingmed.annotate.sample import AnnotationSet, unit_key

ValueOf = Callable[[str, Mapping[str, Any], str, str], "float | None"]
"""(task, set item, human label, the rows' column a label is) → the task's primary outcome for that label;
``None``: the label gives none."""


def _stratum(item: Mapping[str, Any], settings: Mapping[str, Any]) -> str:
    lang = str(item["lang"]) if settings.get("per_language", True) else "*"
    label = str(item["label"]) if settings.get("stratify", "label") == "label" else "*"
    return f"{lang}|{label}"


def majority(answers: Sequence[Answer], aset: AnnotationSet) -> dict[str, str]:
    """Item id → the label most annotators gave (ties: no majority, left out)."""
    by_item: dict[str, list[str]] = defaultdict(list)
    ids = {it["id"] for it in aset.items}
    for ans in answers:
        if ans.item in ids and ans.annotator in aset.annotators:
            by_item[ans.item].append(ans.label)
    out = {}
    for item, given in by_item.items():
        ranked = Counter(given).most_common()
        if len(ranked) == 1 or ranked[1][1] < ranked[0][1]:
            out[item] = ranked[0][0]
    return out


def human_labels(sets: Sequence[tuple[AnnotationSet, Sequence[Answer]]], value_of: ValueOf) -> dict[str, HumanLabels]:
    """Task → its human outcome values over every judge-check set given (an item labelled in two sets counts once,
    from the first).

    Args:
        sets: (annotation set, its answers), judge checks only (``load_judge_set``).
        value_of: (task, set item, human label) → outcome value (``analysis.judge_corrected.label_value``).
    """
    out: dict[str, HumanLabels] = {}
    for aset, answers in sets:
        task = str(aset.settings.get("task"))
        labels = out.setdefault(task, HumanLabels(task))
        labels.paired = labels.paired and bool(aset.settings.get("paired", False))
        items = {it["id"]: it for it in aset.items}
        decided = majority(answers, aset)
        answered: Counter[str] = Counter(_stratum(items[i], aset.settings) for i in decided)
        strata: Mapping[str, Any] = aset.settings.get("strata") or {}
        column = str(aset.settings.get("label_column") or "label")
        for item_id, label in decided.items():
            item = items[item_id]
            lang, key = str(item["lang"]), unit_key(item)  # a question, or a part of one: the first label counts
            if key in labels.values.get(lang, {}):
                continue
            value = value_of(task, item, label, column)
            judge = value_of(task, item, str(item["label"]), column) if "weight" in item else None
            if value is None or ("weight" in item and judge is None):
                labels.unusable[lang] = labels.unusable.get(lang, 0) + 1
                continue
            size = (strata.get(_stratum(item, aset.settings)) or {}).get("stratum")
            weight = float(size) / answered[_stratum(item, aset.settings)] if size else 1.0
            if aset.settings.get("paired"):
                weight = 1.0  # paired sets (and further ones --for-verdict) draw questions at random: equal weights
            labels.values.setdefault(lang, {})[key] = value
            labels.weights.setdefault(lang, {})[key] = weight
            if judge is not None:  # a part of its item's outcome (a HealthBench criterion): the judge's value beside
                labels.parts.setdefault(lang, {})[key] = (str(item["item_id"]), judge)
    return out
