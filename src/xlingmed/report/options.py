"""The report's settings, one frozen record (issue 63): what ``xlingmed report`` (the CLI), ``build_report`` and
the model comparison are told, in one place."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from xlingmed.analysis.verdict_record import MIN_JUDGE_KAPPA, VerdictOptions


@dataclass(frozen=True)
class ReportOptions:
    """How a report is built.

    Attributes:
        n_resamples, seed: every bootstrap of the report (gaps, verdicts, the model comparison).
        annotations: annotation sets (``xlingmed annotate sample``), one batch each: the judge–human agreement
            table, the judge's κ per language, and the human labels of judge-corrected verdicts.
        margins: the non-inferiority margins (``"accuracy=0.05,…"`` or a mapping; ``analysis.verdicts``).
        alpha: the one-sided level of each verdict (between 0 and 0.5, checked by ``build_report``).
        equivalence: add the TOST equivalence test.
        min_judge_kappa: a judged verdict is judge-unverified below this κ with humans.
        answer_encoder: a sentence-transformers model: each reply's similarity with the English one.
    """

    n_resamples: int = 2000
    seed: int = 0
    annotations: tuple[Path, ...] = ()
    margins: str | Mapping[str, float] | None = None
    alpha: float = 0.05
    equivalence: bool = False
    min_judge_kappa: float = MIN_JUDGE_KAPPA
    answer_encoder: str | None = None

    def verdicts(self, judges: Mapping[tuple[str, str], Mapping[str, object]], parallel: bool) -> VerdictOptions:
        """The ``VerdictOptions`` of a run (``judges``: the judge's reliability per task and language;
        ``parallel``: the run's questions are the same in every language)."""
        return VerdictOptions(alpha=self.alpha, equivalence=self.equivalence, judges=judges,
                              min_judge_kappa=self.min_judge_kappa, n_resamples=self.n_resamples, seed=self.seed,
                              parallel=parallel)  # fmt: skip
