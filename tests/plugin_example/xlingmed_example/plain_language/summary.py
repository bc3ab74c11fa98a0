"""What the task found, typed: ``summarize`` returns it, the view reads it, ``summary.json`` holds it."""

from xlingmed.tasks.base import Summary


class Mean(Summary):
    mean: float | None  # None where nothing was read
    n: int


class LanguageResult(Summary):
    plain: Mean  # the share of answers the judge called plain language
    metrics: dict[str, Mean]  # each answer metric's mean (mentions_doctor…)
    unread: int  # judge replies that said neither yes nor no


class PlainLanguageSummary(Summary):
    languages: dict[str, LanguageResult]
