"""Text helpers every reply reader shares: normalisation that keeps positions, case folding, option-text folding.

Every rule of ``parsing.choice`` works on one normalised copy of the reply (``normalise``), so the positions that
one rule finds (a phrase, a sentence, a label) are positions for every other rule.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import regex

INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u200e\u200f\u061c\u2066\u2067\u2068\u2069\u202a\u202b"
                                    "\u202c\u202d\u202e\ufeff"))  # fmt: skip
_HARAKAT = regex.compile(r"[\u064b-\u065f\u0670]")
WORD = r"[\p{L}\p{M}\p{N}_]"
# Scripts written without spaces between words: a label may be glued to the word after it ("Cです", "B입니다").
UNSPACED = r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}\p{Thai}]"


# Circled numbers label options in Korean and Japanese exams: "정답은 ③" is option 3 wherever it stands.
# circled numbers, and their dingbat and negative forms ("➄", "❷", "⓵"), which NFKC leaves as they are
_CIRCLED = {ord(c): f" option {i} " for forms in ("①②③④⑤⑥⑦⑧⑨⑩", "➀➁➂➃➄➅➆➇➈➉", "❶❷❸❹❺❻❼❽❾❿", "➊➋➌➍➎➏➐➑➒➓",
                                                 "⓵⓶⓷⓸⓹⓺⓻⓼⓽⓾") for i, c in enumerate(forms, 1)}  # fmt: skip


def normalise(text: str, circled: bool = True) -> str:
    """NFKC (full-width letters, Arabic presentation forms, ``：``), circled numbers as "option N" (``③``; with
    ``circled=False``, as NFKC writes them: "3", where the options are lettered and ①②③ number the question's
    statements, "A．①③"), no invisible marks or harakat, ``هـ`` → ``ه``, no tatweel."""
    if circled and _CIRCLED_RE.search(text):  # translate costs a lookup a character: only where there is work
        text = text.translate(_CIRCLED)
    t = unicodedata.normalize("NFKC", text)
    if INVISIBLE_RE.search(t):
        t = t.translate(INVISIBLE)
    return str(_HARAKAT.sub("", t).replace("هـ", "ه").replace("\u0640", ""))


_CIRCLED_RE = re.compile("[①-⑩➀-➓❶-❿⓵-⓾]")  # re: a character class is found faster than by regex
# a label in angle brackets, as some exam prompts ask ("答：<E>", "< A >", "<{D}>"; NFKC has made "＜" a "<")
_ANGLED = regex.compile(r"<\s*\{?\s*([A-Za-z])\s*\}?\s*>")


# LaTeX a reply wraps its answer in: "$\\boxed{\\text{d}}$", "\\( \\text{C} \\)", "\\boxed{c}"
_LATEX_TEXT = regex.compile(r"\\(?:text|textbf|mathrm|mathbf|textit)\s*\{([^{}\n]{0,80})\}")
_LATEX_BOXED = regex.compile(r"\\boxed\s*\{([^{}\n]{0,80})\}")
_LATEX_DELIMITERS = regex.compile(r"\\[()\[\]]|\$+")


def latex_answers(t: str) -> str:
    """``t`` with the LaTeX around a stated answer taken off: ``\\text{d}`` → ``d``, ``\\boxed{c}`` → ``**c**``
    (a boxed answer is the reply's stated one, as bold is), ``\\(``, ``\\)``, ``$`` → spaces."""
    if "\\" not in t and "$" not in t:
        return t
    t = _LATEX_TEXT.sub(r"\1", t)
    t = _LATEX_BOXED.sub(r"**\1**", t)
    return str(_LATEX_DELIMITERS.sub(" ", t))


def angle_labels(t: str) -> str:
    """``t`` (normalised) with every label in angle brackets written in parentheses ("<E>" → "(E)"), unless the
    reply closes such a bracket as HTML does ("<b>C</b>": a bold tag, not option B); an answer tag the prompt
    asked for ("<answer>C</answer>", DeepSeek-R1's format; "<final_answer>") written as an answer line
    ("\nAnswer: C\n")."""
    if "<" not in t:
        return t
    if "</" in t:
        return str(_ANSWER_TAG.sub(lambda m: f"\nAnswer: {m.group(2).strip()}\n", t))
    return str(_ANGLED.sub(r"(\1)", t))


_ANSWER_TAG = regex.compile(r"<(answer|final_answer|final answer|choice|ans)>([^<]{0,200})</\1>", regex.I)
INVISIBLE_RE = re.compile("[" + "".join(map(chr, INVISIBLE)) + "]")


class _LowerTable(dict[int, str]):
    """``str.translate`` table: each character's lower case where it is one character long, else itself (filled
    on first sight)."""

    def __missing__(self, code: int) -> str:
        c = chr(code)
        low = c.lower()
        self[code] = out = low if len(low) == 1 else c
        return out


_LOWER = _LowerTable()


def unmath(text: str) -> str:
    """``text`` without TeX's math delimiters and spaces: "$-1 + i$" and "-1+i" are one value."""
    return text.replace("$", "").replace(" ", "").strip()


def lower(text: str) -> str:
    """Lower case that keeps every position (``str.lower`` lengthens a few characters, such as "İ"): ``str.lower``
    where it kept the length (then every character lowered to one), else character by character."""
    last = _LAST[0]
    if last[0] is text:
        return last[1]  # the reply lowered a moment ago (its ordinals looked for, then its reader made)
    low = text.lower()
    if len(low) != len(text):
        low = text.translate(_LOWER)
    # a typographic apostrophe as the listed words write it: "I’d choose", "l’option" (one character for one)
    low = low.translate(_APOSTROPHES) if "’" in low or "ʼ" in low else low
    if len(text) > 200:
        _LAST[0] = (text, low)  # one slot, swapped whole: a thread reads a pair that belongs together
    return low


_LAST: list[tuple[str, str]] = [("", "")]


_APOSTROPHES = str.maketrans("’ʼ", "''")


_UNSPACED = regex.compile(UNSPACED)


@lru_cache(maxsize=8192)  # asked of the same words and characters again and again
def unspaced(s: str) -> bool:
    """Han, kana, Hangul or Thai: scripts whose words are not cut off from a label by a space."""
    return _UNSPACED.search(s) is not None


def first_folded(text: str) -> str:
    """The first character of ``FoldedText(text).text`` ("" for none), folding only as far as it takes."""
    for c in text:
        folded = c.translate(_FOLD).lstrip(" ")
        if folded:
            return folded[0]
    return ""


def fold(text: str) -> str:
    """Text for comparing a reply with option texts: case, diacritics, alef/hamza forms, punctuation folded."""
    return FoldedText(normalise(text)).text.strip()


def _fold_char(c: str) -> str:
    c = c.casefold().translate(_ALEF)
    out = []
    for d in unicodedata.normalize("NFKD", c):
        if unicodedata.combining(d) and not "\u0900" <= d <= "\u097f":
            continue
        out.append(" " if unicodedata.category(d)[0] in "PSZC" else d)
    return "".join(out)


# Persian yeh, keheh and heh-with-yeh as their Arabic forms: a Persian option may be copied in either spelling
_ALEF = str.maketrans("أإآٱىةیکۀ", "اااايهيكه")


class _FoldTable(dict[int, str]):
    """``str.translate`` table of ``_fold_char``, filled on first sight; ``irregular`` holds the characters that
    do not fold to exactly one character ("ß" → "ss", a combining mark → "")."""

    def __init__(self) -> None:
        super().__init__()
        self.irregular: set[str] = set()

    def __missing__(self, code: int) -> str:
        c = chr(code)
        self[code] = out = _fold_char(c)
        if len(out) != 1:
            self.irregular.add(c)
        return out


_FOLD = _FoldTable()
_SPACES = regex.compile(r" {2,}")
_DROPPED_SPACE = regex.compile(r"(?:^|(?<= )) ")


class FoldedText:
    """``text`` folded (``fold``) with whitespace runs collapsed, and where each folded character came from:
    ``origin[i]`` is the position in the unfolded text of folded character ``i``."""

    __slots__ = ("_folded", "_origin", "_source", "text")
    text: str

    def __init__(self, source: str) -> None:
        folded = source.translate(_FOLD)
        text = _SPACES.sub(" ", folded)
        self.text = text[1:] if text.startswith(" ") else text
        self._folded = folded
        self._source = source
        self._origin: list[int] | None = None  # worked out when first asked: most folded texts are only searched

    @property
    def origin(self) -> list[int]:
        if self._origin is None:
            self._origin = _origin(self._source, self._folded)
        return self._origin

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The unfolded span of folded characters ``[start, end)``."""
        return self.origin[start], self.origin[end - 1] + 1


def _origin(source: str, folded: str) -> list[int]:
    """Each character of ``FoldedText``'s text's position in ``source`` (``folded`` is ``source`` translated)."""
    if _FOLD.irregular.isdisjoint(source):
        where: list[int] | range = range(len(folded))  # one folded character per source character
    else:  # "ß" → "ss", a combining mark → "": each folded character's source position, one by one
        pieces = list(map(_FOLD.__getitem__, map(ord, source)))
        where = [i for i, piece in enumerate(pieces) for _ in piece]
    # keep all but a space at the start or after a space (found by a pattern: a reply has few)
    dropped = [m.start() for m in _DROPPED_SPACE.finditer(folded)]
    if not dropped:
        return list(where)
    origin: list[int] = []
    last = 0
    for k in dropped:
        origin += where[last:k]
        last = k + 1
    return origin + list(where[last:])
