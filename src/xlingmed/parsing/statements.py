"""Where a reply's last line states an option rather than passing it (``parsing.choice``'s rule 6).

A last line that names one option may state it ("**C. Colitis ulcerosa**", "…היא C. Verapamil.", "…is (F).") or
name it on the way to something else ("… which rules out C …"); only a statement is read, the rest is a guess
(``last_line``, withheld by default: issue 59).
"""

from __future__ import annotations

from collections.abc import Sequence

import regex

from xlingmed.parsing.alone import STRIP_START
from xlingmed.parsing.mentions import GLUE, Mention, Reader
from xlingmed.parsing.reply import Shape
from xlingmed.parsing.text import lower, unmath


def states(reader: Reader, lo: int, hi: int, mentions: Sequence[Mention]) -> bool:
    """The line ``[lo, hi)`` is nothing but one option named, by its label, its text or both, with decoration
    ("**C. Colitis ulcerosa**", "(B)", "③ 간기능 검사"): it states that option. A line that names one in passing
    ("… which rules out C …") only suggests it (``last_line``, a fallback)."""
    if len({m.label for m in mentions}) != 1:
        return False
    rest = reader.text[lo:hi]
    lead = len(rest) - len(rest.lstrip(STRIP_START))
    opening = reader.label_at(lo + lead, strict_case=False, number=reader.numbered)
    if opening is not None and opening.label == mentions[0].label:  # "**4. Persistent nausea…**"
        mentions = [*mentions, opening]
    for m in sorted(mentions, key=lambda x: -x.start):
        rest = rest[: m.start - lo] + " " + rest[m.end - lo :]
    own = reader.options.get(mentions[0].label, "")
    if own and unmath(_STATED_REST.sub("", rest)) == unmath(_STATED_REST.sub("", own)):
        return True  # "[ A ] 10": the label and its option's own value, too short or numeric for the text rules
    rest = lower(rest)
    rest = reader.lit.option_word_any.sub(" ", rest)
    return not _STATED_REST.sub("", rest)


def closing_label(reader: Reader, form: Shape, t: str, line: tuple[int, int]) -> str | None:
    """The option of the reply's last sentence where that sentence is nothing but one label, after the line's
    reasoning ("…beyond existing treatments. \\boxed{B}", "…as noted. **C**"): the answer the reply closes on. Only
    for the reply's last line (``line``), and not where that line names other options by their labels too (the
    options echoed: "…B) atmosférica… D) de elastancia… E) atmosférica, hidrostática…")."""
    if t[line[1] :].strip() or not form.sentences:
        return None
    lo, end = form.sentences[-1]
    mentions = reader.chosen(lo, end)
    if not mentions or any(m.by_text for m in mentions) or not states(reader, lo, end, mentions):
        return None
    label = mentions[0].label
    return None if any(m.label != label for m in reader.labels(*line)) else label


def closes_on_label(reader: Reader, t: str, lo: int, hi: int, mentions: Sequence[Mention]) -> str | None:
    """The option the reply's last line ends its last sentence on, by its label after a copula ("…the factor that
    has NOT received as much support is (F).", "…la respuesta más adecuada es la (C)."), where the line names no
    other option by label (an option's text earlier in the sentence is its subject: "…why social support is related
    to better health is (F)", "Social" being option I): it states that option. Only at the reply's very end: the
    same sentence in the middle is reasoning on the way. ``None`` otherwise."""
    labelled = [m for m in mentions if not m.by_text]
    if len({m.label for m in labelled}) != 1 or t[hi:].strip():
        return None
    last = max(mentions, key=lambda m: m.end)
    if last.by_text:
        return None  # the sentence ends on an option's text, not its label
    after = reader.text[last.end : hi]
    if after.strip() and not _STATED_REST.fullmatch(after):
        return None  # words after the label: "… is (F) in most cases"
    before = reader.low[max(t.rfind(". ", lo, last.start) + 1, lo) : last.start]  # its sentence, up to the label
    return last.label if reader.lit.copula_end.search(before) is not None and not reader.negated(last) else None


def sole_statement(reader: Reader, form: Shape, mentions: Sequence[Mention]) -> bool:
    """The whole reply is one sentence on one line that names one option, by its label or its text, and no other,
    without negating it, and ends on it: the answer stated in the exam's own words ("El cuello uterino está inervado
    por el nervio pudendo."). A question ("…, or is it pneumonia?") states nothing; words after the option
    ("…given the clot lysis", "…in most textbooks, but others disagree") leave it a fallback's reading."""
    if len(form.lines) != 1 or len(form.sentences) != 1 or len({m.label for m in mentions}) != 1:
        return False
    lo, hi = form.lines[0]
    last = max(mentions, key=lambda m: m.end)
    if not _STATED_REST.fullmatch(reader.text[last.end : hi] or "."):
        return False  # words after it ("It must be fibrinolysin given…", "…is (F) in most textbooks, but…")
    # any negation in the sentence, not only one next to the option: "The clot is not dissolved by fibrinolysin."
    return "?" not in reader.text[lo:hi] and not reader.lit.negation.search(reader.low[lo:hi])


def named_with_text(reader: Reader, lo: int, hi: int, label: str) -> bool:
    """The line names ``label`` by its label and its own text together ("…היא C. Verapamil.", "Warfarin (option
    D)", "characteristic of **B. Adult Polycystic Kidney Disease**"), and the whole reply names no other option:
    the exam's own form of the option, stated, not an option passed on the way to another."""
    everywhere = reader.labels(0, len(reader.text)) + reader.texts(0, len(reader.text))
    if any(m.label != label for m in everywhere):
        return False
    line = reader.text[lo:hi]
    if reader.label_at(lo + len(line) - len(line.lstrip(STRIP_START)), strict_case=False) is not None:
        return False  # "A) Ressonância: is sensitive but costly": an option's entry, discussed, not stated
    labels = [m for m in reader.labels(lo, hi) if m.label == label]
    texts = [m for m in reader.texts(lo, hi) if m.label == label]
    return any(
        GLUE.match(reader.text[a.end : b.start]) is not None
        for x in labels for y in texts for a, b in ((x, y), (y, x)) if a.end <= b.start
    )


_STATED_REST = regex.compile(r"[\s*_#>\-–—•·.,:：;)(\[\]（）「」\"'`“”‘’«»!！。]+")
