"""Perturbations: variants of an item that keep its gold answer, scored against the clean item (paired).

``bias``: cognitive-bias injection and mitigation for multiple-choice items (MedArabiQ §3.3, BiasMedQA).
"""

from xlingmed.perturbations.bias import BIASES, MITIGATIONS, BiasInjector, parse_perturb

__all__ = ["BIASES", "MITIGATIONS", "BiasInjector", "parse_perturb"]
