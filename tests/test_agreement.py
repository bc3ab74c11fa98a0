"""The one agreement module (``analysis.agreement``): Cohen's κ, weighted κ, Fleiss' κ and the mean Spearman ρ on
tables whose values are worked out by hand, and ``None`` where κ is undefined."""

from __future__ import annotations

import pytest

from xlingmed.analysis.agreement import cohen_kappa, fleiss_kappa, fleiss_kappa_of_labels, mean_spearman


def test_cohens_kappa_by_hand() -> None:
    # p_o = 3/4; p_e = ½·¼ + ½·¾ = ½ → κ = (¾ − ½) / (1 − ½) = ½
    assert cohen_kappa(list("AABB"), list("ABBB")) == pytest.approx(0.5)
    assert cohen_kappa([], []) is None
    assert cohen_kappa(list("AAA"), list("AAA")) is None  # one category: nothing to agree on beyond chance
    # weighted: a disagreement by one step of 1–3 counts less than one by two steps
    near = cohen_kappa([1, 2, 3, 3], [1, 2, 3, 2], [1, 2, 3], weights="quadratic")
    far = cohen_kappa([1, 2, 3, 3], [1, 2, 3, 1], [1, 2, 3], weights="quadratic")
    assert near is not None and far is not None and near > far


def test_fleiss_kappa_by_hand() -> None:
    # two raters, three items: agree, agree, split. P̄ = 2/3, P̄e = ½ → κ = (2/3 − ½) / ½ = 1/3
    assert fleiss_kappa([[2, 0], [0, 2], [1, 1]]) == pytest.approx(1 / 3)
    assert fleiss_kappa_of_labels([["yes", "yes"], ["no", "no"], ["yes", "no"]]) == pytest.approx(1 / 3)
    assert fleiss_kappa([[2, 0]]) is None  # one item
    assert fleiss_kappa_of_labels([["a", "a"], ["a", "a"]]) is None  # one category


def test_mean_spearman_over_rater_pairs() -> None:
    # ρ(1, 2) = 1, ρ(1, 3) = ρ(2, 3) = −1 → mean −1/3; a constant rater is left out
    assert mean_spearman([[1, 2, 3, 4], [1, 2, 3, 4], [4, 3, 2, 1]]) == pytest.approx(-1 / 3)
    assert mean_spearman([[1, 2, 3], [5, 5, 5]]) is None
    assert mean_spearman([[1, 2], [2, 1]]) is None  # fewer than three items
