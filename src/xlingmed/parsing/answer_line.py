"""Rule 0 of ``parsing.choice``: the reply closes with an answer line, a short marker and one label as shown.

Real replies end in answer lines of every form: "Answer: C", "【回答】d", "**Final answer: (b)**", "پاسخ نهایی: [B]",
"Ответ — Б", "Respuesta final: **C**", "Final: c) Fibrinolysin". Whatever the marker's words, such a line is the
reply's final commitment, and it outranks every earlier sentence: a "therefore" inside one option's discussion,
an answer phrase the reply later takes back (issue 59). The marker needs no phrase a language lists: it is any
short run of words (five at most, or twelve characters of a script without spaces) before a colon, an arrow, a
spaced dash, or inside brackets of its own ("【回答】", "[Answer]").

The line must be the closing one: the last line of the reply that names an option (lines after it that name none,
a disclaimer or an explanation without labels, do not count). It is read only where nothing but the option's own
text follows the label, the marker negates nothing ("Not: C") and is no field that holds a number or a letter of
another kind ("Confidence: 4", "Grade: A", "Question 12: B"). A lower-case label is read as the upper-case one
("Final: (b)"), since the line leaves it nothing else to be.
"""

from __future__ import annotations

from collections.abc import Sequence

import regex

from xlingmed.languages import normalise_label
from xlingmed.parsing.after_phrase import stated_value
from xlingmed.parsing.literals import ARTICLES
from xlingmed.parsing.mentions import Reader
from xlingmed.parsing.reply import Shape
from xlingmed.parsing.statements import states
from xlingmed.parsing.text import WORD, FoldedText, lower, unspaced
from xlingmed.types import Parsed

# a marker in brackets of its own, then the label: "【回答】d", "[Answer] B", "「答え」c"
_BRACKETED = regex.compile(r"[\s#>*_\-–—•·]*([【\[「『〔])([^\n【】\[\]「」『』〔〕]{1,24})([】\]」』〕])")
# a marker, then a colon, an arrow, an equals sign or a spaced dash: "Final answer: (b)", "Ответ — Б"
_SEPARATED = regex.compile(r"[\s#>*_\-–—•·]*([^\n:：→⇒]{1,48}?)[\s*_]*(?:[:：→⇒]|\s[-–—]+\s)")  # no "=": sums
_DECORATION = regex.compile(r"^[\s*_#>\-–—•·\"'`“”‘’«»()\[\]（）【】「」『』.,;:：。、!！]*$")
_LEAD = " \t*_#>-–—•·\"'`“”‘’«»([（【「『→⇒➜➔"  # "→ C": an arrow before the label alone
_SEPARATOR_CHARS = regex.compile(r"[:：→⇒】\]」』〕]|\s[-–—]")
_TRAIL = " \t*_.。)]）】」』\"'”’»!！"  # no colon: "A:" alone names a speaker or a field
_LIST_SEPARATORS = regex.compile(r"[\s,、，/&;]+|(?<=\s)(?:and|or|y|et|und|и)(?=\s)|と|和|及|및|或")
_SENTENCE_MARK = regex.compile(r"[.?!。？！؟]\s|[?!。？！؟]$")
_DIGIT = regex.compile(r"\p{N}")
_TRAILING_COPULAS = ("です", "でした", "である", "입니다", "이다", "예요", "이에요")
_LETTER = regex.compile(r"\p{L}")


