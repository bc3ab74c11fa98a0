"""Reading a yes/no reply: whether a model says an answer is factually correct (XLingEval verifiability, paper §5;
spec Appendix C), with each reading's method; and P(yes) from the first token's log-probabilities, the AUC's score.

``parse_paper`` is the authors' GPT parser (its phrase sets verbatim, typo included), ``parse_medalpaca`` their
MedAlpaca parser, ``parse_strict`` the first word in any language the project knows (``languages/``).
"""

from __future__ import annotations

import math
import re
import string
from collections.abc import Sequence

from xlingmed.languages import LANGUAGES
from xlingmed.types import Parsed, TokenLogprob, declare_parse_methods

# The parse methods this module returns, and their kinds (parsing.methods): declared here, where they are made.
declare_parse_methods({
    "paper_yes_phrase": "read", "paper_no_phrase": "read", "paper_unknown_phrase": "unread",
    # the paper's rule reads a No phrase found only inside another word ("i am not sure", "unknown") as No: it
    # keeps that value, as the paper does, and counts it as a fallback so the parse warning says how many
    "paper_no_substring": "fallback",
    "strict_first_word": "read", "medalpaca_yes": "read", "medalpaca_no": "read", "medalpaca_both": "unread",
    "medalpaca_unknown": "unread",
})

# Spec Appendix C: the GPT parser's phrase sets at the authors' HEAD, typo "YesEntailment" included.
PAPER_YES = (
    "YesEntailment",
    "Sí",
    "Yes",
    "जी हाँ",
    "निश्चित रूप से हाँ।",
    "हाँ",
    "可能性很大",
    "可能是正确的",
    "对",
    "是的",
    "正确",
)
PAPER_NO = (
    "No",
    "Not entailment",
    "I'm sorry, but i am unable to understand",
    "I'm sorry, but the response you provided is not related to the question",
    "I'm sorry, but your response does not seem to be related to the question asked",
    "नहीं",
    "नो",
    "माफ़ कीजिए, लेकिन यह प्रतिक्रिया दिए गए प्रश्न से मेल नहीं खाती है",
    "यह उत्तर दिया गया प्रश्न संबंधित नहीं है। कृपया सही प्रश्न पूछें",
    "यह उत्तर दिया गया प्रश्न से मेल नहीं खाता है",
    "यह उत्तर नहीं है",
    "यह उत्तर प्रश्न के साथ संबंधित नहीं है। कृपया पुनः प्रश्न देखें",
    "不是",
    "不正确",
    "以上都不",
    "错误",
)
PAPER_UNKNOWN = ("Unknown", "Depends", "N/a", "कारण पता नहीं है", "不确定", "无法判断")
_STRIP = string.punctuation + "，。？！।॥"
PARSERS = ("paper", "strict", "medalpaca")
# Spec §5.6 (MedAlpaca's parser, as the authors intended): case-sensitive substrings
MEDALPACA_YES = ("Yes", "Entailment")
MEDALPACA_NO = ("No", "Not entailment")
MEDALPACA_UNKNOWN = ("Unknown", "Depends", "N/a")


def clean_reply(text: str) -> str:
    """Spec §5.3 step 1–2: strip punctuation (ASCII and ，。？！।॥) at both ends, then ``str.capitalize``."""
    return text.strip(_STRIP).capitalize()


def parse_paper(text: str) -> Parsed:
    """The authors' parser (spec §5.3): 1 = yes, 0 = no, −1 = unknown/unparsed.

    No-phrase present and "yes" absent → 0; else Yes-phrase present and "no" absent → 1; else −1. Substring
    tests on the lower-cased cleaned reply, so "Unknown" → 0 (it contains "no") and "Entailment" → −1. A No read
    only from inside another word ("i am not sure", "unknown": no No phrase stands as words) keeps the paper's 0
    with method ``paper_no_substring``, a fallback: the parse counts say how many non-answers became No.
    """
    x = clean_reply(text).lower()
    if any(p.lower() in x for p in PAPER_NO) and "yes" not in x:
        said = any(_as_words(p.lower(), x) for p in PAPER_NO)
        return Parsed(0, "paper_no_phrase" if said else "paper_no_substring")
    if any(p.lower() in x for p in PAPER_YES) and "no" not in x:
        return Parsed(1, "paper_yes_phrase")
    if any(p.lower() in x for p in PAPER_UNKNOWN):
        return Parsed(-1, "paper_unknown_phrase")
    return Parsed(-1, "unparsed")


