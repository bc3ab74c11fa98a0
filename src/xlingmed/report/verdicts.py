"""The report's verdict section: per run, the non-inferiority verdict of each language on each primary outcome
(``analysis.verdicts``) as a table, and one paragraph in plain language generated from those rows alone."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from xlingmed.analysis.corrected_verdicts import CorrectedRow, HumanLabels
from xlingmed.analysis.verdict_record import Verdict, VerdictOptions, as_verdicts
from xlingmed.analysis.verdicts import INCONCLUSIVE, INFERIOR, MIN_ITEMS, NONINFERIOR, noninferiority, paired
from xlingmed.report.view_records import VerdictRow, VerdictSection
from xlingmed.views.base import cell

ORDER = (INFERIOR, INCONCLUSIVE, NONINFERIOR)
# what counts as made by people, for --provenance human and the report's human-only verdicts (benchmarks.hub)
BY_PEOPLE = ("original", "human", "post-edited")


def human_translated(scores: pd.DataFrame) -> pd.DataFrame | None:
    """The Scores of items whose text was written or translated by people, when the run mixes those with machine
    or unstated translations (``Score.translation``); ``None`` when it does not (nothing to show twice)."""
    if "translation" not in scores or scores["translation"].isna().all():
        return None
    made = scores["translation"].fillna("unstated")
    people = made.isin(BY_PEOPLE)
    if people.all() or not people.any() or set(made[people]) == {"original"}:
        return None
    return scores[people]


def _name(code: str) -> str:
    from xlingmed.languages.codes import name_of

    return name_of(code)


def amount(row: Verdict, value: float | None) -> str:
    """A difference or margin in the outcome's units (``row.unit``): percentage points for a proportion."""
    if value is None or value != value:  # NaN: an outcome with no default margin, none given
        return "not given"
    if row.unit == "proportion":
        return f"{100 * abs(value):.1f} percentage points"
    return f"{abs(value):.3g} {row.unit}"


MARKS = {"judge_unverified": "*", "parse_limited": "†", "judge_corrected": "‡"}
VERDICT_ORDER = {v: k for k, v in enumerate(ORDER)}


def paragraph(model: str, benchmark: str, records: Sequence[Verdict | Mapping[str, Any]], alpha: float) -> str:
    """What a reader takes in at a glance: one short sentence per language with its verdict on each outcome and,
    for an inconclusive one, its main reason; a caveat is a mark (``*`` judge-unverified, ``†`` parse-limited,
    ``‡`` judge-corrected) that ``footnotes`` explains, and a column of the verdict table. About 450 characters for
    three languages × two outcomes. ``records``: the verdicts (``Verdict``; a row mapping is read as one)."""
    rows = as_verdicts(records)
    if not rows:
        return (
            f"{model} on {benchmark}: no verdict (no task with a primary outcome was scored in English and another "
            "language)."
        )
    unpaired = any(r.design == "unpaired" for r in rows)
    parts = [f"{model} on {benchmark}, each language against English"
             + (" (unpaired: different questions per language):" if unpaired else ":")]  # fmt: skip
    for lang in dict.fromkeys(r.lang for r in rows):
        mine = sorted((r for r in rows if r.lang == lang), key=lambda r: VERDICT_ORDER.get(r.verdict, 3))
        said = [f"{r.verdict} on {r.outcome}{_marks(r)}{_detail(r)}" for r in mine]
        parts.append(f"{_name(lang)}: {'; '.join(said)}.")
    return " ".join(parts)


def _unverified(r: Verdict) -> bool:
    """A judged verdict with no (or too low) judge–human agreement, and no human labels correcting it."""
    return r.judge_verified is False and not r.judge_corrected


def _marks(r: Verdict) -> str:
    shown = {"judge_unverified": _unverified(r), "parse_limited": r.extra.get("parse_limited"),
             "judge_corrected": r.judge_corrected}  # fmt: skip
    return "".join(mark for key, mark in MARKS.items() if shown[key])


