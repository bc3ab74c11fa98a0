"""The words a reply reader looks for, gathered from every language's file (``languages/``), compiled once.

A model may answer a Japanese question in English, or an Arabic one in French, so every language's words are read
in every reply; a word only counts where it stands as a whole word (scripts without spaces excepted).
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import ahocorasick
import regex

from xlingmed.languages import LANGUAGES
from xlingmed.parsing.text import INVISIBLE, WORD, lower, unspaced

# Words after A, E or I that leave it a label ("A is correct", "A and C", "A şıkkı"): after any other lower-case
# word it is an article, a pronoun or a conjunction ("A patient", "I think", "E poi", "A resposta").
FOLLOWERS: frozenset[str] = frozenset((
    "is", "was", "would", "seems", "appears", "remains", "fits", "best", "and", "or", "as", "because", "since",
    "which", "that", "correct", "right", "es", "era", "y", "o", "porque", "pues", "é", "e", "ou", "pois", "est",
    "et", "car", "ist", "und", "oder", "weil", "è", "perché", "ed", "ni", "ndio", "ndilo", "şıkkı", "şık",
    "seçeneği", "seçenek",
))  # fmt: skip
# Answer fields of the JSON schemas prompts ask for: schema keys are English whatever the reply's language.
JSON_ANSWER_KEYS: frozenset[str] = frozenset((
    "answer", "choice", "final_answer", "finalanswer", "answer_choice", "selected_option", "selected_answer",
    "selected_choice", "correct_answer", "correct_option", "correct_choice", "answer_letter", "prediction",
    "predicted_answer", "final_choice", "chosen_option",
))  # fmt: skip
# Articles between a phrase and its label: "la respuesta correcta es la C".
ARTICLES: tuple[str, ...] = ("la", "el", "the", "a", "o", "le", "die", "der", "das")


@dataclass(frozen=True)
class Literals:
    """Every language's reading words, each tuple longest first, and compiled patterns for the short ones."""

    phrases: tuple[str, ...]
    option_words: tuple[str, ...]
    option_words_by_first: dict[str, tuple[str, ...]]  # first character → those option words, longest first
    option_or_article_by_last: dict[str, tuple[str, ...]]  # last character → option words then articles
    option_word_any: regex.Pattern[str]  # any option word anywhere (to take it out of a span)
    ordinals: tuple[str, ...]  # "the third option", "第三个选项": an option named by its place
    ordinal_place: dict[str, int]  # each of ``ordinals`` → its place, from 1
    cues: tuple[str, ...]
    no_choice: tuple[str, ...]
    rationale: re.Pattern[str]  # a line that opens an explanation: "Rationale:", "###Explicación:", "**解説**："
    reference_heading: re.Pattern[str]  # a line that heads a reference list: "### References", "**参考文献**："
    term_words: frozenset[str]
    unspaced_term_words: tuple[str, ...]  # those of scripts without spaces: "B型" is a term wherever it stands
    term_suffixes: tuple[str, ...]
    unspaced_term_suffixes: tuple[str, ...]  # "型", "형": a term wherever they follow the letter
    spaced_term_suffix: regex.Pattern[str]  # " cells", "-type": a term after a space or hyphen, as a whole word
    label_chars: str  # a regex character class of every label letter a reply may use
    neg_before: regex.Pattern[str]  # matches at the end of a clause's text before a label
    neg_after: regex.Pattern[str]  # matches in the first words of a clause's text after a label
    negation: regex.Pattern[str]  # any negation word of any language, anywhere
    field_words: frozenset[str]  # "confidence", "pregunta": a line they head is no answer line
    unspaced_field_words: tuple[str, ...]  # those of scripts without spaces: "問題" wherever it stands
    affirmed: regex.Pattern[str]  # the whole rest of an answer line that only affirms its label: " is correct."
    copula_end: regex.Pattern[str]  # a sentence's text that ends in a copula, then at most an option word: "… is"
    reported: regex.Pattern[str]  # "claims", "if", "如果": an answer phrase after one in its clause is not the reply's
    doubt: regex.Pattern[str]  # "wait", "I'm not sure": an answer followed by one, and no option, was never final


def _nfkc(words: Iterable[str]) -> tuple[str, ...]:
    # as replies are (``text.normalise``): no zero-width joiners, so Persian "نمی‌توانم" matches "نمی‌توانم"
    out = {unicodedata.normalize("NFKC", w).translate(INVISIBLE).lower().strip() for w in words}
    return tuple(sorted((w for w in out if w), key=lambda w: (-len(w), w)))


def _by(words: Iterable[str], k: int) -> dict[str, tuple[str, ...]]:
    """``words`` grouped by their ``k``-th character, each group in the order given: a reader tries only the words
    that can match where it stands."""
    out: dict[str, list[str]] = {}
    for w in words:
        out.setdefault(w[k], []).append(w)
    return {c: tuple(ws) for c, ws in out.items()}


