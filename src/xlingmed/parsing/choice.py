"""Which option a multiple-choice reply chose — or that it chose none (MedArabiQ paper §3.2; spec §4.3).

``extract_choice`` is a pure function of the reply, the item's option labels and (optionally) their texts. The
default parser, ``robust``, reads in this order and stops at the first rule that finds something:

1. ``marker``: the paper's marker ("The correct letter is:", ``الحرف الصحيح هو:``); the last one counts, and the
   label (or option text) right after it is the answer.
2. ``phrase``: an answer phrase of any registered language (``languages.Language.answer_phrases``: "The correct
   answer is", "Answer:", ``الإجابة الصحيحة هي``, "La respuesta correcta es", "答案是", "सही उत्तर है", …) followed
   by a label, an option number or an option's text; two phrases naming different options are ``ambiguous``.
3. ``option_text``: the reply is exactly one option's text ("A+C" is that option, not "C"); a reply that is
   both one option's text and another option's label is ``ambiguous``.
4. ``standalone``: the whole reply is a label ("C", "(C)", "**ج**", "Option 3", "٣"), or it opens with one
   followed by ``.``/``)``/``:`` ("C. Fibrinolysin"), or exactly one label stands alone somewhere: in
   parentheses/brackets/bold/quotes, after an option word ("option C", ``الخيار ج``, "选项C"), or an upper-case
   Latin or an Arabic letter followed by ``.``/``)``/``:`` or the end ("The best choice here is C."). Two
   different options standing alone are ``ambiguous``.
5. ``option_text``: the reply contains exactly one option's text (texts are compared with case, diacritics,
   hamza forms and punctuation folded); two are ``ambiguous``. ``option_match`` (a fallback): a
   clear best fuzzy match (similarity ≥ 0.8, ahead of the next option by ≥ 0.1).
6. Otherwise ``invalid``.

A label is never taken from inside or at the start of a word ("ال", the Arabic article, is not option A;
"Doctors" is not option D), lower-case Latin letters count only where nothing else could be meant ("(c)",
"answer: c", "c." at the start), and numbers only where a label is expected (after a marker, phrase or option
word, or as the whole reply). Labels of any script map to canonical Latin letters (``languages.normalise_label``:
أ/ا/إ/آ → A, ه/هـ → E, Arabic-Indic and Devanagari digits → option number). A label that is not one of the item's
options is not an answer.

The paper's literal rule stays available by name: ``paper`` (the first character after the marker, else
invalid), and the earlier defaults ``first_char`` (marker, else the reply's first character: BiasMedQA's rule,
which reads "ال" as A) and ``regex`` (marker, else the first standalone token).
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Mapping, Sequence
from functools import lru_cache

import regex

from xlingmed.errors import ConfigError
from xlingmed.languages import LANGUAGES, normalise_label
from xlingmed.parsing.letter import FALLBACKS as FALLBACKS
from xlingmed.parsing.letter import MARKERS as MARKERS
from xlingmed.parsing.letter import extract_letter as extract_letter
from xlingmed.types import Parsed

PARSERS: tuple[str, ...] = ("robust", "paper", "first_char", "regex")
# Methods ``extract_choice`` returns (the value is None exactly for the last two).
METHODS: tuple[str, ...] = (
    "marker", "phrase", "standalone", "option_text", "option_match", "first_char", "regex", "ambiguous", "invalid",
)  # fmt: skip

_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u200e\u200f\u061c\u2066\u2067\u2068\u2069\u202a\u202b"
                                    "\u202c\u202d\u202e\ufeff"))  # fmt: skip
_HARAKAT = regex.compile(r"[\u064b-\u065f\u0670]")
_WORD = r"[\p{L}\p{M}\p{N}_]"
_LABEL_CHARS = r"[A-Ja-jأاإآبجدهةو]"
_DIGITS = r"[0-9٠-٩۰-۹०-९]{1,2}"
# What may stand between a phrase and its label: spaces, markdown, quotes, brackets, colons, dashes, "is".
_DECOR = regex.compile(r"""[\s*_"'`“”‘’«»\[\(\{:\-–—=>~]*""")
_STRIP_END = "\t\n\r .。!！?？)]}:*_\"'`“”‘’«»،؛;,"
_STRIP_START = "\t\n\r *_\"'`“”‘’«»([{"


