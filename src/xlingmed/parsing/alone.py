"""Rule 4 of ``parsing.choice``: a reply that is one option (its text, or its label alone: "Option C", "(٣)", "e")
or opens with one ("C. Fibrinolysin …", "③ 간기능 검사", "3. Ensayo controlado…"), and ``option_match``, a short
reply that is a clear best fuzzy match of one option's text (a fallback)."""

from __future__ import annotations

import difflib
from collections.abc import Sequence

import regex

from xlingmed.languages import normalise_label
from xlingmed.parsing.mentions import DECOR, Mention, Reader
from xlingmed.parsing.reply import Shape
from xlingmed.parsing.text import UNSPACED, fold, lower
from xlingmed.types import Parsed


def alone(reader: Reader, t: str, valid: Sequence[str], form: Shape) -> Parsed | None:
    """Rule 4: the reply is one option's text, or a label, or opens with a label outside a list of options."""
    if reader.options:
        reply = fold(t)
        exact = sorted({lab for lab, opt in reader.option_texts.items() if opt == reply})
        if len(exact) > 1:
            return Parsed(None, "ambiguous")  # duplicate option texts (MedArabiQ FITB rows 0, 8, 20, 41)
        whole = _whole_label(reader, t)
        if exact and whole is not None and whole != exact[0]:
            return Parsed(None, "ambiguous")  # the reply is one option's text and another option's label
        if exact:
            return Parsed(exact[0], "option_text")
    whole = _whole_label(reader, t)
    if whole is not None:
        return Parsed(whole, "standalone")
    first = form.lines[0] if form.lines else None
    if first is None or form.in_entry(first[0]):
        return None
    # "C. Fibrinolysin …", "**B)** …", "c (IgRA)", "e: 胆管癌", "51. d" (the question's number, then the label)
    m = regex.match(
        rf"[\s*_\"'`“”‘’«»(\[]*(?:\d{{1,3}}\.\s+)?({reader.label_chars})"
        rf"(?:\s*[.):：\]*](?!(?!{UNSPACED})\p{{L}})|\s+\(|\s*$)",  # "C．太平天国运动": no space before Chinese
        t,
    )
    if m is None:
        return _opens_with_number(reader, t, form)
    at = Mention(str(normalise_label(m.group(1))), m.start(1), m.end(1))
    if at.label not in valid or reader.negated(at):
        return None
    raw = m.group(1)
    if raw.isascii() and raw.islower():
        lower_word = regex.match(r"\.\s+\p{Ll}", t[at.end :])
        named = reader.text_follows(at.label, at.end + 1) or reader.words_of_option_follow(at.label, at.end + 1)
        if lower_word and not named:
            return None  # "e. g. …"
    elif reader.is_term(at.start, at.end) or not reader.label_follows(at.label, at.end):
        return None  # "E. coli …"
    line_end = form.lines[0][1]
    if {x.label for x in reader.chosen(at.start, line_end, with_texts=False)} - {at.label}:
        return None  # "c. 162 mmHg on the right, and d. 136 on the left": two options
    return Parsed(at.label, "standalone")


def _opens_with_number(reader: Reader, t: str, form: Shape) -> Parsed | None:
    """An exam with numbered options: the reply opens with an option's number, circled or after an option word
    ("③ 간기능 검사", "Option 2: …"), or with a bare number followed by that option's text ("3. Ensayo
    controlado…"), and names no other option on that line."""
    if not reader.numbered or not form.lines:
        return None
    lead = len(t) - len(t.lstrip(STRIP_START))
    at = reader.label_at(lead, strict_case=False, number=True)
    if at is None or reader.negated(at):
        return None
    worded = reader.lit.option_word_any.search(reader.low, lead, at.start) is not None  # "Option 2: …"
    after = DECOR.match(t, at.end).end()
    named = reader.text_follows(at.label, after) or reader.words_of_option_follow(at.label, after)
    if not (worded or named or _opens_alone(reader, t, form, at.end)):
        return None  # "1. First, …": a list, not an answer
    if {x.label for x in reader.chosen(at.start, form.lines[0][1], with_texts=False)} - {at.label}:
        return None
    return Parsed(at.label, "standalone")


def _opens_alone(reader: Reader, t: str, form: Shape, end: int) -> bool:
    """The number opening the reply is followed by a full stop or bracket and no later line opens with another
    number: the answer to a prompt that ended in "…the number of the correct statement is:" (a completion model
    continues it: " 4. «Critical» is a valve area of…"), not the first item of a list."""
    if t.startswith("번", end):  # Korean's "number": "4번 - …"
        end = len(t) - len(t[end + 1 :].lstrip(" "))
    if t[end : end + 1] not in (".", ")", "-", ":") or not t[end + 1 : end + 2].isspace():
        return False
    return not any(_LIST_ITEM.match(t, lo) for lo, _ in form.lines[1:])


_LIST_ITEM = regex.compile(r"[\s*_#>]*\(?[0-9٠-٩۰-۹]{1,2}(?:[.)]|번\s*[:\-–])\s")


def _whole_label(reader: Reader, t: str) -> str | None:
    """The label when the reply is nothing but one (with option word and decoration): "Option C", "(٣)", "e"."""
    at = reader.label_at(len(t) - len(t.lstrip(STRIP_START)), strict_case=False, number=True)
    if at is None:
        return None
    rest = lower(t[: at.start] + " " + t[at.end :])
    rest = reader.lit.option_word_any.sub(" ", rest)
    return None if DECOR.sub("", rest).strip(_STRIP_END) else at.label


STRIP_START = "\t\n\r *_\"'`“”‘’«»([{"
_STRIP_END = "\t\n\r .。!！?？)]}:*_\"'`“”‘’«»،؛;,"


def fuzzy(reader: Reader, t: str) -> Parsed | None:
    """``option_match``: a short reply that is a clear best fuzzy match (similarity ≥ 0.8, ahead by ≥ 0.1)."""
    reply = fold(t)
    texts = reader.option_texts
    if not reply or not texts:
        return None
    ratios = sorted(((difflib.SequenceMatcher(None, reply, o).ratio(), lab) for lab, o in texts.items()), reverse=True)
    second = ratios[1][0] if len(ratios) > 1 else 0.0
    if ratios[0][0] >= 0.8 and ratios[0][0] - second >= 0.1:
        return Parsed(ratios[0][1], "option_match")
    return None
