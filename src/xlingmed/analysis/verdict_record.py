"""One verdict, typed: what ``stats/verdicts.csv``, the report's verdict table, its paragraph and footnotes, and
the model comparison's forest plot are all written from (issue 62).

A ``Verdict`` is one (outcome, language) against the reference: the gap in the better direction with its one-sided
(1 − α) bounds, the p-values (raw and Holm-corrected), the values per language, the verdict and its reason, the
``method`` the bounds come from and their ``provenance``. A judge-corrected verdict (``analysis.corrected_verdicts``)
carries the corrected figures in every one of these fields; the judge's own verdict is kept in ``judge_only``
(written as the ``judge_only_*`` columns). Columns that belong to one analysis only (the equivalence test, the
parse-limit extremes, the judge's κ) travel in ``extra`` in the order they came.

The record is also a read-only mapping of its CSV row (``verdict["difference"]``, ``verdict.get("reason")``), so
that readers written for the rows read records unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from xlingmed.analysis.records import SPREAD, Record

PAIRED_BOOTSTRAP = "paired bootstrap"
UNPAIRED_BOOTSTRAP = "unpaired bootstrap"
PPI = "prediction-powered (PPI++)"
PPI_SMALL = "prediction-powered, small-sample interval"
METHODS = {
    PAIRED_BOOTSTRAP: "items resampled with their pairs",
    UNPAIRED_BOOTSTRAP: "each language's items resampled on their own",
    PPI: "a normal interval from the judge on every item and human labels on some, ppi-python with PPI++'s λ",
    PPI_SMALL: "the rectifier's variance with two pseudo-labels at its bounds, where few labels tell the judge's "
    "error",
}  # fmt: skip
"""Each ``Verdict.method`` and how its bounds were made, as the footnotes say it."""

JUDGE_ONLY_PREFIX = "judge_only_"
MIN_ITEMS = 20
MIN_JUDGE_KAPPA = 0.6  # "substantial" agreement (Landis & Koch, Biometrics 1977: 0.61–0.80)


@dataclass(frozen=True, eq=False)
class Verdict(Record):
    """One non-inferiority verdict of ``lang`` against ``reference`` on one outcome.

    Attributes:
        task, outcome, metric, statistic, unit: the outcome (``analysis.verdicts.Outcome``).
        higher_is_better: the metric's direction (the gap is turned so that positive is better).
        lang, reference: the language judged and the one it is compared with.
        design: ``paired`` (the same questions) or ``unpaired``.
        n_items: the items compared (paired), or the language's own (unpaired); n_reference: the reference's
            (unpaired only).
        margin, alpha: δ in the outcome's units and the one-sided level.
        value_reference, value_lang: the outcome in each language (corrected where ``judge_corrected``).
        difference, lower, upper: Δ and its one-sided (1 − α) bounds; ``None`` where nothing was compared.
        p_noninferior, p_inferior: the p-values of H0: Δ ≤ −δ and H0: Δ ≥ −δ; ``_holm``: Holm-corrected across the
            languages of the outcome.
        verdict, reason: ``non-inferior`` / ``inferior`` / ``inconclusive`` and why, in words.
        method: how the bounds were made (a key of ``METHODS``); provenance: from what (resamples and seed; the
            judge's items and the human labels).
        n_items_needed: items that would decide an inconclusive verdict (bootstrap verdicts).
        judge_kappa, judge_items, judge_verified: the judge's agreement with humans (judged outcomes).
        judge_corrected, human_labels, labels_needed: the verdict is the judge-corrected one, on that many human
            labels; the labels per language that would decide it (inconclusive only; ``None``: labels cannot).
        judge_only: the judge's own figures of a corrected verdict (``analysis.corrected_verdicts.JUDGE_ONLY`` keys,
            without the prefix).
        extra: every other column of the row (equivalence, parse limits…), in order.
    """

    task: str
    outcome: str
    metric: str
    statistic: str
    unit: str
    higher_is_better: bool | None
    lang: str
    reference: str
    design: str
    n_items: int
    n_reference: int | None
    margin: float
    alpha: float
    value_reference: float | None = None
    value_lang: float | None = None
    difference: float | None = None
    lower: float | None = None
    upper: float | None = None
    p_noninferior: float | None = None
    p_inferior: float | None = None
    p_noninferior_holm: float | None = None
    p_inferior_holm: float | None = None
    verdict: str = "inconclusive"
    reason: str = ""
    method: str = PAIRED_BOOTSTRAP
    provenance: str = ""
    n_items_needed: int | None = None
    judge_kappa: float | None = None
    judge_items: int | None = None
    judge_verified: bool | None = None
    judge_corrected: bool = False
    human_labels: int = 0
    labels_needed: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict, metadata=SPREAD)
    judge_only: Mapping[str, Any] = field(default_factory=dict, metadata={**SPREAD, "prefix": JUDGE_ONLY_PREFIX})

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Verdict:
        """The record of a verdict row (``analysis.verdicts.noninferiority``, after
        ``analysis.corrected_verdicts.apply``; or a ``verdicts.csv`` row read back): the fields by name,
        ``judge_only_*`` columns into ``judge_only``, the rest into ``extra``.

        Raises:
            KeyError: a row without ``outcome``, ``lang`` or ``verdict``.
        """
        if isinstance(row, Verdict):
            return row
        names = [f.name for f in fields(cls) if f.name not in ("judge_only", "extra")]
        missing = [k for k in ("outcome", "lang", "verdict") if k not in row]
        if missing:
            raise KeyError(f"a verdict row needs {', '.join(missing)}")
        defaults = {"task": "", "metric": "", "statistic": "mean", "unit": "proportion", "higher_is_better": None,
                    "reference": "en", "design": "paired", "n_items": 0, "n_reference": None,
                    "margin": float("nan"), "alpha": 0.05}  # fmt: skip
        given = {k: row[k] for k in names if k in row and not (k == "method" and row[k] is None)}
        given["judge_corrected"] = bool(row.get("judge_corrected") or False)
        if "method" not in given:  # a row written before methods were named (0.1): what made its bounds
            design = row.get("design", "paired")
            given["method"] = PPI if given["judge_corrected"] else (
                UNPAIRED_BOOTSTRAP if design == "unpaired" else PAIRED_BOOTSTRAP)
        given["human_labels"] = int(row.get("human_labels") or 0)
        judge_only = {k[len(JUDGE_ONLY_PREFIX):]: v for k, v in row.items() if k.startswith(JUDGE_ONLY_PREFIX)}
        extra = {k: v for k, v in row.items() if k not in names and not k.startswith(JUDGE_ONLY_PREFIX)}
        return cls(**{**defaults, **given}, judge_only=judge_only, extra=extra)

    # row(), and the mapping of the row, are Record's: the fields in order (``task, outcome, metric…``), then
    # ``extra``, then the ``judge_only_*`` columns

    @property
    def method_words(self) -> str:
        """How the bounds were made, in words (``METHODS``)."""
        return METHODS.get(self.method, self.method)


@dataclass(frozen=True)
class VerdictOptions:
    """How ``analysis.verdicts.noninferiority`` decides each verdict (one record instead of ten keyword arguments).

    Attributes:
        alpha: the one-sided level of each test (bounds are one-sided (1 − α) bounds).
        equivalence: add the TOST equivalence test (|Δ| < δ), Holm-corrected like the others.
        min_items: fewer paired items than this is inconclusive whatever the resamples say.
        judges: (task, language) → ``{"judge_kappa", "n_items"}`` (``annotate.agreement.judge_reliability``).
        min_judge_kappa: a judged verdict needs the judge's κ with humans at least this to be ``judge_verified``.
        n_resamples, seed: the bootstrap (the k-th language of an outcome resamples with ``seed + k``).
        parallel: the same questions in every language (paired); false: unpaired.
        parse_limits: mark and recompute the verdicts where many replies were not read by a direct rule.
    """

    alpha: float = 0.05
    equivalence: bool = False
    min_items: int = MIN_ITEMS
    judges: Mapping[tuple[str, str], Mapping[str, Any]] = field(default_factory=dict)
    min_judge_kappa: float = MIN_JUDGE_KAPPA
    n_resamples: int = 10_000
    seed: int = 0
    parallel: bool = True
    parse_limits: bool = True


def as_verdicts(rows: Sequence[Verdict | Mapping[str, Any]]) -> list[Verdict]:
    """Records of ``rows`` (records pass through; mappings through ``Verdict.from_row``)."""
    return [Verdict.from_row(r) for r in rows]
