"""The paper's literal rule for a multiple-choice reply (MedArabiQ §3.2; spec medarabiq.md §4.3) and the earlier
defaults: the first character after the answer marker; without a marker, the reply's first character
(``first_char``, BiasMedQA's rule), the first standalone label (``regex``) or nothing (``invalid``, the paper).
``parsing.choice.extract_choice`` runs them under the parser names ``paper``, ``first_char`` and ``regex``."""

from __future__ import annotations

from collections.abc import Sequence

import regex

from xlingmed.errors import ConfigError
from xlingmed.languages import normalise_label
from xlingmed.types import Parsed, declare_parse_methods

# The parse methods this module returns, and their kinds (parsing.methods): declared here, where they are made.
declare_parse_methods({"marker": "read", "first_char": "fallback", "regex": "fallback"})

# The answer marker of paper §3.2; where it appeared (prompt or output) is not published (spec §9.1).
MARKERS: tuple[str, ...] = ("The correct letter is:", "الحرف الصحيح هو:")
_STRIP = "*\"'`“”‘’«»([{ \t\r\n"
_TOKEN = regex.compile(r"(?<![\w\u0600-\u06ff])(هـ|[\u0600-\u06ffA-Za-z0-9\u0660-\u0669])(?![\w\u0600-\u06ff])")
FALLBACKS = ("first_char", "regex", "invalid")


def _first_label(text: str) -> str | None:
    """The label at the start of ``text`` after markdown and quotes (``هـ`` kept whole)."""
    t = text.lstrip(_STRIP)
    if not t:
        return None
    return "هـ" if t.startswith("هـ") else t[0]


def extract_letter(
    text: str,
    valid: Sequence[str],
    *,
    markers: Sequence[str] = MARKERS,
    fallback: str = "first_char",
) -> Parsed:
    """The paper's literal rule (spec §4.3): the first character after the marker; without a marker, ``fallback``.

    Args:
        text: the model's reply.
        valid: canonical labels of the item's options (``["A", "B", "C", "D"]``).
        markers: phrases after which the answer letter follows (case-insensitive; the last occurrence counts).
        fallback: without a marker: ``first_char`` (the first non-whitespace character, after ``*``, quotes and
            brackets: BiasMedQA's rule), ``regex`` (the first standalone label token that is a valid option), or
            ``invalid`` (the paper: ``extract_choice(parser="paper")``).

    Returns:
        ``Parsed(value=label or None, method)``; method is ``marker``, ``first_char``, ``regex``, or ``invalid``.

    Raises:
        ConfigError: an unknown fallback.
    """
    if fallback not in FALLBACKS:
        raise ConfigError(f"unknown letter fallback {fallback!r}; known: {', '.join(FALLBACKS)}")
    lowered = text.casefold()
    best = -1
    for marker in markers:
        pos = lowered.rfind(marker.casefold())
        if pos >= 0 and pos + len(marker) > best:
            best = pos + len(marker)
    if best >= 0:
        raw = _first_label(text[best:])
        label = normalise_label(raw) if raw else None
        return Parsed(label, "marker") if label in valid else Parsed(None, "invalid")
    if fallback == "first_char":
        raw = _first_label(text)
        label = normalise_label(raw) if raw else None
        return Parsed(label, "first_char") if label in valid else Parsed(None, "invalid")
    if fallback == "regex":
        for m in _TOKEN.finditer(text):
            label = normalise_label(m.group(1))
            if label in valid:
                return Parsed(label, "regex")
    return Parsed(None, "invalid")
