"""The XLingEval correctness judge: compare a model answer with the expert answer, pick one of four labels.

Source: XLingEval paper §3.1 and Table 1; prompt Appendix Table A3, verbatim from the authors' code
(claws-lab/XLingEval, Apache-2.0; shared/specs/xlingeval.md §2.2 and Appendix A.5, typos included).
"""

from __future__ import annotations

import re
from importlib import resources

from xlingmed.types import Parsed, declare_parse_methods

# The parse methods this module returns, and their kinds (parsing.methods): declared here, where they are made.
declare_parse_methods({"paper_tail": "read", "fallback_last_option": "fallback", "fallback_last_line": "fallback"})

JUDGE_SYSTEM = "You are Health GPT and you help users in the health and medical related domain."

# The judge's prompt (Appendix Table A3), kept as data beside this file; {language}, {question}, {reference} and
# {answer} are filled in.
JUDGE_TEMPLATE = resources.files(__package__).joinpath("judge.txt").read_text("utf-8").removesuffix("\n")

# (label, option string) in the order the paper's parser tests them.
OPTIONS: tuple[tuple[str, str], ...] = (
    ("neither", "Answer 2 provides neither contradictory nor similar information in comparison to Answer 1"),
    ("contradictory", "Answer 2 provides contradictory information in comparison to Answer 1"),
    ("more", "Answer 2 provides more comprehensive and appropriate information"),
    ("less", "Answer 2 provides less comprehensive and appropriate information"),
)
NO_RESPONSE = "no_response"
# Table 1 row order, then the label for judgements that name no option.
LABELS: tuple[str, ...] = ("more", "less", "neither", "contradictory", NO_RESPONSE)
LABEL_NAMES: dict[str, str] = {
    "more": "More comprehensive and appropriate",
    "less": "Less comprehensive and appropriate",
    "neither": "Neither contradictory nor similar",
    "contradictory": "Contradictory",
    NO_RESPONSE: "No Response",
}
JUDGE_PARSERS = ("paper", "paper+fallback")


def parse_judgement(text: str, parser: str = "paper") -> Parsed:
    """Turn a judge's reply into one of ``LABELS``.

    ``paper`` (spec §2.2, the default): empty → ``no_response``; otherwise newlines become spaces, the text is
    split on ``.``, the last 3 fragments are re-joined with spaces, and the four option strings are tested in
    the order 1 → 4 for case-sensitive containment; the first hit wins, else ``no_response``.

    ``paper+fallback``: when the paper rule finds nothing, take the option string that occurs *last* anywhere
    in the reply (case-insensitive; ``fallback_last_option``); else read the reply's last non-empty line, which
    must name exactly one option, by its number ("Option 3", "3)") or in near paraphrase ("more comprehensive
    and appropriate", "contradicts Answer 1", "neither contradictory nor similar"; ``fallback_last_line``).
    A line that names two options, or none, stays ``unparsed`` (``no_response``).

    Returns:
        ``Parsed(label, method)`` with method ``"empty"``, ``"paper_tail"``, ``"fallback_last_option"``,
        ``"fallback_last_line"`` or ``"unparsed"``.

    Raises:
        ValueError: unknown ``parser``.
    """
    if parser not in JUDGE_PARSERS:
        raise ValueError(f"unknown judge parser {parser!r}; known: {', '.join(JUDGE_PARSERS)}")
    if not text:
        return Parsed(NO_RESPONSE, "empty")
    tail = " ".join(text.replace("\n", " ").split(".")[-3:])
    for label, option in OPTIONS:
        if option in tail:
            return Parsed(label, "paper_tail")
    if parser == "paper+fallback":
        best: tuple[int, str] | None = None
        for label, option in OPTIONS:
            for match in re.finditer(re.escape(option.lower()), text.lower()):
                if best is None or match.start() > best[0]:
                    best = (match.start(), label)
        if best is not None:
            return Parsed(best[1], "fallback_last_option")
        last = _last_line_label(text)
        if last is not None:
            return Parsed(last, "fallback_last_line")
    return Parsed(NO_RESPONSE, "unparsed")


_NUMBERED = re.compile(r"(?:\b(?:option|choice)\s*[:#]?\s*\(?([1-4])\b|^\(?([1-4])\s*[).:]?\s*$|^\(?([1-4])\s*[).:]\s)")
# Near paraphrases of the four options, tested on the last line with "neither … nor …" removed first (it holds
# the word "contradictory").
_NEITHER = re.compile(r"neither\s+(?:contradictory|similar)\s+nor\s+(?:similar|contradictory)")
_CUES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("contradictory", re.compile(r"\bcontradict(?:s|ory|ion|ing)?\b")),
    ("more", re.compile(r"\bmore\s+comprehensive\b")),
    ("less", re.compile(r"\bless\s+comprehensive\b")),
)


def _last_line_label(text: str) -> str | None:
    """The one option the reply's last non-empty line names, by number or near paraphrase; else None."""
    lines = [ln.strip(" \t*_#>-`\"'") for ln in text.strip().splitlines()]
    lines = [ln for ln in lines if ln]
    if not lines:
        return None
    line = lines[-1].lower()
    numbers = {g for m in _NUMBERED.finditer(line) for g in m.groups() if g}
    named: set[str] = {OPTIONS[int(n) - 1][0] for n in numbers}
    if _NEITHER.search(line):
        named.add("neither")
        line = _NEITHER.sub(" ", line)
    named |= {label for label, cue in _CUES if cue.search(line)}
    return named.pop() if len(named) == 1 else None