def _alternation(words: Iterable[str]) -> str:
    return "|".join(regex.escape(w) for w in words)


def _words_anywhere(words: tuple[str, ...]) -> regex.Pattern[str]:
    """Any of ``words``: a whole word, or anywhere for a word of a script without spaces."""
    spaced = [w for w in words if not unspaced(w[:1])]
    glued = [w for w in words if unspaced(w[:1])]
    return regex.compile(
        rf"(?<!{WORD})(?:{_alternation(spaced) or '(?!)'})(?!{WORD})|{_alternation(glued) or '(?!)'}"
    )


@lru_cache(maxsize=1)
def literals() -> Literals:
    """The reading words of every registered language (``languages.base.Language``), compiled."""
    langs = list(LANGUAGES.values())
    said = [p for lang in langs for p in lang.answer_phrases] + [f"{lang.answer_label}:" for lang in langs]
    # a JSON or dict key: {"answer": "C"}, {'respuesta': 2}, {"choice": "B"} (a key only: "the best choice:" is prose)
    keys = [f"{q}{k}{q}:" for k in JSON_ANSWER_KEYS for q in "'\""]
    phrases = _nfkc(said + keys + [f"{p[:-1]}{q}:" for p in said if p.endswith(":") for q in "'\""])
    letters = "".join(sorted({x for lang in langs for c in lang.reply_letters for x in (c, c.upper())}))
    before = _nfkc(w for lang in langs for w in lang.negations_before)
    after = _nfkc(w for lang in langs for w in lang.negations_after)
    spaced_b = [w for w in before if not unspaced(w)]
    unspaced_b = [w for w in before if unspaced(w)]
    spaced_a = [w for w in after if not unspaced(w)]
    unspaced_a = [w for w in after if unspaced(w)]
    # before a label: the negation, at most one word ("not choose C", "no es la C"), then nothing but decoration
    gap = r"""[\s"'“”‘’«»(\[*:]*"""
    neg_before = regex.compile(
        rf"(?:(?<!{WORD})(?:{_alternation(spaced_b)})(?:\s+{WORD}+)?|(?:{_alternation(unspaced_b)})){gap}$"
    )
    # after a label: a negation among the first four words ("C is not", "C is clearly incorrect", "Cではない")
    neg_after = regex.compile(
        rf"^(?:\s*{WORD}+){{0,3}}?\s*(?<!{WORD})(?:{_alternation(spaced_a)})(?!{WORD})"
        rf"|^.{{0,12}}?(?:{_alternation(unspaced_a)})",
        regex.S,
    )
    suffixes = _nfkc(w for lang in langs for w in lang.term_suffixes)
    headings = _nfkc(h for lang in langs for h in lang.rationale_headings)
    # re, not regex: this pattern runs on every reply, and re finds line starts several times faster
    rationale = re.compile(rf"(?m)^[\s#*_]*(?:{_alternation(headings)})[\s*_]*[:：]")
    cited = _nfkc(h for lang in langs for h in lang.reference_headings)
    option_words = _nfkc(w for lang in langs for w in lang.option_words)
    places = {_nfkc([w])[0]: k for lang in langs for k, words in enumerate(lang.option_ordinals, 1) for w in words}
    # the standard library's engine: it scans this many-word, line-anchored pattern about four times faster
    reference_heading = re.compile(rf"(?m)^[\s#*_]*(?:{'|'.join(map(re.escape, cited))})[\s*_]*[:：]?[\s*_]*$")
    fields = _nfkc(w for lang in langs for w in lang.field_words)
    affirmations = _nfkc(w for lang in langs for w in lang.affirmations)
    return Literals(
        field_words=frozenset(fields),
        unspaced_field_words=tuple(w for w in fields if unspaced(w[:1])),
        copula_end=regex.compile(
            rf"(?<!{WORD})(?:{_alternation(_nfkc(c for lang in langs for c in lang.copulas)) or '(?!)'})"
            rf"(?:\s+(?:{_alternation(ARTICLES)}))?(?:\s+(?:{_alternation(option_words)}))?[\s*_(\[]*$"
        ),
        affirmed=regex.compile(rf"[\s*_.)\]]*(?:{_alternation(affirmations) or '(?!)'})[\s*_.!。]*"),
        phrases=phrases,
        rationale=rationale,
        reference_heading=reference_heading,
        option_words=option_words,
        option_words_by_first=_by(option_words, 0),
        option_or_article_by_last=_by((*option_words, *ARTICLES), -1),
        option_word_any=regex.compile(_alternation(option_words)),
        ordinals=_nfkc(places),
        ordinal_place=places,
        cues=_nfkc(c for lang in langs for c in lang.conclusion_cues),
        reported=_words_anywhere(_nfkc(w for lang in langs for w in lang.reported_words)),
        doubt=_words_anywhere(_nfkc(w for lang in langs for w in lang.doubt_words)),
        no_choice=_nfkc(
            p for lang in langs for p in (*lang.no_choice_phrases, *lang.none_phrases, *lang.refusal_phrases)
        ),
        term_words=frozenset(_nfkc(w for lang in langs for w in lang.term_words)),
        unspaced_term_words=tuple(w for w in _nfkc(w for lang in langs for w in lang.term_words) if unspaced(w)),
        term_suffixes=suffixes,
        unspaced_term_suffixes=tuple(w for w in suffixes if unspaced(w)),
        spaced_term_suffix=regex.compile(
            rf"[\s\-](?:{_alternation(w for w in suffixes if not unspaced(w)) or '(?!)'})(?!{WORD})"
        ),
        label_chars=f"[A-Ja-jأاإآبجدهةو{regex.escape(letters)}]",
        neg_before=neg_before,
        neg_after=neg_after,
        negation=regex.compile(
            rf"(?<!{WORD})(?:{_alternation(spaced_b + spaced_a)})(?!{WORD})|{_alternation(unspaced_b + unspaced_a)}"
        ),
    )


