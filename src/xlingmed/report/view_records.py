"""What the report's page template renders, typed (issue 63): one record per part of a run's section and of the
page, built by ``report.run_view``, ``report.sections``, ``report.verdicts`` and ``report.compare``.

The template reads these by attribute (``run.header.model``, ``row.cells``); every cell is already formatted
text, except where a record says otherwise. Only what is genuinely free-form stays a mapping: a task view's
headline numbers and the rows of the annotation sets' agreement table, whose columns the annotate package owns.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from xlingmed.analysis.corrected_verdicts import CorrectedRow
from xlingmed.analysis.models import ModelTables
from xlingmed.analysis.verdict_record import Verdict


@dataclass(frozen=True)
class RunHeader:
    """A run's header line: benchmark, model, items per language (``en: 100, hi: 100``), judge and translator
    (``–`` where none) and the engines that ran them (``report.run_view.engines``)."""

    benchmark: str
    model: str
    n_items: str
    judge: str
    translator: str
    engines: str


@dataclass(frozen=True)
class LossRow:
    """One line of a per-language table of counts: what is counted (``what``: a task's unscored items, a parse
    method's replies) and one cell per language of the run, in its order."""

    what: str
    cells: list[Any]


@dataclass(frozen=True)
class ParsingView:
    """How replies were read: per task × method × language (``LossRow``s) and the >5 % warnings."""

    rows: list[LossRow]
    warnings: list[str]


@dataclass(frozen=True)
class TableView:
    """A table as the template shows it: title, note, its columns and each row's formatted cells."""

    title: str
    note: str
    columns: list[str]
    rows: list[list[Any]]


@dataclass(frozen=True)
class GapView:
    """One row of a run's gaps table, formatted (``report.run_view``)."""

    criterion: str
    metric: str
    temperature: str
    lang: str
    n_items: int | str
    excluded: int | str
    design: str
    mean_reference: str
    mean_lang: str
    gap: str
    ci: str
    effect: str
    p: str
    significant: bool


@dataclass(frozen=True)
class VerdictRow:
    """One verdict in the report's table: its cells (``report.verdicts.section``'s columns), verdict and why."""

    cells: list[str]
    verdict: str
    reason: str


@dataclass
class VerdictSection:
    """A run's verdicts (``report.verdicts.section``): the records (``raw``, each ``row()`` a line of
    ``stats/verdicts.csv``), the judge-corrected rows three ways (``corrected``), the footnotes, the table's
    columns and rows, the paragraph; ``human``: the same on human-translated items only, where the set mixes
    them (set by ``report.run_view``)."""

    raw: list[Verdict]
    corrected: list[CorrectedRow]
    footnotes: list[str]
    columns: list[str]
    rows: list[VerdictRow]
    paragraph: str
    human: VerdictSection | None = None


@dataclass(frozen=True)
class FigureView:
    """One figure of a section: its alt text and the PNG, base64."""

    alt: str
    png: str


@dataclass(frozen=True)
class FigureSectionView:
    """A titled group of figures, with its note."""

    title: str
    note: str
    images: list[FigureView]


@dataclass
class RunView:
    """One run's part of the report (``report.run_view.run_section``)."""

    label: str
    header: RunHeader
    languages: list[str]
    toy: bool
    skipped: str | None
    uneven: list[str]
    gaps: list[GapView]
    figures: dict[str, str]
    figure_sections: list[FigureSectionView]
    counts: list[LossRow]
    parsing: ParsingView
    stat_tables: list[TableView]
    notes: list[str]
    manifest: str
    verdict: VerdictSection | None = None


@dataclass(frozen=True)
class ComparisonRow:
    """A task's number in one run, per language (``–`` where none)."""

    metric: str
    run: str
    cells: list[str]


@dataclass(frozen=True)
class ComparisonView:
    """Each task's comparison rows over several runs, with the languages of their cells."""

    languages: list[str]
    rows: list[ComparisonRow]


@dataclass(frozen=True)
class AgreementView:
    """The judge–human agreement of the annotation sets: the rows as ``annotate.agreement_table`` gives them, with
    their batch and task (``raw``, for ``stats/judge_human_agreement.csv``), and the table shown."""

    raw: list[Mapping[str, object]]
    table: TableView


@dataclass
class ModelsView:
    """The comparison of several runs' models (``report.compare.section``): ``refused`` (why not) or the tables,
    the marks that say what differs, and, set by the report, the forest figure (base64) and the tables shown."""

    refused: str | None
    marks: list[str]
    tables: ModelTables | None = None
    figure: str | None = None
    shown: dict[str, TableView] = field(default_factory=dict)