def _normalise(text: str) -> str:
    """NFKC (full-width letters, Arabic presentation forms, ``：``), no invisible marks or harakat, ``هـ`` → ``ه``."""
    t = unicodedata.normalize("NFKC", text).translate(_INVISIBLE)
    return str(_HARAKAT.sub("", t).replace("هـ", "ه").replace("\u0640", ""))


@lru_cache(maxsize=1)
def _phrases() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(answer phrases, option words) of every registered language, longest first."""
    phrases = {p for lang in LANGUAGES.values() for p in lang.answer_phrases}
    words = {w for lang in LANGUAGES.values() for w in lang.option_words}
    return tuple(sorted(phrases, key=len, reverse=True)), tuple(sorted(words, key=len, reverse=True))


# Articles between a phrase and its label: "la respuesta correcta es la C".
_ARTICLES = ("la", "el", "the")
# A label ends where a word would go on; Chinese, Japanese and Korean glue a particle or copula straight onto
# it ("B입니다", "Cです", "C是"), which ends it too.
_EAST_ASIAN = r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}]"
_LABEL_AT = regex.compile(rf"({_LABEL_CHARS}|{_DIGITS})(?!(?!{_EAST_ASIAN}){_WORD})")


def _label_at(text: str, pos: int, valid: Sequence[str], *, strict_case: bool = True) -> str | None:
    """The canonical label at ``pos`` after decoration and up to two option words (or articles), else None.

    With ``strict_case`` a lower-case Latin letter counts only when punctuation or the end follows it ("the
    answer is a patient…" names no option)."""
    _, words = _phrases()
    words = (*words, *_ARTICLES)
    i = _DECOR.match(text, pos).end()
    for _ in range(2):
        low = _lower(text[i : i + 12])
        for w in words:
            # a whole word ("option C", not "optional"); Chinese has no word boundary to check
            if low.startswith(w) and (_is_cjk(w) or not regex.match(_WORD, text[i + len(w) : i + len(w) + 1])):
                i = _DECOR.match(text, i + len(w)).end()
                break
        else:
            break
    m = _LABEL_AT.match(text, i)
    if not m:
        return None
    if i > 0 and regex.match(r"\p{L}", text[i - 1]) and not _is_cjk(text[i - 1]):
        return None  # glued to the word before it ("الإجابةa"); Chinese has no spaces ("答案是C")
    raw = m.group(1)
    after = text[m.end() : m.end() + 1]
    if strict_case and raw.islower() and raw.isascii() and after and after not in ".):]*,;،\n":
        return None
    label = normalise_label(raw)
    return label if label in valid else None


def _is_cjk(s: str) -> bool:
    """Han, kana or Hangul: scripts whose words are not cut off from a label by a space."""
    return bool(regex.search(_EAST_ASIAN, s))


def _phrase_spans(low: str, phrases: Sequence[str]) -> list[tuple[int, int]]:
    """Non-overlapping (start, end) of answer phrases in ``low`` (already case-folded), longest first."""
    spans: list[tuple[int, int]] = []
    for p in phrases:
        start = 0
        while (k := low.find(p, start)) >= 0:
            start = k + 1
            end = k + len(p)
            if any(s <= k < e for s, e in spans):
                continue
            if p[0].isascii() and p[0].isalpha() and k > 0 and regex.match(_WORD, low[k - 1]):
                continue  # "reanswer:" is not "answer:"
            spans.append((k, end))
    return sorted(spans)


def _fold(text: str) -> str:
    """Text for comparing a reply with option texts: case, diacritics, alef/hamza forms, punctuation folded."""
    t = _normalise(text).casefold()
    t = t.translate(str.maketrans("أإآٱىة", "اااايه"))
    t = unicodedata.normalize("NFKD", t)
    t = "".join(c for c in t if not unicodedata.combining(c) or "\u0900" <= c <= "\u097f")
    t = regex.sub(r"[\p{P}\p{S}]+", " ", t)
    return " ".join(t.split())


def _contains(hay: str, needle: str) -> bool:
    if not needle:
        return False
    if _is_cjk(needle):
        return needle in hay
    return f" {needle} " in f" {hay} "


def _exact_option(text: str, options: Mapping[str, str], valid: Sequence[str]) -> Parsed | None:
    reply = _fold(text)
    exact = sorted({lab for lab, t in options.items() if lab in valid and reply and _fold(t) == reply})
    if len(exact) > 1:
        return Parsed(None, "ambiguous")  # duplicate option texts (MedArabiQ FITB rows 0, 8, 20, 41)
    return Parsed(exact[0], "option_text") if exact else None


def _by_option_text(text: str, options: Mapping[str, str], valid: Sequence[str]) -> Parsed | None:
    folded = {lab: _fold(t) for lab, t in options.items() if lab in valid and _fold(t)}
    reply = _fold(text)
    if not reply or not folded:
        return None
    exact = sorted({lab for lab, t in folded.items() if t == reply})
    if len(exact) == 1:
        return Parsed(exact[0], "option_text")
    if len(exact) > 1:
        return Parsed(None, "ambiguous")  # duplicate option texts (MedArabiQ FITB rows 0, 8, 20, 41)
    inside = {lab for lab, t in folded.items() if _contains(reply, t)}
    # an option text inside a longer matched one ("vitamin" in "vitamin c") is not a second answer
    inside = {lab for lab in inside if not any(o != lab and folded[lab] in folded[o] for o in inside)}
    if len(inside) == 1:
        return Parsed(inside.pop(), "option_text")
    if len(inside) > 1:
        return Parsed(None, "ambiguous")
    ratios = sorted(((difflib.SequenceMatcher(None, reply, t).ratio(), lab) for lab, t in folded.items()), reverse=True)
    best = ratios[0]
    second = ratios[1][0] if len(ratios) > 1 else 0.0
    if best[0] >= 0.8 and best[0] - second >= 0.1:
        return Parsed(best[1], "option_match")
    return None


_ENCLOSED = regex.compile(
    rf"(?:\(\s*({_LABEL_CHARS})\s*\)|\[\s*({_LABEL_CHARS})\s*\]|\*\*\s*({_LABEL_CHARS})\s*[.)]?\s*\*\*"
    rf"|[\"“'‘«]({_LABEL_CHARS})[\"”'’»])"
)
_LOOSE = regex.compile(rf"(?<!{_WORD}|[.'’])([A-H]|[أاإآبجدهةو])(?=\s*[.):،]|\s*$)(?![.)]?{_WORD})")


_LEAD = regex.compile(rf"[\s*_\"'`“”‘’«»(\[]*({_LABEL_CHARS})\s*[.):\]*](?!\p{{L}})")
_LISTED = regex.compile(rf"(?:^|(?<=[\s,;،(]))({_LABEL_CHARS})\s*[.)](?!\p{{L}})", regex.M)


def _standalone(text: str, valid: Sequence[str]) -> Parsed | None:
    core = text.strip(_STRIP_START + _STRIP_END)
    whole = _whole_label(core, valid) if core else None
    if whole is not None:
        return Parsed(whole, "standalone")
    lead = _LEAD.match(text)
    if lead:
        label = normalise_label(lead.group(1))
        # a reply that lists options ("A) … is wrong, C) is right") does not open with its answer
        listed = {normalise_label(m.group(1)) for m in _LISTED.finditer(text)} & set(valid)
        if label in valid and listed <= {label}:
            return Parsed(label, "standalone")
    found: set[str] = set()
    for m in _ENCLOSED.finditer(text):
        label = normalise_label(next(g for g in m.groups() if g))
        if label is not None and label in valid:
            found.add(label)
    _, words = _phrases()
    low = _lower(text)
    for w in words:
        for m in regex.finditer(regex.escape(w), low):
            k, end = m.start(), m.end()
            inside_word = (k > 0 and regex.match(_WORD, low[k - 1])) or regex.match(_WORD, low[end : end + 1])
            if inside_word and not _is_cjk(w):
                continue  # "optional", "choices" hold no option word
            label = _label_at(text, end, valid)
            if label is not None:
                found.add(label)
    for m in _LOOSE.finditer(text):
        label = normalise_label(m.group(1))
        if label is not None and label in valid:
            found.add(label)
    if len(found) == 1:
        return Parsed(found.pop(), "standalone")
    if len(found) > 1:
        return Parsed(None, "ambiguous")
    return None


def _lower(text: str) -> str:
    """Lower case that keeps every position (``str.lower`` lengthens a few characters, such as "İ")."""
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


def _whole_label(core: str, valid: Sequence[str]) -> str | None:
    """The label when the reply is nothing but one (with option word and decoration): "Option C", "(٣)"."""
    m = _LABEL_AT.search(core)
    if m is None:
        return None
    rest = _lower(core[: m.start()] + " " + core[m.end() :])
    _, words = _phrases()
    for w in words:
        rest = rest.replace(w, " ")
    if _DECOR.sub("", rest).strip(_STRIP_END):
        return None
    label = normalise_label(m.group(1))
    return label if label in valid else None


def extract_choice(
    text: str,
    valid: Sequence[str],
    *,
    options: Mapping[str, str] | None = None,
    parser: str = "robust",
    markers: Sequence[str] = MARKERS,
) -> Parsed:
    """The option a multiple-choice reply chose (module docstring: the rules and their order).

    Args:
        text: the model's reply.
        valid: canonical labels of the item's options, in order (``["A", "B", "C", "D"]``).
        options: canonical label → option text, for replies that give the text instead of the label.
        parser: ``robust`` (default), ``paper`` (marker, else invalid), ``first_char``, ``regex``.
        markers: the paper's marker phrases (case-insensitive; the last occurrence counts).

    Returns:
        ``Parsed(label or None, method)``; method is one of ``METHODS``; the value is ``None`` exactly when the
        method is ``ambiguous`` or ``invalid`` (both count as wrong, as the paper counts invalid answers).

    Raises:
        ConfigError: an unknown parser.
    """
    if parser not in PARSERS:
        raise ConfigError(f"unknown multiple-choice parser {parser!r}; known: {', '.join(PARSERS)}")
    if parser != "robust":
        return extract_letter(text, valid, markers=markers, fallback={"paper": "invalid"}.get(parser, parser))
    t = _normalise(text)
    if not t.strip():
        return Parsed(None, "invalid")
    low = _lower(t)
    # 1. the paper's marker: the last one counts
    best = -1
    for marker in markers:
        pos = low.rfind(_lower(_normalise(marker)))
        if pos >= 0:
            best = max(best, pos + len(_normalise(marker)))
    if best >= 0:
        label = _label_at(t, best, valid, strict_case=False)
        if label is None and options:
            after = _by_option_text(_sentence(t[best:]), options, valid)
            label = after.value if after is not None else None
        if label is not None:
            return Parsed(label, "marker")
    # 2. answer phrases
    phrases, _ = _phrases()
    named: set[str] = set()
    for _, end in _phrase_spans(low, phrases):
        label = _label_at(t, end, valid, strict_case=True)
        if label is None and options:
            label = _opening_option(_sentence(t[end:]), options, valid)
        if label is not None:
            named.add(label)
    if len(named) == 1:
        return Parsed(named.pop(), "phrase")
    if len(named) > 1:
        return Parsed(None, "ambiguous")
    # 3. the reply is one option's text ("A+C" is that option, not "C" standing alone)
    if options:
        exact = _exact_option(t, options, valid)
        if exact is not None:
            whole = _whole_label(t.strip(_STRIP_START + _STRIP_END), valid)
            return exact if whole in (None, exact.value) else Parsed(None, "ambiguous")
    # 4. a label standing alone
    alone = _standalone(t, valid)
    if alone is not None:
        return alone
    # 5. the option's text inside the reply, or a clear fuzzy match
    if options:
        by_text = _by_option_text(t, options, valid)
        if by_text is not None:
            return by_text
    return Parsed(None, "invalid")


def _opening_option(text: str, options: Mapping[str, str], valid: Sequence[str]) -> str | None:
    """The option whose text the phrase's sentence is or opens with ("…is fibrinolysin, not penicillinase")."""
    head = _fold(text)
    found = {
        lab for lab, opt in options.items() if lab in valid and (f := _fold(opt)) and (head + " ").startswith(f + " ")
    }
    found = {lab for lab in found if not any(o != lab and _fold(options[lab]) in _fold(options[o]) for o in found)}
    return found.pop() if len(found) == 1 else None


def _sentence(text: str) -> str:
    """The text after a marker or phrase up to the end of its sentence or line, decoration stripped."""
    t = text[_DECOR.match(text, 0).end() :]
    m = regex.search(r"[\n。!?！？]|\.(?:\s|$)", t)
    return t[: m.start()] if m else t
