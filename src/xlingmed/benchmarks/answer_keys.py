"""A table's options and answer key as published: per-option columns by their names, placeholder options, and the
answer key in any of its real forms (issue 61).

Real sets write an option per column under many names (``A``, ``opa``, ``option_a``, ``Option A``, ``Choice A``),
fill unused slots with placeholders ("N/A", "-", "np"), and write the key as a letter of either case, the
option's text, its number, several options ("A+B", "A, C": all of them right) or alternatives ("AorB", "A/B": the
key accepts either). Each is read as it is meant; what cannot be is a ``RowSkipped`` with its reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import regex

from xlingmed.benchmarks.odd_rows import RowSkipped
from xlingmed.errors import DataError
from xlingmed.languages import CANONICAL_LETTERS, normalise_label
from xlingmed.parsing.options import clean_mc_text
from xlingmed.parsing.several import join_labels
from xlingmed.types import Choice

# what sets write in an option slot they do not use (AfriMed-QA "N/A"/"n/a"/"N:A", MedAraBench "-"); never a
# word that is also an answer: "Na" is sodium (HEAD-QA's chemistry), "NP" a nurse practitioner
PLACEHOLDERS = frozenset({"n/a", "n.a.", "n:a", "-", "--", "—", "nan", "null"})
_PREFIXES = ("", "option", "op", "opt", "choice", "answer", "alternative")
_KEY_SPLIT = regex.compile(r"\s*(?:[,+&;]|\band\b|\by\b|\bet\b|\bund\b|و)\s*", regex.I)
_ALTERNATIVES = regex.compile(r"^\s*([A-Ja-j])\s*(?:or|/|\||o|ou|oder|أو)\s*([A-Ja-j])\s*$", regex.I)


def is_placeholder(value: Any) -> bool:
    """An option cell that holds no option: empty, NaN, or a placeholder ("N/A", "-", "np"; any case)."""
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return True
    return str(value).strip().casefold() in PLACEHOLDERS or not str(value).strip()


def column_key(name: Any) -> str:
    """A column's name as compared: letters and digits only, case folded ("Option A", "option_a" → "optiona")."""
    return "".join(ch for ch in str(name).casefold() if ch.isalnum())


def option_columns(df: pd.DataFrame, path: Path, named: Sequence[str] = ()) -> list[tuple[str, str]]:
    """(label, column) for one column per option, contiguous from A: the columns ``named`` (``--columns
    options=Option A|Option B|…``), else found by name: ``A``, ``a``, ``opa``, ``option_a``, ``optionA``,
    ``Option A``, ``Choice A``… (any case, space, ``_`` or ``-``), or ``1``, ``2``… .

    Raises:
        DataError: a named column the file lacks; more than ten option columns.
    """
    if named:
        missing = [c for c in named if c not in df.columns]
        if missing:
            raise DataError(f"no column(s) {missing} (--columns options=…); columns: {list(df.columns)}",
                            file=str(path))  # fmt: skip
        if len(named) > len(CANONICAL_LETTERS):
            raise DataError(f"{len(named)} option columns; at most {len(CANONICAL_LETTERS)} (A–J)", file=str(path))
        return list(zip(CANONICAL_LETTERS, named, strict=False))
    by_key: dict[str, str] = {}
    for column in df.columns:
        by_key.setdefault(column_key(column), str(column))
    out = []
    for k, label in enumerate([*CANONICAL_LETTERS, "K"], 1):
        names = [f"{p}{label.casefold()}" for p in _PREFIXES] + [str(k)]
        found = next((by_key[n] for n in names if n in by_key), None)
        if found is None:
            break
        if label == "K":
            raise DataError(f"more than {len(CANONICAL_LETTERS)} option columns (A–J are read; K… would be dropped)",
                            file=str(path))  # fmt: skip
        out.append((label, found))
    return out


def answer_key(answer: Any, choices: Sequence[Choice], fmt: str, unused: Sequence[str] = ()) -> str:
    """The gold label (or several joined, ``parsing.several``) of the key ``answer`` over ``choices``;
    ``unused``: labels whose slot was empty or a placeholder.

    Raises:
        RowSkipped: no key, alternatives, a key naming an empty option or no option.
    """
    text = str(answer).strip() if answer is not None and not (isinstance(answer, float) and pd.isna(answer)) else ""
    if not text:
        raise RowSkipped("answer_missing", "no answer key")
    labels = [c.label for c in choices]
    if fmt in ("index0", "index1"):
        return _by_index(text, labels, fmt)
    if fmt in ("auto", "letter"):
        if _ALTERNATIVES.match(text):
            raise RowSkipped("alternative_answers", f"answer {text[:40]!r} accepts either of two options")
        parts = [p for p in _KEY_SPLIT.split(text) if p.strip()]
        several = [normalise_label(p.strip()) for p in parts] if len(parts) > 1 else []
        if several and all(x is not None and len(p.strip()) <= 3 for x, p in zip(several, parts, strict=True)):
            if any(x in unused for x in several):
                raise RowSkipped("answer_empty_option", f"answer {text[:40]!r} names an empty or N/A option")
            if len(set(several)) > 1 and all(x in labels for x in several):
                return join_labels([x for x in several if x is not None])
        found = _by_label(text, choices, unused)
        if found is not None or fmt == "letter":
            if found is None:
                raise RowSkipped("answer_not_an_option", f"answer {text[:40]!r} is not one of the options ({fmt})")
            return found
    matches = [c.label for c in choices if " ".join(c.text.split()).casefold() == " ".join(text.split()).casefold()]
    if len(matches) == 1:
        return matches[0]
    raise RowSkipped("answer_not_an_option", f"answer {text[:40]!r} is not one of the options ({fmt})")


def _by_index(text: str, labels: list[str], fmt: str) -> str:
    try:
        number = float(text)
        k = int(number) - (1 if fmt == "index1" else 0) if number.is_integer() else -1
    except (ValueError, OverflowError):
        k = -1
    if 0 <= k < len(labels):
        return labels[k]
    raise RowSkipped("answer_not_an_option", f"answer {text[:40]!r} is no option's index ({fmt})")


def _by_label(text: str, choices: Sequence[Choice], unused: Sequence[str]) -> str | None:
    """The key as a label: as printed ("3" of options numbered 1, 2, 3…) or a letter of any case or script."""
    head = clean_mc_text(text).split(".")[0].split(")")[0].split(":")[0].strip()
    numbered = [c.label for c in choices if not c.raw_label.isalpha() and c.raw_label.strip() == head]
    if numbered:
        return numbered[0]
    label = normalise_label(head) if not head.isdigit() else None
    if label is not None and label in unused:
        raise RowSkipped("answer_empty_option", f"answer {text[:40]!r} names an empty or N/A option")
    return label if label in [c.label for c in choices] else None
