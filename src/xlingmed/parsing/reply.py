"""The shape of a reply: its lines, sentences, and the entries of a list that walks through the options.

Real chat models discuss every option ("A. … is unlikely because …", "**B. …:** …") before they conclude; a list
whose entries open with two or more different options is discussion, not a choice, so the labels in it are not
read as the answer (``Shape.entries``).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from functools import lru_cache

import regex

from xlingmed.languages import normalise_label
from xlingmed.parsing.mentions import Reader
from xlingmed.parsing.text import UNSPACED, FoldedText, first_folded

_SENTENCE_END = regex.compile(
    r"\n|[。！？!?؟।]|(?<!(?<![\p{L}\p{N}])\p{L})(?<!(?<!\p{L})(?:e\.g|i\.e|vs|dr|mr|mrs|ms|etc|approx|fig|no|st|cf))"
    r"\.(?=\s|$)",
    regex.I,
)
_BLANK_LINE = regex.compile(r"\n\s*\n")
_MARKER = r"[\s>]*(?:[-*•+·]|\d{1,2}[.)]|#{1,6})?\s*(?:\*\*|__)?\s*"
_MARKER_RE = regex.compile(_MARKER)
_LINE = regex.compile(r"[^\n]+")
# a numbered exam's option opening a line: a circled number ("③ 간기능 검사: …", normalised to "option 3"),
# "Option 3: …" or "2 - While the Stirling cycle…"
_OPTION_NUMBER = regex.compile(
    rf"{_MARKER}(?:option\s+(\d{{1,2}})(?!\d)|(\d{{1,2}})(?:번)?\s*[\-–—:]\s)", regex.I  # "1번 : …" (Korean)
)


@lru_cache(maxsize=8)
def _opening_label(chars: str) -> regex.Pattern[str]:
    """A line that opens with a label of ``chars``: "A. …", "**B)** …", "- C: …"."""
    # not "**F**lexion, **S**idebending": a bold letter glued to the word it spells out
    return regex.compile(rf"{_MARKER}[(\[]?\s*({chars})\s*(?:[.):：\]\-–—]|\*\*(?!(?!{UNSPACED})[\p{{L}}\p{{N}}]))")


@dataclass
class Shape:
    """Lines, sentences and discussion entries of one normalised reply (``[start, end)`` spans)."""

    lines: list[tuple[int, int]]
    sentences: list[tuple[int, int]]
    entries: list[tuple[int, int]] = field(default_factory=list)

    def in_entry(self, pos: int) -> bool:
        return any(s <= pos < e for s, e in self.entries)

    def sentence_of(self, pos: int) -> tuple[int, int]:
        starts = [s for s, _ in self.sentences]
        i = max(0, bisect.bisect_right(starts, pos) - 1)
        return self.sentences[i] if self.sentences else (0, 0)

    def paragraph_after(self, pos: int, text: str) -> tuple[int, int]:
        """The text from ``pos`` to the next blank line after the first non-empty line following it."""
        start = len(text) - len(text[pos:].lstrip())
        blank = _BLANK_LINE.search(text, start)
        return start, blank.start() if blank else len(text)


def shape(reader: Reader) -> Shape:
    """The reply's lines and sentences, and its discussion entries: lines that open with an option's label or text
    (after list markers and markdown) when two or more different options open lines; an entry runs on over the
    following lines up to a blank line, the next entry, or a line that holds an answer phrase or conclusion cue."""
    t = reader.text
    lines = [(m.start(), m.end()) for m in _LINE.finditer(t) if m.group().strip()]
    # a line holds a phrase or a cue where one of the reply's starts in it (neither crosses a line)
    starts = sorted(k for k, _ in (*reader.phrase_spans, *reader.cue_spans))
    phrase_or_cue_lines = {s for s, e in lines if bisect.bisect_left(starts, s) < bisect.bisect_left(starts, e)}
    sentences: list[tuple[int, int]] = []
    start = 0
    for m in _SENTENCE_END.finditer(t):
        if t[start : m.end()].strip():
            sentences.append((start, m.end()))
        start = m.end()
    if t[start:].strip():
        sentences.append((start, len(t)))
    openers = {s: label for s, e in lines if (label := _opening(reader, s, e)) is not None}
    if len(set(openers.values())) < 2:
        return Shape(lines, sentences)
    # a line that opens with an option and concludes ("**A. 肺炎** が最も可能性の高い…") is a conclusion when it
    # stands apart from the list: no option-opening line or indented line of one right before or after it
    for i, (s, _) in enumerate(lines):
        if s in openers and s in phrase_or_cue_lines:
            near = [lines[j] for j in (i - 1, i + 1) if 0 <= j < len(lines)]
            if not any(n[0] in openers or t[n[0] : n[0] + 1] in " \t" for n in near):
                del openers[s]
    entries: list[tuple[int, int]] = []
    current: int | None = None
    for i, (s, e) in enumerate(lines):
        if s in openers:
            current = s
        elif (
            current is None or s in phrase_or_cue_lines or "\n" in t[lines[i - 1][1] : s].replace("\n", "", 1)
            or _bare_label(reader, s, e)
        ):
            current = None  # a blank line, a line that concludes, or one that is a label alone ends the entry
        if current is not None:
            if entries and entries[-1][0] == current:
                entries[-1] = (current, e)
            else:
                entries.append((current, e))
    return Shape(lines, sentences, entries)


_BARE_REST = " \t*_.):"


def _bare_label(reader: Reader, start: int, end: int) -> bool:
    """The line is one label and its decoration alone ("**A**", "(C)."): a stated answer, never discussion."""
    m = _opening_label(reader.label_chars).match(reader.text, start, end)
    return m is not None and not reader.text[m.end() : end].strip(_BARE_REST)


def _opening(reader: Reader, start: int, end: int) -> str | None:
    """The option a line opens with: a label followed by ``.``/``)``/``:``/a dash/bold end ("A. …", "**B)** …",
    "- C: …"), or an option's text followed by such a separator ("**Pneumonia**: …", "- Pneumonia – …")."""
    line = reader.text[start:end]
    chars = reader.label_chars
    # options numbered 1, 2, 3…: no letter opens one ("[A]에서 …" quotes the passage's part A)
    m = _OPTION_NUMBER.match(line) if reader.numbered else _opening_label(chars).match(line)
    if m:
        label = normalise_label(m.group(1) or m.group(2))
        if not line[m.end() :].strip(_BARE_REST):
            return None  # "**A**" alone on its line: an answer stated, not an option opening its discussion
        return label if label in reader.valid else None
    head = _MARKER_RE.match(line)
    rest = line[head.end() if head else 0 :]
    if not reader.option_texts or first_folded(rest) not in reader.option_initials:
        return None  # most lines open with no option's first letter: nothing more to fold
    folded = FoldedText(rest[: reader.longest_option * 2 + 16])  # enough to hold any option's text and what follows
    for label, option in reader.option_texts.items():
        if folded.text.startswith(option) and len(folded.text) > len(option):
            after = rest[folded.origin[len(option) - 1] + 1 :].lstrip("*_ ")
            if after[:1] in (":", "：", "-", "–", "—", ")") or not after:
                return label
    return None
