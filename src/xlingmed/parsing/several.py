"""Reading the options a reply chose where an item has several right answers (MMedBench's French and Japanese
exams: "A,C"); the item is right only when the reply names exactly the set of right options, as MMedBench's scorer
compares sets of letters.

A reply is read from its last line that holds nothing but option labels (``A, C``, ``A and C``, ``B、D``, ``AC``),
optionally after a field name (``Answer:``, ``答え：``). Anything else is read as one option by the single-answer
reader (``parsing.choice``; a set of one, wrong against two) or left unread: never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from xlingmed.parsing.choice import extract_choice
from xlingmed.types import Parsed, declare_parse_methods

declare_parse_methods({"label_list": "read"})

_JOIN = r"(?:\s*(?:,|;|、|，|/|&|\+|\band\b|\bet\b|\by\b|\bund\b|和|及|と|и)\s*|\s+)?"


def join_labels(labels: Sequence[str]) -> str:
    """The canonical form of a set of options: sorted, comma-separated (``"A,C"``), as ``Item.gold_label`` holds it."""
    return ",".join(sorted(dict.fromkeys(labels)))


def split_labels(value: str | None) -> list[str]:
    """``"A,C"`` → ``["A", "C"]``; ``None`` or ``""`` → ``[]``."""
    return [x for x in (value or "").split(",") if x]


def extract_choices(text: str, valid: Sequence[str], options: dict[str, str] | None = None) -> Parsed:
    """The set of options ``text`` names, as ``join_labels`` writes it.

    Returns:
        ``Parsed("A,C", "label_list")`` from a line of labels only; else the single-answer reader's reading
        (``Parsed("B", method)``) or its unread result (``ambiguous``, ``invalid``).
    """
    letters = "".join(re.escape(v) for v in valid)
    line = re.compile(rf"^\W*(?:[^\n:：]{{1,24}}[:：])?\W*([{letters}](?:{_JOIN}[{letters}])+)\W*$")
    for raw in reversed([x.strip().strip("*_`") for x in text.strip().splitlines() if x.strip()]):
        found = line.match(raw)
        if found:
            chosen = re.findall(rf"[{letters}]", found.group(1))
            if len(set(chosen)) > 1:
                return Parsed(join_labels(chosen), "label_list")
    return extract_choice(text, list(valid), options=options)