def closing_answer_line(reader: Reader, form: Shape, markers: Sequence[str] = ()) -> Parsed | None:
    """``Parsed(label, method)`` where the reply's closing line is an answer line, ``None`` otherwise (the other
    rules read the reply). The method says what the marker is: ``marker`` (one of ``markers``, the paper's or the
    prompt's), ``phrase`` (an answer phrase a language lists: "Правильный ответ:") or ``answer_line`` (any other
    short words: "【回答】", "Final:", or none: a line that is one label, "**C**", "(c)"). Two answer lines in a row
    that name different options ("a\ne") are ``ambiguous``."""
    restated: str | None = None  # the option whose text alone stands on a line below ("Answer: A\n\n**<A's text>**")
    explained: str | None = None  # the one option whose text the lines below name in prose
    for i in range(len(form.lines) - 1, -1, -1):
        lo, hi = form.lines[i]
        found = _candidate(reader, form, i, markers)
        if found is not None and restated is not None and found.value not in (None, restated):
            return Parsed(None, "ambiguous")  # the answer line and the option's text below it disagree
        if found is not None and explained is not None and found.value not in (None, explained):
            return None  # the explanation below names another option: the other rules weigh it
        if found is not None:
            return found if found is not _NO_OPTION else None
        if form.in_entry(lo) or any(lo <= k < hi for k, _ in reader.phrase_spans) or reader.labels(lo, hi):
            return None  # the last line that names an option, states an answer or concludes, or discusses an
            # option one by one, is no answer line: the reply closes without one
        texts = reader.texts(lo, hi)
        if texts:
            if restated is None and (whole := _option_of_text(reader, lo, hi)) is not None:
                restated = whole  # the chosen option's text, restated under its answer line: read the line above
                continue
            named = {m.label for m in texts}
            if len(named) > 1 or explained not in (None, *named):
                return None
            explained = named.pop()  # an explanation that names one option's text ("Biopsy allows…") under the
            # answer line ("D. Biopsy"): the line above is still the closing answer
    return None


_NO_OPTION = Parsed(None, "invalid")  # an answer line that names no option: "Answer: 8 ATP"


def _candidate(reader: Reader, form: Shape, i: int, markers: Sequence[str]) -> Parsed | None:
    """The line ``i`` as an answer line: its reading, ``_NO_OPTION`` for a short answer that names no option,
    ``None`` where it is no answer line."""
    lo, hi = form.lines[i]
    end = _marker_end(reader, lo, hi)
    if end is not None and reader.reported(end):
        return None  # "例如[正确答案]A": an example the prompt gave, echoed
    if end is not None:
        at = reader.label_at(end, strict_case=False, number=reader.numbered)
        if at is not None and at.end <= hi and _only_own_text(reader, at.label, at.end, hi):
            if reader.negated_before(at):
                return _NO_OPTION
            return _unless_listed(reader, form, i, Parsed(at.label, _method(reader, lo, end, markers)))
        whole = _option_of_text(reader, end, hi)
        if whole is not None:
            return _unless_listed(reader, form, i, Parsed(whole, "answer_line"))  # "A: كل ما سبق صحيح"
        if _short(reader.text[end:hi]):
            return _NO_OPTION  # "Answer: 8 ATP", "答え：不明": an answer line that names no option
    label = bare_label(reader, lo, hi) if len(form.lines) > 1 else None  # a reply of one label: rule 4
    if label is not None and not form.in_entry(lo):
        return _unless_listed(reader, form, i, Parsed(label, _heading_method(reader, form, i, markers)))
    value = stated_value(reader, lo, hi) if i > 0 and not form.in_entry(lo) else None
    if value is not None and _answer_heading(reader, *form.lines[i - 1]):
        return Parsed(value, "option_text")  # "### Final Answer\n\boxed{25}": an option's value under its heading
    label = _introduced_option(reader, form, i)
    return Parsed(label, _heading_method(reader, form, i, markers)) if label is not None else None


_CHECK_MARKS = "✅✔☑"


def _introduced_option(reader: Reader, form: Shape, i: int) -> str | None:
    """The option of a closing line that is one label and its option's own text, where the line is set apart as
    the answer: after a line that ends in a colon ("…a melhor abordagem seria:\n\nC) Nefrostomia…"), or under a
    check mark that marks no other line ("✅ D) …"). A line like it inside a list of options is discussion."""
    lo, hi = form.lines[i]
    line = reader.text[lo:hi]
    body = line.lstrip(_LEAD + _CHECK_MARKS + "\ufe0f ")
    if any(c in line[: len(line) - len(body)] for c in _CHECK_MARKS):
        marked = sum(1 for s, e in form.lines if any(c in reader.text[s : min(e, s + 8)] for c in _CHECK_MARKS))
        return _label_and_own_text(reader, hi - len(body), hi) if marked == 1 else None
    if i == 0 or not reader.text[slice(*form.lines[i - 1])].rstrip(_TRAIL).endswith((":", "：")):
        return None
    if form.in_entry(form.lines[i - 1][0]) or _opens_with_label(reader, form, i + 1):
        return None  # one of a list of options: "La respuesta correcta es:\n1) …\n3) …"
    first = _listed_labels(reader, *form.lines[0]) if form.lines[0][1] - form.lines[0][0] <= 40 else None
    if first is not None and len(first) > 1:
        return None  # "a, c, d\n…\nIf two must be chosen:\na: …"
    return _label_and_own_text(reader, hi - len(body), hi)


