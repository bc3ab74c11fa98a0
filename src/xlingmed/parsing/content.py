"""Answers given by an option's content: "the most appropriate step is **to take a lip biopsy to rule out an
invasive carcinoma**" names option C ("Take a biopsy of the lip to rule out invasive squamous cell carcinoma…") by
what it says, not by its label.

``by_content`` compares a stated answer (the rest of an answer phrase's sentence, a conclusion, a bold span) with
every option's text, word by word (``rapidfuzz``'s ``token_set_ratio`` on folded text: case, accents and
punctuation aside, word order and extra words forgiven), and names an option only where it matches far better than
any other: a similarity of at least ``MIN_SCORE`` and ``MARGIN`` points ahead of the second. Below that the reply is
not read by its content: a guess between two similar options is no reading.
"""

from __future__ import annotations

from collections.abc import Mapping

import regex
from rapidfuzz import fuzz

from xlingmed.parsing.text import WORD, FoldedText, unspaced

MIN_SCORE = 75.0  # token_set_ratio, 0-100
MARGIN = 20.0  # points ahead of the second-best option
MIN_WORDS = 2  # a stated answer of fewer words (or, in scripts without spaces, characters / 2) is too short
_BOLD = regex.compile(r"\*\*(.+?)\*\*|__(.+?)__", regex.S)
_WORDS = regex.compile(rf"{WORD}+")


def _enough(folded: str) -> bool:
    """Two words of three letters or more, or (a script without spaces) four characters: "c c" or "yes" tells
    nothing about an option's content."""
    words = [w for w in _WORDS.findall(folded) if len(w) >= 3 or unspaced(w)]
    return len(words) >= MIN_WORDS or sum(len(w) for w in words if unspaced(w)) >= 4


def by_content(stated: str, options: Mapping[str, str]) -> str | None:
    """The label of the one option whose (folded) text ``stated`` gives, or ``None``.

    Args:
        stated: the answer as the reply states it (any language, markdown allowed).
        options: canonical label → option text, folded (``FoldedText(text).text``); empty texts are skipped.

    Returns:
        The label whose text scores at least ``MIN_SCORE`` and ``MARGIN`` points more than any other; ``None``
        for fewer than two options with text, a stated answer too short to tell, or no clear winner.
    """
    folded = FoldedText(stated).text.strip()
    texts = {label: text for label, text in options.items() if text}
    if len(texts) < 2 or not _enough(folded):
        return None
    scores = sorted(((_score(folded, text), label) for label, text in texts.items()), reverse=True)
    (best, label), (second, _) = scores[0], scores[1]
    return label if best >= MIN_SCORE and best - second >= MARGIN else None


def _score(stated: str, option: str) -> float:
    """Word by word (``token_set_ratio``); for an option in a script without spaces (Chinese, Japanese, Korean,
    whose spacing varies: "급성 심근경색증" for "급성심근경색증"), the best alignment of the option's characters
    within the stated answer, spaces aside (``partial_ratio``)."""
    if unspaced(option):
        return float(fuzz.partial_ratio(option.replace(" ", ""), stated.replace(" ", "")))
    return float(fuzz.token_set_ratio(stated, option))


def stated_spans(span: str) -> list[str]:
    """What in ``span`` (a sentence that states an answer) to compare with the options: its bold spans ("… es
    **realizar una biopsia …**") where it has any, since the reply marked its answer there (the rest of the
    sentence then explains it: "**acanthocytosis** (spur cell anemia …)" names no anemia option); else the whole
    span."""
    bold = [next(g for g in m.groups() if g) for m in _BOLD.finditer(span)]
    return bold or [span]
