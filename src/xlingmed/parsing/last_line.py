"""Rule 6 of ``parsing.choice``: the last line that names an option, outside a discussion of the options, and
whether it states that option (an answer line, its label and text, a closing sentence) or only names it (a
fallback)."""

from __future__ import annotations

import regex

from xlingmed.parsing.deciding import decide, parsed_as
from xlingmed.parsing.mentions import Reader
from xlingmed.parsing.reply import Shape
from xlingmed.parsing.statements import closes_on_label, closing_label, named_with_text, sole_statement, states
from xlingmed.types import Parsed


def last_line(reader: Reader, t: str, form: Shape) -> Parsed | None:
    """Rule 6: the last line that names an option, outside a discussion of the options (``answer_line`` where it
    states one, else ``last_line``); ``None`` where the reply ends in its discussion or no line names an
    option."""
    for lo, hi in reversed(form.lines):
        if form.in_entry(lo):
            if reader.labels(lo, hi) or reader.texts(lo, hi):
                return None  # the reply ends in its discussion: it concluded nothing
            continue
        if not (reader.labels(lo, hi) or reader.texts(lo, hi)):
            continue
        if regex.fullmatch(rf"[\s*_]*{reader.label_chars}[\s*_]*[:：][\s*_]*", t[lo:hi]):
            continue  # "A:" alone: a speaker's or a field's name with nothing after it
        mentions = reader.chosen(lo, hi)
        found = parsed_as(decide(mentions), "last_line", mentions)
        stated = closing_label(reader, form, t, (lo, hi))  # "…beyond existing treatments. \\boxed{B}"
        if stated is None and found is not None and found.value is not None and states(reader, lo, hi, mentions):
            stated = found.value  # "**C. Colitis ulcerosa**": the line is nothing but the option
        if stated is not None:
            return Parsed(stated, "answer_line")
        if found is not None and found.value is not None and named_with_text(reader, lo, hi, found.value):
            return Parsed(found.value, "label_and_text")
        if (closing := closes_on_label(reader, t, lo, hi, mentions)) is not None:
            return Parsed(closing, "closing_statement")
        if found is not None and found.value is not None and sole_statement(reader, form, mentions):
            return Parsed(found.value, "sole_statement")
        return found if found is not None else Parsed(None, "invalid")
    return None