def _label_and_own_text(reader: Reader, lo: int, hi: int) -> str | None:
    """The label at ``lo`` where its option's text, and nothing else, follows it up to ``hi``: the whole text, or a
    line no longer than it that opens with its first three words (a model's copy of a long option drifts)."""
    at = reader.label_at(lo, strict_case=False, number=reader.numbered)
    option = reader.option_texts.get(at.label) if at is not None else None
    if at is None or at.end >= hi or not option:
        return None
    if _option_of_text(reader, at.end, hi) == at.label:
        return at.label
    copied = hi - at.end <= len(option) + 8 and (
        reader.words_of_option_follow(at.label, at.end, 3) or _same_start(option, reader.text[at.end : hi])
    )
    return at.label if copied else None


def _same_start(option: str, line: str) -> bool:
    """The line opens with the option's first 16 letters and digits, spaces aside: a copy that joins or splits
    a word ("breastfeeding" for "breast feeding") is still the option's own text."""
    want = "".join(ch for ch in option if ch.isalnum())[:16]
    have = "".join(ch for ch in FoldedText(line).text if ch.isalnum())[: len(want)]
    return len(want) >= 12 and have == want


def _opens_with_label(reader: Reader, form: Shape, i: int) -> bool:
    if not 0 <= i < len(form.lines):
        return False
    lo, hi = form.lines[i]
    line = reader.text[lo:hi]
    at = reader.label_at(lo + len(line) - len(line.lstrip(_LEAD)), strict_case=False, number=reader.numbered)
    return at is not None


def opening_label(reader: Reader, form: Shape) -> Parsed | None:
    """``Parsed(label, "standalone")`` where the reply's first line is one label and nothing else ("c", "**B**")
    and the explanation under it states no other option by an answer phrase; ``ambiguous`` where the first line
    is several labels and nothing else ("a, c", "b e"); ``None`` otherwise, and where an answer phrase below
    states another option ("A\n\n… so the correct answer is B": the later statement is read by the phrase
    rule)."""
    if len(form.lines) < 2:
        return None  # a reply of one line is read whole (rule 4)
    lo, hi = form.lines[0]
    label = bare_label(reader, lo, hi)
    stated = _stated_apart(reader, form) if label is None else None  # "(b) Black Americans\n\n<reasons>"
    label = label or stated
    if label is None:
        listed = _listed_labels(reader, lo, hi) if hi - lo <= 40 else None
        return Parsed(None, "ambiguous") if listed is not None and len(listed) > 1 else None
    second = bare_label(reader, *form.lines[1])
    if second is not None and second != label:
        return Parsed(None, "ambiguous")  # "a\ne": two answers, one a line
    for _, end in reader.phrase_spans:
        at = reader.label_at(end, strict_case=False)
        if end > hi and at is not None and at.label != label and not reader.negated(at):
            return None
    return Parsed(label, "answer_line" if stated else "standalone")


def _stated_apart(reader: Reader, form: Shape) -> str | None:
    """The option of a first line that is one option's label and text and nothing else ("(b) Black Americans"),
    set apart by a blank line from the explanation under it: the answer, stated before the reasons (whose
    comparisons name other options' texts). Not an entry of a discussion of the options, one a line."""
    lo, hi = form.lines[0]
    longest = max(map(len, reader.option_texts.values()), default=0)
    apart = "\n" in reader.text[hi : form.lines[1][0]].replace("\n", "", 1)
    if hi - lo > longest + 24 or not apart or form.in_entry(lo):
        return None  # longer than a label and an option's text, or no blank line under it (the cheap tests first)
    if not reader.labels(lo, hi):
        return None
    mentions = reader.chosen(lo, hi)
    return mentions[0].label if states(reader, lo, hi, mentions) else None


def _listed_labels(reader: Reader, lo: int, hi: int) -> set[str] | None:
    """The labels of a line that is labels, separators and decoration only ("a, c", "b e", "**B** and **D**");
    ``None`` where anything else stands on it."""
    found: set[str] = set()
    for token in _LIST_SEPARATORS.split(lower(reader.text[lo:hi])):
        token = token.strip(_LEAD + ".)]）】」:：")
        if not token:
            continue
        label = normalise_label(token) if len(token) <= 2 and (reader.numbered or not token.isdigit()) else None
        if label is None or label not in reader.valid:
            return None
        found.add(label)
    return found


