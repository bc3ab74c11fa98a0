"""Reading an LLM rater's reply as its rating (``xlingmed audit``, MedArabiQ App. L): the value and how it was read,
never a plausible number for a reply that gives none."""

from __future__ import annotations

import re
import unicodedata

from xlingmed.languages import LANGUAGES
from xlingmed.types import Parsed, declare_parse_methods

# The parse methods this module returns, and their kinds (parsing.methods): declared here, where they are made.
declare_parse_methods({
    "fraction": "read", "labelled": "read", "only_number": "read", "leading": "read", "yes_no": "read",
    "labelled_yes_no": "read", "out_of_scale": "unread",
})

_DIGITS = str.maketrans("٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹०१२३४५६७८९", "0123456789" * 3)
# a rating named as such, or by the metric's name, in the languages xlingmed ships
_LABEL = (
    r"(?:rating|score|rated|grade|accuracy|relevance|factuality|consistency|parameter alignment|coherence|"
    r"specificity|التقييم|الدرجة|التقدير|الدقة|الصلة|الواقعية|الاتساق|التماسك|الخصوصية|评分|得分|评级|准确性|相关性|"
    r"रेटिंग|स्कोर|अंक|puntuaci[oó]n|calificaci[oó]n|valoraci[oó]n|precisi[oó]n|relevancia|coherencia)"
)
_LABELLED = re.compile(
    _LABEL + r"\W{0,4}\s*(?:is|of|=|:|：|-|es|هو|هي|是|है)?\W{0,4}\s*([0-9](?:\.[0-9]+)?)", re.IGNORECASE
)
_FRACTION = re.compile(r"(?<![0-9.])([0-9](?:\.[0-9]+)?)\s*(?:/|out of|من|de)\s*([0-9])(?![0-9])", re.IGNORECASE)
_LEADING = re.compile(r"^\W*([0-9])(?![0-9.,/])")
_NUMBER = re.compile(r"(?<![0-9.])([0-9])(?![0-9.])")
# yes and no in every language xlingmed knows (``languages/``), longest first so that "是的" is not read as "是"
_YES_WORDS = frozenset(w.casefold() for lang in LANGUAGES.values() for w in lang.yes_words)
_NO_WORDS = frozenset(w.casefold() for lang in LANGUAGES.values() for w in lang.no_words)
_YES_NO = "|".join(re.escape(w) for w in sorted(_YES_WORDS | _NO_WORDS, key=lambda w: (-len(w), w)))
# a leading yes/no only as a word of its own ("No." / "No, …"), so that "No issues: …" is not read as a 0
_LEADING_YES_NO = re.compile(rf"^\W*({_YES_NO})\s*(?:[.,;:!،。，।-]|$)", re.IGNORECASE)
_LABELLED_YN = re.compile(rf"{_LABEL}\W{{0,4}}\s*(?:is|=|:|：|-)?\W{{0,4}}\s*({_YES_NO})(?!\w)", re.IGNORECASE)


def parse_rating(reply: str, scale: str) -> Parsed:
    """A rater's reply as its rating: ``Parsed(value, method)``; ``value`` is ``None`` when unread.

    Methods, tried in order: ``labelled`` ("Rating: 4", "**Accuracy:** 4", "التقييم: ٤"), ``labelled_yes_no``
    (binary only: "Coherence: Yes"), ``fraction`` ("4/5", "4 out of 5"; the denominator must be the scale's),
    ``leading`` (the reply starts with the number), ``yes_no`` (binary only: a leading yes or no in any language
    of ``languages/``), ``only_number`` (the one number of the scale in the reply); ``out_of_scale`` (a labelled
    number outside the scale), ``ambiguous`` (several candidates disagree), ``unparsed``. Arabic-Indic, Persian
    and Devanagari digits are read as digits.

    Args:
        reply: the rater's text.
        scale: ``likert`` (1–5) or ``binary`` (0/1).
    """
    allowed = {1, 2, 3, 4, 5} if scale == "likert" else {0, 1}
    top = 5 if scale == "likert" else 1
    text = unicodedata.normalize("NFKC", reply).translate(_DIGITS).strip()

    def ok(value: str) -> int | None:
        v = float(value)
        return int(v) if v.is_integer() and int(v) in allowed else None

    labelled = [m.group(1) for m in _LABELLED.finditer(text)]
    if labelled:
        values = {ok(v) for v in labelled}
        if None in values:
            return Parsed(None, "out_of_scale")
        if len(values) == 1:
            return Parsed(values.pop(), "labelled")
        return Parsed(None, "ambiguous")
    fractions = [(m.group(1), m.group(2)) for m in _FRACTION.finditer(text) if int(m.group(2)) == top]
    if fractions:
        values = {ok(v) for v, _ in fractions}
        if len(values) == 1 and None not in values:
            return Parsed(values.pop(), "fraction")
        return Parsed(None, "ambiguous")
    if scale == "binary":
        words = {m.group(1).casefold() for m in _LABELLED_YN.finditer(text)}
        verdicts = {w in _YES_WORDS for w in words}
        if len(verdicts) == 1:
            return Parsed(int(verdicts.pop()), "labelled_yes_no")
        if len(verdicts) > 1:
            return Parsed(None, "ambiguous")
    lead = _LEADING.match(text)
    if lead and ok(lead.group(1)) is not None:
        return Parsed(ok(lead.group(1)), "leading")
    if scale == "binary" and (said := _LEADING_YES_NO.match(text)):
        return Parsed(int(said.group(1).casefold() in _YES_WORDS), "yes_no")
    numbers = {ok(n) for n in _NUMBER.findall(text)} - {None}
    if len(numbers) == 1:
        return Parsed(numbers.pop(), "only_number")
    if len(numbers) > 1:
        return Parsed(None, "ambiguous")
    return Parsed(None, "unparsed")


def justification(reply: str) -> str:
    """The rater's reasoning: the reply without its rating line, first sentence, at most 300 characters."""
    lines = [ln.strip() for ln in reply.strip().splitlines() if ln.strip()]
    rest = [ln for ln in lines if not _LABELLED.search(ln.translate(_DIGITS)) and not re.fullmatch(r"\W*\d\W*", ln)]
    text = " ".join(rest) or " ".join(lines)
    text = re.sub(r"^\W*(?:justification|reasoning|explanation|reason)\s*[:：]\s*", "", text, flags=re.IGNORECASE)
    sentence = re.split(r"(?<=[.!?؟।。])\s", text, maxsplit=1)[0]
    return sentence[:300]