def _detail(r: Verdict) -> str:
    """The main reason of an inconclusive verdict (or how far worse an inferior one is), in a few words."""
    if r.verdict == INFERIOR:
        return f", {amount(r, r.difference)} worse"
    if r.verdict != INCONCLUSIVE:
        return ""
    if r.extra.get("verdict_as_read", INCONCLUSIVE) != INCONCLUSIVE:
        return f" ({r.extra['verdict_as_read']} as read; unread replies decide)"
    if r.margin != r.margin:
        return " (no margin given)"
    if not r.n_items:
        return " (no item in both languages)"
    if r.judge_corrected:
        more = None if r.labels_needed is None else max(r.labels_needed - int(r.human_labels or 0), 1)
        return f" (about {more} more human labels)" if more else " (more items, not labels, needed)"
    needed, items = r.n_items_needed, paired(r.n_items, r.design)
    if needed:
        return f" ({items}, about {needed} needed)"
    return f" ({items}, fewer than {MIN_ITEMS})" if r.n_items < MIN_ITEMS else " (on the margin)"


def footnotes(records: Sequence[Verdict | Mapping[str, Any]], alpha: float) -> list[str]:
    """One line per caveat the paragraph marks, its languages grouped by outcome and by what is said of them
    (``accuracy (English 7.5%): Spanish 12.5%, Hindi 30.0% (inferior / non-inferior)``), then one line of method:
    the margins and how each verdict's bounds were made (``Verdict.method``: the first method of the rows for all
    the others, each other one with the outcomes and languages it bounds)."""
    rows = as_verdicts(records)
    lines = []
    unverified = [r for r in rows if _unverified(r)]
    if unverified:
        lines.append("* Judge-unverified (read as the judge's verdict, not yet the clinicians'): "
                     + _by_outcome(unverified, _lang, _judge_words) + ".")  # fmt: skip
    limited = [r for r in rows if r.extra.get("parse_limited")]
    if limited:
        lines.append("† Parse-limited (more than 5% of replies unread, ambiguous or read by a fallback rule; the "
                     "verdict if every such reply is wrong / right): "
                     + _by_outcome(limited, _parse_share, _parse_words, _reference_share) + ".")  # fmt: skip
    corrected = [r for r in rows if r.judge_corrected]
    if corrected:
        lines.append("‡ Judge-corrected with human labels (every figure of the row is the corrected one; the judge's "
                     "own are the judge_only_* columns of verdicts.csv): "
                     + _by_outcome(corrected, lambda r: f"{_lang(r)} with {r.human_labels} labels",
                                   lambda r: f"{r.method}; judge alone: {r.judge_only.get('verdict')}")
                     + ".")  # fmt: skip
    margins = dict.fromkeys(f"{r.outcome.split(' (')[0]} δ = {amount(r, r.margin)}" for r in rows)
    methods = list(dict.fromkeys(r.method for r in rows))
    how = f"{methods[0]} ({rows[0].method_words})" if rows else ""
    for other in methods[1:]:
        mine = [r for r in rows if r.method == other]
        which = "; ".join(f"{o}: {', '.join(_lang(r) for r in mine if r.outcome == o)}"
                          for o in dict.fromkeys(r.outcome for r in mine))  # fmt: skip
        how += f"; {other} ({mine[0].method_words}) for {which}"
    lines.append(f"Margins: {'; '.join(margins)}. One-sided {100 * (1 - alpha):.0f}% bounds: {how}; "
                 "Holm-corrected across languages.")  # fmt: skip
    return lines


Words = Callable[[Verdict], str]


def _by_outcome(rows: Sequence[Verdict], who: Words, what: Words, about: Words | None = None) -> str:
    """``contradictory: Spanish, Hindi (what); accuracy (about): Hindi (what)``: each outcome named once, the
    languages said the same of together."""
    out = []
    for o in dict.fromkeys(r.outcome for r in rows):
        mine = [r for r in rows if r.outcome == o]
        said: dict[str, list[str]] = {}
        for r in mine:
            said.setdefault(what(r), []).append(who(r))
        extra = about(mine[0]) if about else ""
        groups = ", ".join(f"{', '.join(w)} ({t})" for t, w in said.items())
        out.append(f"{o}{f' ({extra})' if extra else ''}: {groups}")
    return "; ".join(out)


def _lang(r: Verdict) -> str:
    return _name(r.lang)