def _as_words(phrase: str, text: str) -> bool:
    """``phrase`` in ``text`` not inside a longer Latin word (other scripts: as a substring, as the paper)."""
    if not phrase.isascii():
        return phrase in text
    return re.search(rf"(?<![a-z]){re.escape(phrase)}(?![a-z])", text) is not None


def parse_medalpaca(text: str) -> Parsed:
    """MedAlpaca's verifiability parser as its authors intended (spec §5.6; their wired-in copy raises NameError
    and maps "No" to 1): keep the text after the last ``### Input``, then after the last ``Question``, then after
    the last ``Response``; case-sensitive substrings Yes {Yes, Entailment} and No {No, Not entailment}: both → −1
    (``medalpaca_both``), one → 1 or 0; else −1, ``medalpaca_unknown`` when it starts with Unknown, Depends or
    N/a, ``unparsed`` otherwise."""
    x = text
    for marker in ("### Input", "Question", "Response"):
        x = x.rsplit(marker, 1)[-1]
    yes = any(p in x for p in MEDALPACA_YES)
    no = any(p in x for p in MEDALPACA_NO)
    if yes and no:
        return Parsed(-1, "medalpaca_both")
    if yes:
        return Parsed(1, "medalpaca_yes")
    if no:
        return Parsed(0, "medalpaca_no")
    if x.strip().startswith(MEDALPACA_UNKNOWN):
        return Parsed(-1, "medalpaca_unknown")
    return Parsed(-1, "unparsed")


def _words(lang: str, kind: str) -> list[str]:
    words = set(getattr(LANGUAGES["en"], kind))
    if lang in LANGUAGES:
        words |= set(getattr(LANGUAGES[lang], kind))
    return sorted(words, key=len, reverse=True)  # longest first: 不正确 before 不, नहीं before ना


def _starts_with_word(text: str, word: str) -> bool:
    if not text.startswith(word):
        return False
    if re.match(r"[\u4e00-\u9fff]", word):  # Chinese has no word boundary to check
        return True
    rest = text[len(word) :]
    return not rest or not (rest[0].isalnum() or rest[0] == "_")


def parse_strict(text: str, lang: str) -> Parsed:
    """The reply's first word must be a yes/no word of English or of ``lang`` (``languages.py``)."""
    x = text.strip().lstrip(_STRIP + " *_`\"'\n\t").lower()
    candidates = [(w, 1) for w in _words(lang, "yes_words")] + [(w, 0) for w in _words(lang, "no_words")]
    for word, val in sorted(candidates, key=lambda wv: len(wv[0]), reverse=True):
        if _starts_with_word(x, word):
            return Parsed(val, "strict_first_word")
    return Parsed(-1, "unparsed")


def p_yes(logprobs: Sequence[TokenLogprob] | None, lang: str) -> float | None:
    """P(yes) / (P(yes) + P(no)) at the first generated token that is not whitespace or markup.

    Sums the probabilities of the alternatives at that position that are a yes word or a no word (English or
    ``lang``). ``None`` when no logprobs came back or no alternative is a yes/no word.
    """
    if not logprobs:
        return None
    yes = {w.lower() for w in _words(lang, "yes_words")}
    no = {w.lower() for w in _words(lang, "no_words")}
    for tok in logprobs:
        if not tok.token.strip(" \n\t*_`\"'#:>-"):
            continue
        alts = dict(tok.top)
        alts.setdefault(tok.token, tok.logprob)
        p_y = p_n = 0.0
        for t, lp in alts.items():
            w = t.strip(" \n\t*_`\"'#:>-.,!").lower()
            if w in yes:
                p_y += math.exp(lp)
            elif w in no:
                p_n += math.exp(lp)
        return p_y / (p_y + p_n) if p_y + p_n > 0 else None
    return None
