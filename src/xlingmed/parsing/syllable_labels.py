"""Options labelled with a script's syllables or with Roman numerals: 가 나 다 라 마 (Korean exams), ア イ ウ エ オ
(Japanese ones), I II III IV V. These are also ordinary syllables and a pronoun ("다른", "アスピリン", "I think"), so
they are labels only where the prompt showed them and only where one stands alone; there the reply is rewritten
with the canonical Latin letter ("정답은 다입니다" → "정답은 C입니다"), and the rules read it as they read any letter.

Standing alone: a Roman numeral between non-letters; a katakana label with no katakana on either side; a Hangul
label with no Hangul before it and, after it, nothing of Hangul or only a copula or "번" ("다입니다", "다이다", "3번").
A particle that could make a word of it ("나는", I) leaves it unread: never a guess.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import regex

from xlingmed.languages.base import CANONICAL_LETTERS, HANGUL, KATAKANA

ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")
_COPULA = r"(?:입니다|이다|이며|이고|이라|임|번)"


def scheme_of(labels: Sequence[str] | None) -> str | None:
    """``roman``, ``katakana`` or ``hangul`` where ``labels`` are those, in order from the first; else ``None``."""
    shown = [str(x).strip().rstrip(".)") for x in labels or ()]
    for name, alphabet in (("roman", ROMAN), ("katakana", KATAKANA), ("hangul", HANGUL)):
        if shown and shown == list(alphabet[: len(shown)]):
            return name
    return None


@lru_cache(maxsize=32)
def _pattern(scheme: str, n: int) -> regex.Pattern[str]:
    if scheme == "roman":
        alts = "|".join(sorted(ROMAN[:n], key=len, reverse=True))
        return regex.compile(rf"(?<![\p{{L}}\p{{N}}])({alts})(?![\p{{L}}\p{{N}}])")
    if scheme == "katakana":
        return regex.compile(rf"(?<![\p{{Katakana}}ー・])([{''.join(KATAKANA[:n])}])(?![\p{{Katakana}}ー])")
    return regex.compile(rf"(?<!\p{{Hangul}})([{''.join(HANGUL[:n])}])(?=$|{_COPULA}|[^\p{{Hangul}}])")


def as_letters(text: str, labels: Sequence[str]) -> str:
    """``text`` with every label of ``labels`` (Roman numerals, katakana or Hangul syllables, as ``scheme_of``
    finds them) that stands alone written as its canonical Latin letter (the first label → ``A``); ``text``
    itself for any other labels."""
    scheme = scheme_of(labels)
    if scheme is None:
        return text
    alphabet = {"roman": ROMAN, "katakana": KATAKANA, "hangul": HANGUL}[scheme]
    letter = {label: CANONICAL_LETTERS[k] for k, label in enumerate(alphabet[: len(labels)])}
    rewritten: str = _pattern(scheme, len(labels)).sub(lambda m: letter[m.group(1)], text)
    return rewritten