def _parse_share(r: Verdict) -> str:
    return f"{_lang(r)} {100 * (r.extra.get('not_read_share') or 0.0):.1f}%"


def _reference_share(r: Verdict) -> str:
    """The reference language's unread share, where it is over 5 % too."""
    share = r.extra.get("not_read_share_reference") or 0.0
    return f"{_name(r.reference)} {100 * share:.1f}%" if share > 0.05 else ""


def _parse_words(r: Verdict) -> str:
    """``inferior / non-inferior``; ``inconclusive either way``; a corrected verdict's extremes are the judge's
    alone (``judge alone: …``)."""
    found = r.judge_only if r.judge_corrected else r.extra
    wrong, right = found.get("verdict_unread_wrong"), found.get("verdict_unread_right")
    said = f"{wrong} either way" if wrong == right else f"{wrong} / {right}"
    return f"judge alone: {said}" if r.judge_corrected else said


def _judge_words(r: Verdict) -> str:
    return "no judge–human agreement measured" if r.judge_kappa is None else f"judge–human κ {r.judge_kappa:.2f}"


def _sets(annotations: Sequence[Path]) -> list[tuple[Any, Any]]:
    from xlingmed.annotate import AnswerStore
    from xlingmed.annotate.sample import load_judge_set

    sets = []
    for path in annotations:
        aset = load_judge_set(Path(path))
        sets.append((aset, AnswerStore.read_all(aset.path / "answers.sqlite")))
    return sets


def reliability(annotations: Sequence[Path]) -> dict[tuple[str, str], dict[str, Any]]:
    """The judge's agreement with humans per (task, language), from the annotation sets given to the report."""
    if not annotations:
        return {}
    from xlingmed.annotate.agreement import judge_reliability

    return judge_reliability(_sets(annotations))


def human_values(annotations: Sequence[Path], tasks: Mapping[str, Any]) -> dict[str, HumanLabels]:
    """Task → its human outcome values (``annotate.human_labels``), for the judge-corrected verdicts."""
    if not annotations:
        return {}
    from xlingmed.analysis.corrected_verdicts import label_value
    from xlingmed.annotate.human_labels import human_labels

    return human_labels(_sets(annotations), label_value(tasks))


def _items_cell(r: Verdict) -> str:
    """``120`` paired; ``95 vs 120 (en)`` unpaired: each language's own questions."""
    if r.n_reference is None:
        return str(r.n_items)
    return f"{r.n_items} vs {r.n_reference} ({r.reference})"


def _judge_cell(r: Verdict) -> str:
    if r.judge_verified is None:
        return "no judge"
    if r.judge_corrected:
        return f"corrected ({r.human_labels} labels)"
    kappa = "unmeasured" if r.judge_kappa is None else f"{r.judge_kappa:.2f} (n={r.judge_items})"
    return kappa if r.judge_verified else f"{kappa}: judge-unverified"


def _needed_cell(r: Verdict) -> str:
    """What an inconclusive verdict still needs: ``about 120 more labels`` (judge-corrected), ``about 340 items``."""
    if r.verdict != INCONCLUSIVE:
        return "–"
    if r.judge_corrected:
        if r.labels_needed is None:
            return "more items"
        return f"about {max(r.labels_needed - int(r.human_labels or 0), 1)} more labels"
    return "–" if not r.n_items_needed else f"about {r.n_items_needed} items"


def _parse_cell(r: Verdict) -> str:
    """``12.5%: parse-limited``, ``1.2%``, or ``–`` where the outcome parses no reply."""
    share = r.extra.get("not_read_share")
    if share is None:
        return "–"
    return f"{100 * share:.1f}%: parse-limited" if r.extra.get("parse_limited") else f"{100 * share:.1f}%"


def _table_row(r: Verdict, equivalence: bool) -> VerdictRow:
    """A verdict's row of the report's table: its cells, verdict and reason."""
    row = [
        r.outcome, r.lang, r.design, r.verdict, _items_cell(r), cell(r.margin), cell(r.value_reference),
        cell(r.value_lang), cell(r.difference), "–" if r.lower is None else f"[{cell(r.lower)}, {cell(r.upper)}]",
        _judge_cell(r), _parse_cell(r), _needed_cell(r),
    ]  # fmt: skip
    if equivalence:
        row.append(cell(r.extra.get("equivalent")))
    return VerdictRow(cells=row, verdict=r.verdict, reason=r.reason)


