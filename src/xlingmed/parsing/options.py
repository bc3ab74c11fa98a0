"""Options embedded in a question cell (MedArabiQ style, also users' files): split the stem from ``أ. …`` / ``A. …``
lines and map every label to a canonical Latin letter (spec medarabiq.md §3.3)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xlingmed.languages import CANONICAL_LETTERS, normalise_label
from xlingmed.types import Choice

_LABEL = r"(?:هـ|[أاإآبجدهةA-Ha-h])"
_OPTION_LINE = re.compile(rf"^\s*({_LABEL})\s*[.)](?:\s*\.)*\s*(.*)$", re.S)
# numbered exams (Spain's MIR, Korea's KMLE): "1. …", "2) …", "① …" (a circled number needs no full stop)
_NUMBER_LINE = re.compile(r"^\s*(?:(\d{1,2})\s*[.)．]|([①-⑩])\s*[.)]?)\s*(.*)$", re.S)
_INLINE_FIRST = re.compile(r"^(.*?[:：])\s*([أاإآA])\s*\.(?:\s*\.)*\s*(.+)$", re.S)


@dataclass(frozen=True)
class ParsedOptions:
    """A multiple-choice cell split into its stem and options; ``flags`` say what was irregular."""

    stem: str
    choices: tuple[Choice, ...]
    flags: tuple[str, ...]


def clean_mc_text(text: str) -> str:
    """Normalise line ends to LF, drop zero-width spaces, strip whitespace and unpaired literal quotes (§3.3 step 1)."""
    t = text.replace("\r\n", "\n").replace("\r", "\n").replace("\u200b", "").strip()
    if t.startswith('"'):
        t = t[1:]
    if t.endswith('"'):
        t = t[:-1]
    return t.strip()


def parse_options(text: str) -> ParsedOptions:
    """Split a multiple-choice cell into stem and options (spec §3.3).

    A line that starts with a label and ``.``/``)`` opens an option (``أ.``, ``ا.``, ``هـ.``, ``A.``, doubled dots
    tolerated); a question with no lettered options may number them (``1.``, ``2)``, ``①``), and keeps the numbers
    as its options' printed labels; the first option may also sit inline after a colon on the stem line; a later
    non-empty line without a label continues the previous option; blank lines are skipped. Labels must rise (A, B,
    C…): a line whose label is not after the previous one is continuation text; a label that skips one (A, B, C, E)
    opens an option as printed and flags the item.

    Returns:
        ``ParsedOptions``; flags: ``no_options``, ``fewer_than_two_options``, ``duplicate_option_text``,
        ``first_option_inline``, ``non_contiguous_labels``.
    """
    lines = clean_mc_text(text).split("\n")
    stem, opts, flags = _split(lines, _letter_line)
    if len(opts) < 2:  # no lettered options: numbered ones ("1. …", "① …"), if the question has them
        numbered = _split(lines, _number_line)
        if len(numbered[1]) >= 2:
            stem, opts, flags = numbered
    if not opts:
        flags.append("no_options")
    elif len(opts) < 2:
        flags.append("fewer_than_two_options")
    texts = [_norm(o[2]) for o in opts]
    if len(set(texts)) < len(texts):
        flags.append("duplicate_option_text")
    return ParsedOptions(
        "\n".join(stem), tuple(Choice(label=o[0], raw_label=o[1], text=o[2]) for o in opts), tuple(flags)
    )


def _letter_line(line: str) -> tuple[str, str, str] | None:
    m = _OPTION_LINE.match(line)
    label = normalise_label(m.group(1)) if m else None
    return (label, m.group(1), m.group(2)) if m and label is not None else None


def _number_line(line: str) -> tuple[str, str, str] | None:
    m = _NUMBER_LINE.match(line)
    raw = m and (m.group(1) or m.group(2))
    label = normalise_label(raw) if m and raw else None
    return (label, raw, m.group(3)) if m and raw and label is not None else None


def _split(
    lines: list[str], opening: Callable[[str], tuple[str, str, str] | None]
) -> tuple[list[str], list[list[str]], list[str]]:
    """(stem lines, [canonical, raw, text] per option, flags) with ``opening`` telling which lines open an option."""
    stem: list[str] = []
    opts: list[list[str]] = []
    flags: list[str] = []
    for line in lines:
        if not line.strip():
            continue
        found = opening(line)
        previous = CANONICAL_LETTERS.index(opts[-1][0]) if opts else -1
        if found and CANONICAL_LETTERS.index(found[0]) > previous and (opts or found[2].strip()):
            if CANONICAL_LETTERS.index(found[0]) != previous + 1 and "non_contiguous_labels" not in flags:
                flags.append("non_contiguous_labels")  # A, B, C, E: split as printed, flagged
            opts.append([found[0], found[1], found[2].strip()])
            continue
        if not opts:
            inline = _INLINE_FIRST.match(line) if opening is _letter_line else None
            if inline and "\n" not in inline.group(1):
                stem.append(inline.group(1).strip())
                opts.append(["A", inline.group(2), inline.group(3).strip()])
                flags.append("first_option_inline")
                continue
            stem.append(line.strip())
        else:
            opts[-1][2] = f"{opts[-1][2]} {line.strip()}".strip()
    return stem, opts, flags


def _norm(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split()).rstrip(".").casefold()


def gold_label(answer: str, choices: Sequence[Choice]) -> tuple[str | None, str]:
    """The gold label of an answer cell such as ``د. البزل المتكرر``: (label, how).

    ``how`` is ``letter`` (a label at the start), ``text`` (no label: the text equals one option's), or
    ``none``.
    """
    cell = clean_mc_text(answer)
    found = _number_line(cell)
    head = found[1] if found else cell
    numbered = [c.label for c in choices if not c.raw_label.isalpha() and c.raw_label == head]
    if numbered:  # "3", "3. …" or "③" where the options were printed with numbers
        return numbered[0], "letter"
    m = _OPTION_LINE.match(cell)
    if m:
        label = normalise_label(m.group(1))
        if label is not None and (not m.group(2).strip() or any(c.label == label for c in choices)):
            return label, "letter"
    matches = [c.label for c in choices if _norm(c.text) == _norm(cell)]
    if len(matches) == 1:
        return matches[0], "text"
    return None, "none"
