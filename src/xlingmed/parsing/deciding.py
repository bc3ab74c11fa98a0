"""Which option a set of mentions chooses: one, several (``ambiguous``) or none; shared by the rules of
``parsing.choice`` and ``parsing.last_line``."""

from __future__ import annotations

from collections.abc import Sequence

from xlingmed.parsing.mentions import Mention
from xlingmed.types import Parsed

AMBIGUOUS = "ambiguous"


def decide(mentions: Sequence[Mention]) -> str | None:
    """The one option ``mentions`` choose, ``"ambiguous"`` for two or more, ``None`` for none. A label wins over
    texts; a label and a different option's text alone ("B (fibrinolysin)", fibrinolysin being C) disagree."""
    labels = {m.label for m in mentions if not m.by_text}
    texts = {m.label for m in mentions if m.by_text}
    if len(labels) > 1 or (not labels and len(texts) > 1):
        return AMBIGUOUS
    if labels:
        (label,) = labels
        return AMBIGUOUS if len(texts) == 1 and label not in texts else label
    return next(iter(texts)) if texts else None


def parsed_as(found: str | None, method: str, mentions: Sequence[Mention] = ()) -> Parsed | None:
    if found is None:
        return None
    if found == AMBIGUOUS:
        return Parsed(None, "ambiguous")
    return Parsed(found, method)