def section(
    scores: pd.DataFrame,
    summary: Mapping[str, Any],
    languages: Sequence[str],
    margins: Mapping[str, float],
    *,
    options: VerdictOptions,
    humans: Mapping[str, HumanLabels] | None = None,
) -> VerdictSection:
    """The verdicts of one run (``raw``: ``Verdict`` records, each ``row()`` a line of ``stats/verdicts.csv``), their
    formatted table, paragraph and footnotes, all written from the records (``options``: how each is decided); with
    ``humans`` (``human_values``), a judged outcome's verdict in a labelled language is the judge-corrected one,
    wholly (``analysis.corrected_verdicts``; ``corrected``: its rows three ways, for
    ``stats/judge_corrected.csv``)."""
    from xlingmed.analysis.corrected_verdicts import apply, corrected_rows
    from xlingmed.tasks.registry import task_outcomes

    records = noninferiority(scores, languages, margins=margins, tasks=task_outcomes(), options=options)
    corrected: list[CorrectedRow] = []
    if humans and options.parallel:
        corrected = corrected_rows(scores, humans, languages, margins=margins, tasks=task_outcomes(),
                                   alpha=options.alpha)  # fmt: skip
        records = apply(records, corrected)
    columns = ["outcome", "lang", "design", "verdict", "items", "margin δ", "English", "language", "difference",
               "bounds", "judge", "not read", "still needed"]  # fmt: skip
    if options.equivalence:
        columns.append("equivalent (TOST)")
    return VerdictSection(
        raw=records, corrected=corrected, footnotes=footnotes(records, options.alpha) if records else [],
        columns=columns, rows=[_table_row(r, options.equivalence) for r in records],
        paragraph=paragraph(str(summary.get("model", "?")), str(summary.get("benchmark", "?")), records,
                            options.alpha),
    )  # fmt: skip


CORRECTED_TITLE = "Judged outcomes three ways: the judge alone, the humans alone, and judge-corrected"
CORRECTED_NOTE = (
    "Gap to English in the better direction, with two-sided bounds at 1 − 2α. Judge only: the judge's values on every "
    "item. Human only: the annotators' majority labels on the labelled items. Corrected: prediction-powered "
    "inference (ppi-python, PPI++'s λ) from both, unbiased whatever the judge's errors; the verdict uses it. Judge's "
    "bias: mean of judge − human on the labelled items of each language (weighted by their draw)."
)


def _interval(r: CorrectedRow, prefix: str, middle: str = "difference") -> str:
    """``+0.031 [-0.012, +0.074]``: the value and bounds of ``prefix`` (``judge``, ``human``, ``corrected``,
    ``bias_lang``…) in a corrected row; ``–`` where there is none."""
    value = getattr(r, f"{prefix}_{middle}" if middle else prefix)
    lo, hi = getattr(r, f"{prefix}_lower"), getattr(r, f"{prefix}_upper")
    if value is None or lo is None:
        return "–"
    return f"{value:+.3f} [{lo:+.3f}, {hi:+.3f}]"


def three_ways(corrected: Sequence[CorrectedRow]) -> list[dict[str, Any]]:
    """The report's rows of ``CORRECTED_TITLE`` from ``analysis.corrected_verdicts.corrected_rows`` (display
    columns, one named after the reference language)."""
    return [
        {
            "outcome": r.outcome, "lang": r.lang,
            "labels": f"{r.human_labels} / {r.human_labels_reference} ({r.reference}), {r.design_labels}",
            "judge only": _interval(r, "judge"), "human only": _interval(r, "human"),
            "corrected": _interval(r, "corrected"), "verdict": r.verdict,
            "labels needed": r.labels_needed if r.labels_needed is not None else "–",
            "judge's bias": _interval(r, "bias_lang", ""),
            f"judge's bias ({r.reference})": _interval(r, "bias_reference", ""),
        }
        for r in corrected
    ]