def _short(text: str) -> bool:
    """At most three words and 24 characters: an answer, not a sentence."""
    return len(text.split()) <= 3 and len(text.strip()) <= 24


def bare_label(reader: Reader, lo: int, hi: int) -> str | None:
    """The label when the line ``[lo, hi)`` is one label and decoration only ("C", "**(b)**", "【d】", "③")."""
    line = reader.text[lo:hi]
    token = line.strip(_LEAD + _TRAIL)
    copula = next((c for c in _TRAILING_COPULAS if token.endswith(c)), None)
    if copula is not None:  # "Eです。", "C입니다": the label and a copula written after it
        bare = token[: -len(copula)].strip()
        label = normalise_label(bare) if 0 < len(bare) <= 2 and not bare.isdigit() else None
        return label if label is not None and label in reader.valid and reader.letters else None
    if len(token) > 16:
        return None  # a label with an option word ("Option C", "الخيار ج") is shorter
    if 0 < len(token) <= 2 and (reader.numbered or not token.isdigit()):
        label = normalise_label(token)
        if label is not None and label in reader.valid and (reader.letters or token.isdigit()):
            return label
    lead = len(line) - len(line.lstrip(_LEAD))
    at = reader.label_at(lo + lead, strict_case=False, number=reader.numbered)
    rest = reader.text[at.end : hi] if at is not None else ""
    if at is None or at.end > hi or not _DECORATION.match(rest) or ":" in rest or "：" in rest:
        return None  # "A:" alone is a speaker's or a field's name
    if lower(reader.text[lo + lead : at.start]).strip() in ARTICLES:
        return None  # "a\ne": the label "a", not the article "a" before the label "e"
    return at.label


def _unless_listed(reader: Reader, form: Shape, i: int, found: Parsed) -> Parsed:
    """``found``, or ``ambiguous`` where the line before it is a bare label of another option ("a\ne")."""
    if i == 0:
        return found
    lo, hi = form.lines[i - 1]
    before = bare_label(reader, lo, hi)
    return Parsed(None, "ambiguous") if before is not None and before != found.value else found


def _heading_method(reader: Reader, form: Shape, i: int, markers: Sequence[str]) -> str:
    """A bare label's method: that of the marker alone on the line above it ("【回答】\nB", "Answer:\n\n**C**"),
    else ``answer_line``."""
    if i == 0:
        return "answer_line"
    lo, hi = form.lines[i - 1]
    rest = reader.text[lo:hi].rstrip(_TRAIL)
    if rest.endswith((":", "：", "】", "]")) or any(lo <= s and e >= lo + len(rest) for s, e in reader.phrase_spans):
        return _method(reader, lo, hi, markers)
    return "answer_line"


def _answer_heading(reader: Reader, lo: int, hi: int) -> bool:
    """The line ``[lo, hi)`` is a short heading that announces the answer ("### Final Answer", "**Answer:**")."""
    return hi - lo <= 40 and any(lo <= s < hi for s, _ in (*reader.phrase_spans, *reader.cue_spans))


def _method(reader: Reader, lo: int, end: int, markers: Sequence[str]) -> str:
    head = reader.low[lo:end]
    if any(lower(m).strip().rstrip(":：").strip() in head for m in markers if m.strip()):
        return "marker"
    return "phrase" if any(lo <= s < end for s, _ in reader.phrase_spans) else "answer_line"


def _marker_end(reader: Reader, lo: int, hi: int) -> int | None:
    """Where the line's marker ends (after its colon or closing bracket), or ``None`` where it opens with none."""
    line = reader.text[lo:hi]
    if not _SEPARATOR_CHARS.search(line, 0, 64):
        return None  # most lines hold no separator where a marker could end
    m = _BRACKETED.match(line)
    marker = m.group(2) if m else None
    if m is None:
        m = _SEPARATED.match(line)
        marker = m.group(1) if m else None
    if m is None or marker is None or not _is_marker(reader, marker):
        return None
    return lo + int(m.end())


