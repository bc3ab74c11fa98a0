"""What follows an answer phrase, for rule 2 of ``parsing.choice``: the rest of its sentence; several options named
together ("A or B", "C) Platelet disorder or D) …", "答え: b e"; an answer given as a list under the phrase, "Las
opciones correctas son:\n2) …\n3) …"); the label after an earlier phrase; and ranges of labels, which name no
option at all ("among A through D, the answer is")."""

from __future__ import annotations

from collections.abc import Sequence

import regex

from xlingmed.parsing.mentions import DECOR, Mention, Reader
from xlingmed.parsing.reply import Shape
from xlingmed.parsing.text import unmath
from xlingmed.types import Parsed

_COORDINATION = regex.compile(
    r"[\s*_]*(?:,|،|/|\||;|；|(?:or|and|ou|oder|und|oppure|atau|dan|au|na|или|и|o|y|e|et)(?!\p{L})"
    r"|或|和|及|、|أو|او|و|או|ו|या|और|또는|및|과|와|または|か|と)[\s*_]*"
    r"|\s*(?=option\s+\d)"  # "④ ⑤" (normalised to "option 4 option 5"): two circled numbers side by side
)


_CLOSING = regex.compile(r"[ \t)\]）】」*_]*")  # "(A) and (C)", "[ B ], [ C ]": past the label's brackets
_BRACKET_AFTER = regex.compile(r"\s*\([^()\n]{1,80}\)")
_SPACED = regex.compile(r"[ \t*_]+(?=\S{1,3}[ \t*_.。]*(?:\n|$))")  # "答え: b e": a second label ends the line


def listed_after(reader: Reader, form: Shape, pos: int) -> set[str]:
    """The options that open the lines of the paragraph from ``pos`` on (up to a blank line): an answer given as
    a list ("The correct answers are:\n1) …\n3) …")."""
    found: set[str] = set()
    for i, (lo, hi) in enumerate(form.lines):
        if hi <= pos:
            continue
        if found and "\n" in reader.text[form.lines[i - 1][1] : lo].replace("\n", "", 1):
            break  # a blank line ends the paragraph
        if found and _COORDINATION.fullmatch(reader.low[lo:hi].strip()):
            continue  # "**A: …**\nAnd\n**J: …**": a line of its own that joins two answers
        at = reader.label_at(lo)
        if at is None or reader.text[lo : at.start].strip(" *_-•([") or reader.negated(at):
            break
        found.add(at.label)
    return found


def coordinated(reader: Reader, at: Mention, hi: int, after: int | None = None) -> bool:
    """Another option is joined to the one at ``at`` by "or"/"and"/a comma: "A or B", "B y C", "A或B", also past
    its own text or a bracket after it (``after``): "C) Platelet disorder or D) …", "A (endoscopy) or D (…)"."""
    end = _CLOSING.match(reader.text, at.end if after is None else after).end()  # "(A) and (C)": past "A)"
    if reader.text.startswith("번", end):
        end = _CLOSING.match(reader.text, end + 1).end()  # "2번 또는 5번": past Korean's "number"
    bracket = _BRACKET_AFTER.match(reader.text, end)
    end = _CLOSING.match(reader.text, bracket.end()).end() if bracket else end  # "[A] (Axillary)**، **[C]"
    m = _COORDINATION.match(reader.text, end) or _SPACED.match(reader.text, end)
    if m is None or m.end() >= hi:
        return False
    other = reader.label_at(m.end(), strict_case=not reader.lower)
    return other is not None and other.label != at.label and not reader.negated(other)



# a range of labels names no option: "among A through D, the answer is", "options A to E", "(A–D)"
_RANGE = regex.compile(r"(?<![\p{L}\p{N}])([A-J])(\s*(?:through|thru|to|–|—)\s*)([A-J])(?![\p{L}\p{N}])")


def without_ranges(t: str) -> str:
    """``t`` with every range of labels ("A through D", "A–E") blanked, where it runs forward."""
    if not _RANGE.search(t):
        return t
    return str(_RANGE.sub(lambda m: " " * len(m.group()) if m.group(1) < m.group(3) else m.group(), t))


