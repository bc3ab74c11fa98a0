"""Which option a multiple-choice reply chose — or that it chose none (MedArabiQ paper §3.2; spec §4.3).

``extract_choice`` is a pure function of the reply, the item's option labels and (optionally) their texts. Real
chat models reason at length and then conclude, so the default parser, ``robust``, reads the reply's *final
commitment*, in this order, and stops at the first rule that decides:

1. ``marker``: the paper's marker ("The correct letter is:", ``الحرف الصحيح هو:``); the last one counts.
2. ``phrase``: the last answer phrase of any language (``Language.answer_phrases``: "The correct answer is",
   "Answer:", ``الإجابة الصحيحة هي``, "答案是", "正解は", "התשובה הנכונה היא", "Respuesta:" …) that names an
   option, by label, number or text, right after it or in the rest of its sentence.
3. ``conclusion``: the sentence of the last conclusion cue (``Language.conclusion_cues``: "therefore", "in
   conclusion", "the most likely", したがって, Portanto, לכן, 因此, لذلك, इसलिए …) that names an option; a cue
   that is a heading ("**Conclusión:**") reads the paragraph under it.
4. ``option_text`` / ``standalone``: the whole reply is one option's text, or a label ("C", "(C)", "**ج**",
   "Option 3", "٣"), or it opens with one ("C. Fibrinolysin …") and is not a list of options.
5. ``refused``: a reply that refuses or asks for what it lacks (``Language.no_choice_phrases``: "without the
   image", "画像が提示されていない", "I cannot determine") and committed to nothing above, even when it quotes an
   option.
6. ``last_line``: the last line that names an option, outside a list that discusses the options one by one;
   ``option_text`` when it names one by its text only. ``option_match`` (a fallback): a short reply that is a clear
   best fuzzy match of one option's text. Both infer: by default (``reading="strict"``) they give no option and
   the reply is ``guess_withheld``; ``reading="lenient"`` keeps their option.
7. Otherwise ``invalid``.

Before all of these, the reply's *final commitment by position* (issue 59): ``answer_line``, a closing line that is
a short marker and one label ("Answer: C", "【回答】d", "Final: (b)", "پاسخ نهایی: [B]", or a bare "**C**"), is
read first, whatever the reply said before it (``parsing.answer_line``); a first line that is one bare label ("c"
above an explanation) is the answer unless an answer phrase below names another option. A reply whose reasoning
block never closed (``<think>`` without ``</think>``) is ``thinking_only``, as is one whose last answer phrase is
followed by doubt (``Language.doubt_words``: "Wait, …", "I'm not sure") and no option named again; text after an
end-of-turn token is the next speaker's (``parsing.turns``). An answer phrase after a reported or supposing word in
its clause ("the user's note claims the correct answer is (A)", "if the intended answer is A") is not the reply's
own (``Language.reported_words``).

Wherever a rule reads, a negated option does not count ("not C", "B, not C", "C is incorrect", ``ليست ج``,
"Cではない", "不是C"); two options left ("A or B") are ``ambiguous``; a letter that completes a term is no label
("hepatitis B", "vitamin D", "E. coli", "type A", "B型"), nor is an article or pronoun ("Answer: A patient…");
a list that walks through the options is discussion (``parsing.reply``). A label is never taken from inside a
word, lower-case Latin letters only where nothing else could be meant, and numbers only where a label is expected.
Labels of any script map to canonical Latin letters (``languages.normalise_label``).

The paper's literal rule stays available by name: ``paper`` (the first character after the marker, else
invalid), and the earlier defaults ``first_char`` (marker, else the reply's first character: BiasMedQA's rule)
and ``regex`` (marker, else the first standalone token).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

import regex

from xlingmed.errors import ConfigError
from xlingmed.parsing.after_phrase import (
    coordinated,
    doubted,
    labelled_before,
    line_below,
    listed_after,
    names_no_option,
    rest_of_sentence,
    several_run_together,
    stated_value,
    without_ranges,
)
from xlingmed.parsing.alone import alone, fuzzy
from xlingmed.parsing.answer_line import answer_on_last_line, closing_answer_line, opening_label
from xlingmed.parsing.citations import blank_citations
from xlingmed.parsing.content import by_content, stated_spans
from xlingmed.parsing.deciding import AMBIGUOUS, decide, parsed_as
from xlingmed.parsing.json_answer import json_answer
from xlingmed.parsing.last_line import last_line
from xlingmed.parsing.letter import FALLBACKS as FALLBACKS
from xlingmed.parsing.letter import MARKERS as MARKERS
from xlingmed.parsing.letter import extract_letter as extract_letter
from xlingmed.parsing.literals import find_words, ordinals_as_options
from xlingmed.parsing.mentions import DECOR, GLUE, Reader
from xlingmed.parsing.reply import Shape, shape
from xlingmed.parsing.syllable_labels import as_letters
from xlingmed.parsing.text import WORD, angle_labels, latex_answers, lower, normalise
from xlingmed.parsing.turns import own_turn, stops_mid_sentence
from xlingmed.types import Parsed, declare_parse_methods

# The parse methods this module returns, and their kinds (parsing.methods): declared here, where they are made.
declare_parse_methods({
    "marker": "read", "phrase": "read", "conclusion": "read", "standalone": "read", "answer_line": "read",
    # the only option a reply names, by its label and its own text together ("… is C. Verapamil")
    "label_and_text": "read",
    # the reply's closing sentence ends on one option after a copula ("… is (F)."); a reply of one sentence names one
    "closing_statement": "read", "sole_statement": "read",
    # a line that names one option among other words infers the answer: a fallback the parse limits count
    "last_line": "fallback", "option_text": "read", "option_content": "read", "option_match": "fallback",
    # a reply whose reasoning block never closed, or that stopped at its token limit: no final answer
    "thinking_only": "unread", "cut_off": "unread",
    # a reply a fallback alone would read: no option, unless -T reading=lenient
    "guess_withheld": "unread",
})

PARSERS: tuple[str, ...] = ("robust", "paper", "first_char", "regex")
# ``strict`` (default): a rule that infers (``last_line``, ``option_match``) gives no option, the reply is
# ``guess_withheld`` (unread: the parse limits bound it); ``lenient``: those rules' option counts (before 0.2).
READINGS: tuple[str, ...] = ("strict", "lenient")
# Methods ``extract_choice`` returns (the value is None exactly for the last three).
METHODS: tuple[str, ...] = (
    "marker", "phrase", "conclusion", "standalone", "answer_line", "last_line", "option_text", "option_content",
    "option_match", "first_char", "regex", "refused", "ambiguous", "invalid", "thinking_only", "guess_withheld",
    "cut_off", "label_and_text", "closing_statement", "sole_statement",
)  # fmt: skip


def _read(
    reader: Reader, t: str, valid: Sequence[str], markers: Sequence[str], cut_off: bool = False
) -> Parsed:
    low = reader.low
    # 0. the reply closes with a JSON object that has an answer field: {"choice": "C", "rationale": "… A …"}
    structured = json_answer(reader, t) if t.rstrip(" \t\n*_-`").endswith("}") else None
    if structured is not None:
        return structured
    form = shape(reader)
    # 0. the reply closes with an answer line ("Answer: C", "【回答】d"): its final commitment, whatever came before
    closing = closing_answer_line(reader, form, markers)
    if closing is not None:
        return closing
    # 1. the paper's marker: the last one counts
    best = -1
    for marker in _normalised(tuple(markers)):
        pos = low.rfind(marker)
        if pos >= 0:
            best = max(best, pos + len(marker))
    if best >= 0:
        at = reader.label_at(best, strict_case=False)
        label = at.label if at is not None else decide(reader.texts(*rest_of_sentence(t, best, form)))
        if label is not None and label != AMBIGUOUS:
            return Parsed(label, "marker")
    # the reply opens with a bare label ("c\n\n<explanation>"): the answer stated before its explanation
    opening = opening_label(reader, form)
    if opening is not None:
        return opening
    first = _answer_then_rationale(reader, t, valid, markers)
    if first is not None:
        return first
    if stops_mid_sentence(t, cut_off) and not answer_on_last_line(reader, t):
        # the reply stopped before its end (the token limit): what it concluded on the way was not its last word
        # ("…Therefore, I'll go with B.\n\nBut wait, I recall that after surg")
        return Parsed(None, "cut_off")
    phrase_spans = reader.phrase_spans
    cue_spans = reader.cue_spans
    # 2. answer phrases: the last one that names an option
    for start, end in reversed(phrase_spans):
        lo, hi = rest_of_sentence(t, end, form)
        at = reader.label_at(end)
        if reader.reported(start) and not regex.search(r"[,，、]", t[end : at.start if at is not None else end + 3]):
            continue  # "the user's note claims the correct answer is (A)": not the reply's own answer ("if only
            # one answer may be chosen, then C" is: the supposition ends before the label)
        if (
            at is not None and "\n" in t[end : at.start] and t[at.end : at.end + 1] in (":", "：")
            and not reader.text_follows(at.label, DECOR.match(t, at.end + 1).end())
        ):
            continue  # "Answer:\n\nA:\n\nThe…": a speaker's or field's "A:" on the next line, not an answer
        glued = [m for m in reader.texts(at.end, at.end + 80) if GLUE.match(t[at.end : m.start])] if at else []
        # a label stated with its own text ("The correct answer is 4. X is not usually observed…") answers a
        # which-is-NOT question: what follows the text describes the option; without its text, a negation right
        # after the label takes it back ("答えはDではない", "정답은 D가 아닙니다"), as one before it does
        own_text = bool(glued) and glued[0].label == at.label if at is not None else False
        if at is not None and not (reader.negated_before(at) if own_text else reader.negated(at)):
            if glued and glued[0].label != at.label:
                return Parsed(None, "ambiguous")  # "B (fibrinolysin)", fibrinolysin being option C
            if coordinated(reader, at, hi, glued[0].end if own_text else at.end):
                return Parsed(None, "ambiguous")  # "the answer is A or B"
            if "\n" in t[end : at.start] and len(listed_after(reader, form, at.start)) > 1:
                return Parsed(None, "ambiguous")  # "Las opciones correctas son:\n2) …\n3) …"
            if doubted(reader, hi):
                return Parsed(None, "thinking_only")  # "…the answer is C, but I'm not sure.\n\nWait, I think…"
            return Parsed(at.label, "phrase")
        if _refuses(reader, end, hi):
            return Parsed(None, "refused")  # "Answer: none of the options is correct", the last answer stated
        if at is None and names_no_option(reader, end):
            return Parsed(None, "invalid")  # "Final answer: E." of an item with options A–D
        if at is None and several_run_together(reader, end):
            return Parsed(None, "ambiguous")  # "最终答案：ACDE": several options, no single one
        if _refuses(reader, *form.sentence_of(start)):
            continue  # "I cannot determine the answer without the image, although pneumonia…"
        found = parsed_as(decide(reader.chosen(lo, hi)), "phrase")
        if found is not None:
            return found
        value = stated_value(reader, lo, hi) if at is None else None
        if value is not None:
            return Parsed(value, "option_text")  # "The correct answer is:\n\n**35**", option A being "35"
        content = _content(reader, lo, hi)
        if content is not None:
            # an option's content stated after the phrase counts where no earlier phrase names an option outright
            # ("La respuesta correcta es la número 1. 'La respuesta correcta es la númeror 1.' (…)")
            return labelled_before(reader, phrase_spans, start) or content
    # 3. conclusion cues: the sentence of the last one that names an option
    for start, end in reversed(cue_spans):
        if form.in_entry(start):
            continue
        lo, hi = form.sentence_of(start)
        heading = not regex.search(WORD, t[lo:start]) and not regex.search(WORD, t[end:hi])
        if heading or t[lo:hi].rstrip(" *_\n").endswith((":", "：")):
            under = form.paragraph_after(hi, t)
            if form.in_entry(under[0]) and any(s >= under[1] for s, _ in form.entries):
                continue  # "To find the correct answer, let's analyze each option:", the options discussed below
            if heading:
                lo, hi = under  # a heading: "**Conclusion:**" then the paragraph under it
            else:
                below = line_below(reader, form, hi)  # "the most likely answer is:\n**C. …**\nThis … (F) … (J)…"
                hi = below[1] if below is not None else under[1]
        if _refuses(reader, lo, hi):
            continue
        found = parsed_as(decide(reader.chosen(lo, hi)), "conclusion") or _content(reader, end, hi)
        if found is not None:
            return found
    # 4. the whole reply is one option's text or label, or opens with a label
    found_alone = alone(reader, t, valid, form)
    if found_alone is not None:
        return found_alone
    # 5. a reply that refuses or asks for what it lacks, and chose nothing above: refused, unless its last line
    # states one option all the same ("…I cannot be sure; if I must choose:\n\n③")
    last = last_line(reader, t, form)
    if _refuses(reader, 0, len(t)):
        return last if last is not None and last.method == "answer_line" else Parsed(None, "refused")
    # 6. the last line that names an option, outside a discussion of the options
    return last or fuzzy(reader, t) or _concluding_content(reader, form) or Parsed(None, "invalid")


@lru_cache(maxsize=64)
def _normalised(markers: tuple[str, ...]) -> tuple[str, ...]:
    """The markers as a reply is searched (normalised, lower case), once per set of markers."""
    return tuple(lower(normalise(m)) for m in markers)


def _concluding_content(reader: Reader, form: Shape) -> Parsed | None:
    """``option_content`` of the reply's last sentence, else its first (outside a list of options): a reply that
    names no option by label may still state one as its conclusion ("…진단은 급성 심근경색증입니다.")."""
    outside = [(lo, hi) for lo, hi in form.sentences if not form.in_entry(lo) and _HAS_WORD.search(reader.text[lo:hi])]
    for lo, hi in (outside[-1:] + outside[:1]) if outside else ():
        found = _content(reader, lo, hi)
        if found is not None:
            return found
    return None


_HAS_WORD = regex.compile(WORD)
# what the head before a rationale may be read by
_HEAD_METHODS = ("marker", "phrase", "conclusion", "standalone", "option_text", "answer_line",
                 "sole_statement")


def _answer_then_rationale(reader: Reader, t: str, valid: Sequence[str], markers: Sequence[str]) -> Parsed | None:
    """The answer stated before the reply's explanation ("A. It reduces TB meningitis\n\nRationale: … options B,
    C, D and E are incorrect …"): what the head reads, unless an answer phrase after the heading names another
    option (then ``ambiguous``); ``None`` where there is no such heading or the head names no single option."""
    m = reader.lit.rationale.search(reader.low)
    if m is None or not t[: m.start()].strip():
        return None
    head_reader = Reader(t[: m.start()], valid, reader.options, reader.numbered, reader.letters, reader.lower)
    head = _read(head_reader, t[: m.start()], valid, markers)
    if head.value is None or head.method not in _HEAD_METHODS:
        return None
    tail = t[m.end() :]
    tail_reader = Reader(tail, valid, reader.options, reader.numbered, reader.letters, reader.lower)
    for _, end in find_words(tail_reader.low, reader.lit.phrases):
        at = tail_reader.label_at(end)
        if at is not None and not tail_reader.negated(at) and at.label != head.value:
            return Parsed(None, "ambiguous")  # "A. …\nExplanation: … so the answer is B"
    return head


_BRACKETED_LETTER = regex.compile(r"\(([A-Z])\)")


def _content(reader: Reader, lo: int, hi: int) -> Parsed | None:
    """``option_content``: the answer stated in ``[lo, hi)`` (its bold spans first, then all of it) gives one
    option's text far better than any other's (``parsing.content``); never where the span negates."""
    span = reader.text[lo:hi]
    if not reader.option_texts or reader.lit.negation.search(reader.low[lo:hi]):
        return None
    if any(x not in reader.valid and x != "I" for x in _BRACKETED_LETTER.findall(span)):
        return None  # "**Teres Minor (T)**": the label it gives is no option's, its text only like option J's
    for stated in stated_spans(span):
        label = by_content(stated, reader.option_texts)
        if label is not None:
            return Parsed(label, "option_content")
    return None


def _refuses(reader: Reader, lo: int, hi: int) -> bool:
    """The span holds a phrase of a reply that chooses nothing ("without the image", "I cannot determine", "none
    of the above"), other than as an option's own text (an option "None of the above" is chosen by its text)."""
    low = reader.low[lo:hi]
    found = find_words(low, reader.lit.no_choice)
    options = " | ".join(reader.option_texts.values()) if found else ""
    return any(low[a:b] not in options for a, b in found)


_CIRCLED_LABELS = frozenset("①②③④⑤⑥⑦⑧⑨⑩")


def label_scheme(labels: Sequence[str] | None) -> str:
    """``numbers`` (1-5 in any script's digits), ``circled`` (①-⑤), ``lower`` (a-e) or ``letters`` (A-E, أ-ه,
    א-ה, क-ङ, 가-마, ア-オ…): how a prompt labelled its options, from the labels it showed."""
    shown = [str(x).strip().strip(".)") for x in labels or ()]
    if shown and all(x in _CIRCLED_LABELS for x in shown):
        return "circled"
    if shown and all(x.isdigit() for x in shown):
        return "numbers"
    if shown and all(x.isascii() and x.isalpha() and x.islower() for x in shown):
        return "lower"
    return "letters"


def extract_choice(
    text: str,
    valid: Sequence[str],
    *,
    options: Mapping[str, str] | None = None,
    parser: str = "robust",
    markers: Sequence[str] = MARKERS,
    numbered: bool = False,
    labels: Sequence[str] | None = None,
    reading: str = "strict",
    cut_off: bool = False,
) -> Parsed:
    """The option a multiple-choice reply chose (module docstring: the rules and their order).

    Args:
        text: the model's reply.
        valid: canonical labels of the item's options, in order (``["A", "B", "C", "D"]``).
        options: canonical label → option text, for replies that give the text instead of the label.
        parser: ``robust`` (default), ``paper`` (marker, else invalid), ``first_char``, ``regex``.
        markers: the paper's marker phrases (case-insensitive; the last occurrence counts).
        numbered: the prompt labelled the options with numbers (1, 2, 3…) rather than letters: a number after an
            answer phrase is an option's number. Otherwise a number counts only after an option word ("option 3"),
            as a circled number ("③") or as the whole reply: after "Answer:" it fills a blank.
        labels: the labels the prompt showed, in the order of ``valid`` (``["1", "2", "3", "4"]``, ``["①", …]``,
            ``["a", …]``, ``["أ", …]``); ``None``: letters. Numbers or circled numbers make the options
            ``numbered``, and then no letter is a label ("B 원장", "Dr. A", "vitamin A" are never options).
        reading: ``strict`` (a fallback's guess gives no option: ``guess_withheld``) or ``lenient`` (it does);
            ``READINGS``. Only the ``robust`` parser has fallbacks to withhold.
        cut_off: the reply stopped at the token limit (``finish_reason == "length"``): a long one (``CUT_MIN_CHARS``)
            is read only by an answer line (at its close or its head) or the marker, else ``cut_off``; a short one
            (a small token budget that cut the explanation after the answer) is read as any. A long reply that ends
            inside a sentence is taken as cut without it.

    Returns:
        ``Parsed(label or None, method)``; method is one of ``METHODS``; the value is ``None`` exactly when the
        method is ``refused``, ``ambiguous`` or ``invalid`` (all count as wrong, as the paper counts invalid
        answers).

    Raises:
        ConfigError: an unknown parser or reading.
    """
    if parser not in PARSERS:
        raise ConfigError(f"unknown multiple-choice parser {parser!r}; known: {', '.join(PARSERS)}")
    if reading not in READINGS:
        raise ConfigError(f"unknown reading {reading!r}; known: {', '.join(READINGS)}")
    if parser != "robust":
        return extract_letter(text, valid, markers=markers, fallback={"paper": "invalid"}.get(parser, parser))
    turn = own_turn(text)
    if turn is None:
        return Parsed(None, "thinking_only")
    # the reply's own words, with the wrappings of its labels taken off ("<E>", "\\boxed{\\text{d}}", "ア", "③")
    scheme = label_scheme(labels)
    numbers = numbered or scheme in ("numbers", "circled")
    t = angle_labels(latex_answers(blank_citations(normalise(turn, circled=numbers))))
    t = without_ranges(ordinals_as_options(as_letters(t, labels or ())))
    if not t.strip():
        return Parsed(None, "invalid")
    reader = Reader(t, valid, options or {}, numbers, scheme in ("letters", "lower"), scheme == "lower")
    parsed = _read(reader, t, valid, markers, cut_off)
    if reading == "strict" and parsed.method in _GUESSES:
        return Parsed(None, "guess_withheld")  # issue 59: an inference is never a score by default
    return parsed


_GUESSES = frozenset(("last_line", "option_match"))


__all__ = ["FALLBACKS", "MARKERS", "METHODS", "PARSERS", "READINGS", "extract_choice", "extract_letter", "label_scheme"]
