"""Reading the options a reply chose where an item has several right answers (MMedBench's French and Japanese
exams: "A,C"); the item is right only when the reply names exactly the set of right options, as MMedBench's scorer
compares sets of letters.

A reply is read from its last line that holds nothing but option labels, in Latin or in the item's script
(``A, C``, ``A and C``, ``B、D``, ``أ، ج``, or run together in order: ``AC``), optionally after a field name
(``Answer:``, ``答え：``). Anything else is read as one option by the single-answer reader (``parsing.choice``; a set
of one, wrong against two) or left unread: never guessed. Letters run together out of order (``CAB``, ``BAD``) are a
word, not a list.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from xlingmed.languages import LANGUAGES
from xlingmed.parsing.choice import extract_choice
from xlingmed.types import Parsed, declare_parse_methods

declare_parse_methods({"label_list": "read"})

_JOIN = r"(?:\s*(?:,|;|、|，|،|/|&|\+|\band\b|\bet\b|\by\b|\bund\b|و|和|及|と|и)\s*|\s+)"


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
    latin = {v: v for v in valid}
    script = {lang.option_letters[k]: v for lang in LANGUAGES.values() for k, v in enumerate(valid)
              if k < len(lang.option_letters) and not lang.option_letters[k].isascii()}  # fmt: skip
    names = {**latin, **script}
    letters = "".join(re.escape(x) for x in names)
    field = r"(?:[^\n:：]{1,24}[:：])?"
    listed = re.compile(rf"^\W*{field}\W*([{letters}](?:{_JOIN}[{letters}])+)\W*$")
    together = re.compile(rf"^\W*{field}\W*([{''.join(valid)}]{{2,}})\W*$")
    for raw in reversed([x.strip().strip("*_`") for x in text.strip().splitlines() if x.strip()]):
        found = listed.match(raw)
        run = together.match(raw)
        if run and list(run.group(1)) == sorted(set(run.group(1))):  # "AC": letters in order, each once
            return Parsed(join_labels(list(run.group(1))), "label_list")
        if found:
            chosen = [names[x] for x in re.findall(rf"[{letters}]", found.group(1))]
            if len(set(chosen)) > 1:
                return Parsed(join_labels(chosen), "label_list")
    return extract_choice(text, list(valid), options=options)