def ordinals_as_options(t: str) -> str:
    """``t`` (normalised) with every option named by its place written as "option N": "the third option" →
    "the option 3", "第三个选项" → "option 3", so that the rules read it as they read "option 3"."""
    lit = literals()
    spans = find_words(lower(t), lit.ordinals)
    if not spans:
        return t
    out: list[str] = []
    last = 0
    for start, end in spans:
        out += [t[last:start], f" option {lit.ordinal_place[lower(t[start:end])]} "]
        last = end
    return "".join(out) + t[last:]


_GLUING = regex.compile(r"[\p{Arabic}\p{Hebrew}]")


@lru_cache(maxsize=4096)
def _glued(c: str) -> bool:
    """A script without spaces, or one that glues prefixes onto words (Arabic, Hebrew)."""
    return unspaced(c) or _GLUING.match(c) is not None


_AUTOMATA: dict[int, tuple[tuple[str, ...], Any]] = {}


def _automaton(words: tuple[str, ...]) -> Any:
    """One Aho–Corasick automaton of ``words`` (``pyahocorasick``), built on first use: every occurrence of every
    word in one pass over a reply, instead of one scan a word."""
    cached = _AUTOMATA.get(id(words))
    if cached is not None and cached[0] is words:
        return cached[1]
    auto = ahocorasick.Automaton()
    for rank, w in enumerate(words):
        if w:
            # what ``find_words`` checks at each occurrence: a word character before it (unless the word's script
            # glues or has no spaces), after it (unless it ends in such a script or in punctuation)
            edges = (not _glued(w[0]), not unspaced(w[-1]) and _WORD.match(w[-1]) is not None)
            auto.add_word(w, (rank, len(w), edges))
    auto.make_automaton()
    if len(_AUTOMATA) >= 64:  # a caller's throwaway tuples must not pile up
        _AUTOMATA.pop(next(iter(_AUTOMATA)))
    _AUTOMATA[id(words)] = (words, auto)  # the tuple is kept, so its id is not reused while cached
    return auto


def find_words(low: str, words: Iterable[str]) -> list[tuple[int, int]]:
    """Non-overlapping (start, end) of ``words`` in ``low`` (already lower-cased), longest first, each a whole
    word (a word of a script without spaces may sit anywhere).

    ``words`` is best a tuple kept for good (``Literals``' are): its automaton is built once. Occurrences are taken
    word by word in the order of ``words`` (longest first), each at its positions left to right, unless it
    overlaps one taken before."""
    words = words if isinstance(words, tuple) else tuple(words)
    if not low or not words:
        return []
    found = [(rank, end + 1 - size, size, edges) for end, (rank, size, edges) in _automaton(words).iter(low)]
    if not found:
        return []
    found.sort()
    n = len(low)
    spans: list[tuple[int, int]] = []  # kept sorted: an overlap is with a neighbour of the insertion point
    for _, k, size, (check_before, check_after) in found:
        end = k + size
        if check_before and k > 0 and _spaced_word_char(low[k - 1]):
            continue  # "reanswer:" is not "answer:" (Arabic and Hebrew glue "and", "so" onto a word: ولذلك); after
            # Han or kana a word needs no space ("正解は3番目の選択肢")
        if check_after and end < n and _word_char(low[end]):
            continue  # "therefore" is not in "thereforee"; "option" is not in "optional"
        at = bisect.bisect_left(spans, (k, end))
        if (at and spans[at - 1][1] > k) or (at < len(spans) and spans[at][0] < end):
            continue
        spans.insert(at, (k, end))
    return spans


@lru_cache(maxsize=8192)
def _word_char(c: str) -> bool:
    return _WORD.match(c) is not None


@lru_cache(maxsize=8192)
def _spaced_word_char(c: str) -> bool:
    """A character of a word, in a script with spaces (after Han or kana a listed word needs none)."""
    return _WORD.match(c) is not None and not unspaced(c)

_WORD = regex.compile(WORD)
