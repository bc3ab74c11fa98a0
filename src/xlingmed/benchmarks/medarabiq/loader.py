"""MedArabiQ rows as Items: options split, gold labels found, quirks flagged (spec medarabiq.md §2–§3)."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from xlingmed.benchmarks.medarabiq.files import (
    BIAS_CONDITIONS,
    BIAS_NAMES,
    PAPER_COMPAT_ROWS,
    TASKS,
    TaskFile,
    data_file,
    read_medarabiq_csv,
)
from xlingmed.errors import ConfigError, DataError
from xlingmed.languages import get_language
from xlingmed.parsing.options import clean_mc_text, gold_label, parse_options
from xlingmed.types import Choice, Item


def load_items(
    task: str,
    data_dir: str | os.PathLike[str] | None,
    languages: Sequence[str],
    *,
    limit: int | None = None,
    paper_compat: bool = False,
) -> tuple[list[Item], dict[str, Any]]:
    """Load one MedArabiQ task as Items (one per data row and language).

    Args:
        task: ``mcq``, ``mcq_bias``, ``fitb_choices``, ``fitb_open``, ``qa``, ``qa_gec``, ``qa_llm``.
        data_dir: folder with the published CSVs (see ``data_file``).
        languages: ``ar``; the two fill-in-the-blank tasks also hold ``en`` (their parallel English columns).
        limit: the first ``limit`` data rows.
        paper_compat: ``mcq_bias`` only: use rows 0–97, the 98 items of the paper's Table 2 (spec §1).

    Returns:
        (items ordered by row then language, provenance: file, sha256, ``version`` ("published version" when the
        sha256 equals the published file's, else "unknown version"), rows, quirks, flagged items).

    Raises:
        ConfigError: a language the task's file does not hold.
        DataError, DataNotFoundError: see ``read_medarabiq_csv`` and ``data_file``; also an answer cell whose
            gold label cannot be found (file, row, column named).
    """
    spec = TASKS[task]
    _check_languages(task, spec, languages)
    path = data_file(task, data_dir)
    table = read_medarabiq_csv(path, spec.header)
    n_rows = len(table.rows)
    quirks = list(table.quirks)
    if n_rows not in spec.expected_rows:
        quirks.append(f"{n_rows} data rows (published: {spec.expected_rows[0]})")
    rows = list(enumerate(table.rows))
    if paper_compat and task == "mcq_bias":
        rows = rows[:PAPER_COMPAT_ROWS]
    if limit is not None:
        rows = rows[:limit]
    bias_context: dict[int, list[str]] = _bias_context(table.rows) if spec.kind == "bias" else {}
    items: list[Item] = []
    for k, row in rows:
        for code in languages:
            items.append(_item(task, spec, path, k, row, code, bias_context))
    flagged = {f"{it.item_id}/{it.lang}": it.meta["flags"] for it in items if it.meta["flags"]}
    provenance = {
        "file": str(path),
        "sha256": table.sha256,
        "published_sha256": spec.sha256,
        "version": "published version" if table.sha256 == spec.sha256 else "unknown version",
        "bom": table.bom,
        "rows_in_file": n_rows,
        "rows_used": len(rows),
        "paper_compat": paper_compat if task == "mcq_bias" else None,
        "quirks": quirks,
        "flagged_items": flagged,
    }
    return items, provenance


def _check_languages(task: str, spec: TaskFile, languages: Sequence[str]) -> None:
    """``ConfigError`` for a language code unknown or not among the task file's."""
    for code in languages:
        get_language(code)
        if code not in spec.question:
            raise ConfigError(
                f"medarabiq/{task} has no {get_language(code).name} text; its languages: {', '.join(spec.question)}"
            )


def _item(
    task: str,
    spec: TaskFile,
    path: Path,
    k: int,
    row: dict[str, str],
    lang: str,
    bias_context: dict[int, list[str]],
) -> Item:
    qcol, acol = spec.question[lang], spec.answer[lang]
    question, answer = row[qcol], row[acol]
    meta: dict[str, Any] = {"source_file": path.name, "row": k, "flags": []}
    if spec.category:
        meta["category"] = row[spec.category].strip()
    choices: tuple[Choice, ...] = ()
    gold: str | None = None
    reference = answer.strip()
    if spec.kind in ("multiple_choice", "bias"):
        choices, gold = _options_and_gold(spec, row, lang, meta, (path, k, qcol, acol))
        reference = answer.strip()
    if spec.kind == "bias":
        _bias_meta(row, choices, meta, bias_context.get(k, []), (path, k))
    return Item(
        item_id=f"{task}-{k:03d}",
        benchmark=f"medarabiq/{task}",
        lang=lang,
        question=question,
        reference=reference,
        choices=choices,
        gold_label=gold,
        meta=meta,
    )


def _options_and_gold(
    spec: TaskFile, row: dict[str, str], lang: str, meta: dict[str, Any], where: tuple[Path, int, str, str]
) -> tuple[tuple[Choice, ...], str]:
    """The options parsed from the question cell and the gold label from the answer cell (the parallel English
    one where the Arabic names none), flags added to ``meta``; ``where``: file, row, question and answer columns."""
    path, k, qcol, acol = where
    question, answer = row[qcol], row[acol]
    parsed = parse_options(question)
    meta["flags"] += list(parsed.flags)
    meta["stem"] = parsed.stem
    if "no_options" in parsed.flags:
        raise DataError("no options found in the question text", file=str(path), row=k + 2, column=qcol)
    choices = parsed.choices
    gold, how = gold_label(answer, choices)
    if how == "text":
        meta["flags"].append("answer_missing_letter")
    if gold is None and lang != "en" and "en" in spec.answer:
        # FITB row 86: an Arabic answer without a letter whose text is no option; the parallel English gold
        # letter is the same (spec §2.3), so it is used and the item flagged.
        en_gold, _ = gold_label(row[spec.answer["en"]], parse_options(row[spec.question["en"]]).choices)
        if en_gold is not None:
            gold = en_gold
            meta["flags"].append("gold_from_english")
    if gold is None:
        raise DataError(
            f"no option label in the answer {answer.strip()[:40]!r}", file=str(path), row=k + 2, column=acol
        )
    if all(c.label != gold for c in choices):
        meta["flags"].append("gold_not_among_options")
    return choices, gold


def _bias_meta(
    row: dict[str, str], choices: tuple[Choice, ...], meta: dict[str, Any], context: list[str], where: tuple[Path, int]
) -> None:
    """A bias item's code, name and prompt variants (``perturbations.bias``) in ``meta``, with its flags."""
    path, k = where
    code_raw = row["Bias Category"].strip()
    if not code_raw.isdigit() or int(code_raw) not in BIAS_NAMES:
        raise DataError(
            f"bias code {code_raw!r} is not one of 1–7", file=str(path), row=k + 2, column="Bias Category"
        )
    code = int(code_raw)
    meta["bias_code"] = code
    meta["bias_name"] = BIAS_NAMES[code]
    # the interface of perturbations.bias: "original" and "<condition>|<bias>"
    meta["variants"] = {
        (cond if cond == "original" else f"{cond}|{BIAS_NAMES[code]}"): row[col]
        for cond, col in BIAS_CONDITIONS.items()
    }
    biased = parse_options(row["Question with Bias"])
    if [c.label for c in biased.choices] != [c.label for c in choices]:
        meta["flags"].append("biased_question_options_differ")
    meta["flags"] += context


def _squash(text: str) -> str:
    return " ".join(clean_mc_text(text).split())


def _bias_context(rows: Sequence[dict[str, str]]) -> dict[int, list[str]]:
    """Flags that need the whole bias file (spec §2.2 quirks 1–3): mitigation text of another bias code, one-shot
    identical to few-shot, demonstrations that end with the original instead of the biased question."""
    out: dict[int, list[str]] = {}

    def first_line(text: str) -> str:
        return _squash(text.replace("\r", "\n").strip().split("\n")[0])

    by_code: dict[str, Counter[str]] = {}
    for r in rows:
        by_code.setdefault(r["Bias Category"].strip(), Counter())[first_line(r["Bias Education"])] += 1
    modal = {code: c.most_common(1)[0][0] for code, c in by_code.items()}
    for k, r in enumerate(rows):
        flags: list[str] = []
        code = r["Bias Category"].strip()
        edu = first_line(r["Bias Education"])
        if edu != modal.get(code) and any(edu == m for c, m in modal.items() if c != code):
            flags.append("mitigation_text_from_other_bias")
        if _squash(r["One-shot Demonstration"]) == _squash(r["Few-shot Demonstration"]):
            flags.append("one_shot_equals_few_shot")
        original, biased = _squash(r["Question"]), _squash(r["Question with Bias"])
        one_shot = _squash(r["One-shot Demonstration"])
        if one_shot.endswith(original) and not one_shot.endswith(biased):
            flags.append("mitigation_uses_original_question")
        if flags:
            out[k] = flags
    return out


def describe(task: str, data_dir: str | os.PathLike[str] | None) -> list[dict[str, Any]]:
    """Per language: rows, flagged items and mean whitespace words of question and answer (stripped)."""
    spec = TASKS[task]
    items, prov = load_items(task, data_dir, tuple(spec.question))
    out = []
    for lang in spec.question:
        sel = [it for it in items if it.lang == lang]
        q = [len(it.question.split()) for it in sel]
        a = [len(it.reference.split()) for it in sel]
        out.append(
            {
                "lang": lang,
                "questions": len(sel),
                "question_words_mean": round(sum(q) / len(q), 2) if q else None,
                "answer_words_mean": round(sum(a) / len(a), 2) if a else None,
                "flagged": sum(1 for it in sel if it.meta["flags"]),
                "version": prov["version"],
            }
        )
    return out