def labelled_before(reader: Reader, spans: Sequence[tuple[int, int]], pos: int) -> Parsed | None:
    """The label right after the last answer phrase before ``pos`` that has one (not negated), as ``phrase``."""
    for start, end in reversed(spans):
        if start < pos:
            at = reader.label_at(end)
            if at is not None and not reader.negated(at):
                return Parsed(at.label, "phrase")
    return None


def rest_of_sentence(t: str, pos: int, form: Shape) -> tuple[int, int]:
    """From ``pos`` (after decoration: "Answer:\n\n**C**") to the end of that sentence."""
    start = DECOR.match(t, pos).end()
    return start, max(start, form.sentence_of(start)[1])


# a single capital letter that ends the statement: "Final answer: E.", "the answer is (X)", "**F**"
_STATED_LETTER = regex.compile(r"[(\[（]?[*_]{0,2}([A-Z])[*_]{0,2}[)\]）]?[*_]{0,2}[ \t]*(?:[.。!:;]|$|\n)")


def names_no_option(reader: Reader, end: int) -> bool:
    """The answer phrase ending at ``end`` states a letter the item has no option for ("Final answer: E." with
    options A–D; "\\boxed{X}"): the reply's stated answer is none of its options (issue 59: never an earlier
    statement in its place)."""
    found = _STATED_LETTER.match(reader.text, DECOR.match(reader.text, end).end())
    return found is not None and found.group(1) not in reader.valid and found.group(1) != "I"


# several capital labels run together, in order, ending the statement: "最终答案：ACDE", "Answer: BD."
_RUN = regex.compile(r"[*_]{0,2}([A-J]{2,})[*_]{0,2}[ \t]*(?:[.。!;,，]|$|\n)")


def several_run_together(reader: Reader, end: int) -> bool:
    """The answer phrase ending at ``end`` states several options run together ("最终答案：ACDE"): each label once,
    in order, each an option of the item; a reply that commits to several options chose no single one."""
    found = _RUN.match(reader.text, DECOR.match(reader.text, end).end())
    run = found.group(1) if found is not None else ""
    return len(run) > 1 and list(run) == sorted(set(run)) and all(x in reader.valid for x in run)


def stated_value(reader: Reader, lo: int, hi: int) -> str | None:
    """The option whose whole text ``[lo, hi)`` states, decoration aside, where that text is a value too short or
    too numeric for the text rules ("The correct answer is:\n\n**35**" for option "35"; "$-1 + i$"): exactly one
    option's, signs and all, or ``None``."""
    stated = reader.text[lo:hi].strip(_VALUE_DECOR)
    return option_with_value(reader, stated) if len(unmath(stated)) <= 40 else None


def option_with_value(reader: Reader, value: str) -> str | None:
    """The one option whose raw text is ``value``, TeX's ``$`` and spaces aside ("-1 + i" for "$-1 + i$"; signs
    kept, which folding would drop), or ``None``."""
    stated = unmath(value)
    found = [label for label, option in reader.options.items() if option and stated and unmath(option) == stated]
    return found[0] if len(found) == 1 else None


_VALUE_DECOR = " \t\n*_`.。:：()[]"


def line_below(reader: Reader, form: Shape, pos: int) -> tuple[int, int] | None:
    """The line right below a conclusion that ends in a colon, where it names exactly one option ("…is:\n**(A)
    Small, frequent meals**"): the answer stated, without the explanation that runs on under it."""
    for lo, hi in form.lines:
        if lo >= pos:
            if form.in_entry(lo) or len(listed_after(reader, form, lo)) > 1:
                return None  # the options discussed one by one, or several given as a list: not one answer
            return (lo, hi) if len(set(m.label for m in reader.chosen(lo, hi))) == 1 else None
    return None


def doubted(reader: Reader, hi: int) -> bool:
    """What follows the answer's sentence (from ``hi``) doubts it and names no option: a reasoning trace that
    stopped before it concluded ("…so perhaps the correct answer is C, but I'm not sure.\n\nWait, I think I'm
    overcomplicating this."), whose last answer was never restated."""
    tail = reader.low[hi:]
    return reader.lit.doubt.search(tail) is not None and not reader.labels(hi, len(reader.text))
