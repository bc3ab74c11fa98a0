"""The correctness task's summary, typed: what ``CorrectnessTask.summarize`` returns, ``CorrectnessView`` reads
and ``summary.json`` holds (``tasks.<correctness>``): the judge's labels per language (XLingEval Table 1)."""

from __future__ import annotations

from typing import Any

from xlingmed.tasks.base import Mean, Summary


class LanguageLabels(Summary):
    """One language's judged answers.

    Attributes:
        n: answers with a label (judged, or the judge named no option); ``n_items``: answers asked;
            ``n_errors``: requests that failed (no label).
        counts: label → answers; ``proportions``: label → count / n (``None`` where n is 0).
        parse_methods: how each judge reply was read → replies.
        change_vs_en_pp: label → percentage points against English (the paper's "relative decrease", e.g.
            HealthQA hi "more" (575 − 1013)/1134 = −38.62); ``ratio_vs_en``: label → count / English count (the
            paper's "×" figures); both ``None`` without English or without answers.
    """

    n: int
    n_items: int
    n_errors: int
    counts: dict[str, int]
    proportions: dict[str, float | None]
    parse_methods: dict[str | None, int]
    change_vs_en_pp: dict[str, float] | None = None
    ratio_vs_en: dict[str, float | None] | None = None


class PaperHeadline(Summary):
    """The XLingEval abstract's two numbers for this run as one dataset (``analysis.paper.headline_numbers``)."""

    fewer_comprehensive_pp: float | None
    times_more_contradictory: float | None
    inputs: dict[str, Any]
    dropped: dict[str, str]


class CorrectnessSummary(Summary):
    """``labels`` in the paper's order, ``label_names`` how each is shown, ``languages`` each language's labels;
    ``answer_metrics`` (metric → language → mean) where ``-T answer_metrics`` named some; ``paper_headline``
    where English and another language ran."""

    labels: list[str]
    label_names: dict[str, str]
    languages: dict[str, LanguageLabels]
    answer_metrics: dict[str, dict[str, Mean]] | None = None
    paper_headline: PaperHeadline | None = None
