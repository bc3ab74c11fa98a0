"""Binary classification metrics for verifiability (XLingEval paper §5, spec §5.4).

Pure functions of label lists; scikit-learn does the arithmetic.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xlingmed.metrics.registry import MetricSpec, declare_metric

declare_metric(*(
    MetricSpec(name, "yes/no readings and their truths", how, source=f"XLingEval §5; scikit-learn {fn}")
    for name, how, fn in (
        ("macro_precision", "macro over the two classes", "precision_score"),
        ("macro_recall", "macro over the two classes", "recall_score"),
        ("macro_f1", "macro over the two classes", "f1_score"),
        ("accuracy", "over claims", "accuracy_score"),
        ("auc_hard_labels", "over claims, from the readings (the paper's AUC)", "roc_auc_score"),
        ("auc_p_yes", "over claims, from P(yes) where the backend gives logprobs", "roc_auc_score"),
    )
))


def binary_metrics(
    y_true: Sequence[int], y_pred: Sequence[int], scores: Sequence[float] | None = None
) -> dict[str, Any]:
    """Macro precision/recall/F1, accuracy and ROC AUC of binary predictions.

    Args:
        y_true: gold labels in {0, 1}, shape (n,).
        y_pred: predicted labels in {0, 1}, shape (n,).
        scores: P(positive) per row, shape (n,). When given, ``auc_p_yes`` is computed from them; ``auc`` is always
            from the hard labels, which equals macro recall (balanced accuracy), as in the paper's table.

    Returns:
        ``n, macro_precision, macro_recall, macro_f1, accuracy, auc, auc_source`` plus the positive-class
        ``precision_pos, recall_pos, f1_pos``, and both AUCs by name: ``auc_hard_labels`` (the paper's, from the
        predicted labels: equals macro recall) and ``auc_p_yes`` (from ``scores``; ``None`` without them).
        ``auc`` is always the paper's (``auc_hard_labels``; ``auc_source`` ``hard_labels``); before 0.2 it was
        ``auc_p_yes`` whenever scores were given, a number that is not the paper's. Metrics are
        ``None`` when ``n`` is 0; AUCs are ``None`` when ``y_true`` holds a single class. Precision of a class
        never predicted is 0 (sklearn ``zero_division=0``).

    Raises:
        ValueError: lengths differ or a label is not 0/1.
    """
    from sklearn.metrics import accuracy_score, precision_recall_fscore_support, roc_auc_score

    if len(y_true) != len(y_pred) or (scores is not None and len(scores) != len(y_true)):
        raise ValueError("y_true, y_pred and scores must have the same length")
    if any(v not in (0, 1) for v in [*y_true, *y_pred]):
        raise ValueError("labels must be 0 or 1")
    out: dict[str, Any] = {"n": len(y_true), "auc_source": "hard_labels"}
    keys = ("macro_precision", "macro_recall", "macro_f1", "accuracy", "auc", "auc_hard_labels", "auc_p_yes",
            "precision_pos", "recall_pos", "f1_pos")  # fmt: skip
    if not y_true:
        return {**out, **dict.fromkeys(keys)}
    p, r, f, _ = precision_recall_fscore_support(y_true, y_pred, labels=[0, 1], average="macro", zero_division=0)
    pp, rp, fp, _ = precision_recall_fscore_support(y_true, y_pred, labels=[1], average=None, zero_division=0)
    out.update(
        macro_precision=float(p),
        macro_recall=float(r),
        macro_f1=float(f),
        accuracy=float(accuracy_score(y_true, y_pred)),
        precision_pos=float(pp[0]),
        recall_pos=float(rp[0]),
        f1_pos=float(fp[0]),
    )
    two_classes = len(set(y_true)) == 2
    out["auc_hard_labels"] = float(roc_auc_score(y_true, list(y_pred))) if two_classes else None
    out["auc_p_yes"] = float(roc_auc_score(y_true, list(scores))) if two_classes and scores is not None else None
    out["auc"] = out["auc_hard_labels"]  # the paper's AUC; from P(yes) it is ``auc_p_yes`` (0.1: ``auc`` was that)
    return out