def _is_marker(reader: Reader, marker: str) -> bool:
    """A short run of words with no digit, no sentence end, no negation and no field of another kind."""
    words = lower(marker).strip(" *_#>").split()
    if len(words) == 1 and len(words[0].strip("*_()[]")) <= 2:
        return False  # "a: <text>", "A:", "B)": a label and its option, not a marker
    if not words or not _LETTER.search(marker) or _DIGIT.search(marker) or _SENTENCE_MARK.search(marker):
        return False
    if len(words) > 5 or (unspaced(marker.strip()[:1]) and len(marker.strip()) > 12):
        return False
    low = lower(marker)
    lit = reader.lit
    if any(w.strip("*_()[]") in lit.field_words for w in words) or any(n in low for n in lit.unspaced_field_words):
        return False
    return not reader.lit.negation.search(low)


def _option_of_text(reader: Reader, pos: int, hi: int) -> str | None:
    """The option whose whole text, and nothing else, follows the marker ("Answer: Warfarin")."""
    stated = FoldedText(reader.text[pos:hi]).text.strip()
    found = [label for label, option in reader.option_texts.items() if option == stated]
    return found[0] if len(found) == 1 else None


def _only_own_text(reader: Reader, label: str, pos: int, hi: int) -> bool:
    """Nothing but decoration follows the label up to ``hi``, or the option's own text ("c) Fibrinolysin")."""
    rest = reader.text[pos:hi]
    if _DECORATION.match(rest) or reader.lit.affirmed.fullmatch(lower(rest)):
        return True  # "Answer: OPTION A IS CORRECT."
    option = reader.option_texts.get(label)
    if not option:
        return False
    stripped = rest.lstrip(" *_.):：-–—(\"'“「")
    if not FoldedText(stripped[: len(option) * 2 + 16]).text.strip().startswith(option):
        return False
    # and no other option's label after it: "Question: … A) lipase B) penicillinase C) …" echoes the options
    return all(m.label == label for m in reader.labels(pos, hi))


# what a prompt says the reply must end with: "…in the format 'ANSWER: $LETTER'", "Answer: X", "【回答】x の形式で"
_PLACEHOLDER = (
    r"(?:\$\{?LETTERS?\}?|<\s*letters?\s*>|\[\s*letters?\s*\]|\{\s*(?:answer|letter)\s*\}|<\s*answer\s*>"
    r"|[XxＸ])(?![\p{L}\p{N}])"
)
# found by the placeholder first, so that a long or hostile prompt costs one linear scan
_ASKED = regex.compile(rf"(?:[:：]|(?<=】))[ \t]*{_PLACEHOLDER}", regex.I)
_BRACKETED_MARKER = regex.compile(r"【[^】\n]{1,10}】$")
_OPENERS = regex.compile(r"[\s\S]*['\"`“‘「(«„]")


def asked_marker(prompt: str | None) -> str | None:
    """The marker a logged prompt asks the reply to end with ("ANSWER:", "Answer:", "【回答】"), or ``None``: the
    last such format the prompt states, as "<words>: $LETTER", "<words>: X", "<words>: <letter>" or "【…】x"."""
    if not prompt:
        return None
    matches = list(_ASKED.finditer(prompt))
    if not matches:
        return None
    found = matches[-1]
    head = prompt[max(0, found.start() - 80) : found.start()].rsplit("\n", 1)[-1]
    bracketed = _BRACKETED_MARKER.search(head.rstrip())
    if bracketed:
        return str(bracketed.group())
    quoted = _OPENERS.match(head)  # "…format: 'ANSWER" → "ANSWER"
    words = head[quoted.end() if quoted else 0 :].split()[-2:]  # "Respond with Final answer" → "Final answer"
    if not words or any(len(w) > 20 or not w.replace("-", "").isalpha() for w in words):
        return None  # words only: not "</script>", "x)", a 1 MB token
    return " ".join(words) + ":"


def answer_on_last_line(reader: Reader, t: str) -> bool:
    """The reply's last line holds an answer phrase ("8) Final Answer: Early respiratory support"): a line that
    ends without a full stop after stating its answer was not cut."""
    end = len(t.rstrip())
    last = t.rfind("\n", 0, end) + 1
    if end - last <= 40 and reader.chosen(last, end):
        return True  # "Essential hypertension stage 2": a short closing line that names an option
    return end - last <= 120 and any(
        start >= last and not _WORD_CHAR.search(t[last:start].lstrip(" \t*_#-•0123456789.)"))
        for start, _ in reader.phrase_spans[-1:]
    )


_WORD_CHAR = regex.compile(WORD)
