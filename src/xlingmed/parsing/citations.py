"""What in a reply is a reference, never an answer: its reference list, citation lines, URLs, DOIs and citation
markers ("[1][2]"), blanked out before a reply is read.

Medical assistants answer, then cite ("4. Neonatal sepsis: A Review. Smith J, Lee K. Pediatrics. 2021." — whose
"A" is no option), and number their references as exams number their options ("[1][3]"). Every rule of
``parsing.choice`` reads the reply with these spans turned to spaces (``blank_citations``): positions, lines and
sentences stay where they were, so nothing a rule finds moves, and nothing it finds is a citation.
"""

from __future__ import annotations

import re

import regex

from xlingmed.parsing.literals import literals

# A URL or a DOI, wherever it stands.
_LINK = regex.compile(r"(?i)(?:https?://|www\.)\S+|\bdoi:\s*\S+|\b10\.\d{4,9}/\S+")
# A citation marker: [1], [1][2], [1, 3], [2-4], 【1】, [^1]; not a value after a colon ("{'7': [2]}", "Answer: [2]").
_MARKER = regex.compile(r"(?<!:\s*)(?:\[\^?\d{1,3}(?:\s*[,\-–]\s*\d{1,3})*\]|【\d{1,3}】)+")
# A line that opens like an entry of a list: "1.", "[1]", "-", "*", "•".
_ENTRY = regex.compile(r"^[\s>]*(?:\d{1,3}[.)]|\[\d{1,3}\]|[-*•·])\s+")
# What makes an entry a citation: authors, a journal's year;volume(issue):pages, an identifier, a link.
_CITED = regex.compile(
    r"(?i)\bet\s+al\b|\b(?:19|20)\d{2}\s*[;:]\s*\d+|\b(?:19|20)\d{2}\s*\(\d+\)|\bpmid\b|\bpmcid\b|\bisbn\b|doi"
    r"|https?://|www\.|\bjournal\b|\bvol\.\s*\d|\bpp?\.\s*\d"
)


_CITING_WORDS = ("et al", "pmid", "pmcid", "isbn", "doi", "http", "www.", "journal", "vol.")
_CITING_NUMBERS = re.compile(r"(?:19|20)\d\d\s*[;:(]|[pP]\.\s*\d")


def _may_cite(text: str) -> bool:
    """A quick test that holds wherever ``_CITED`` would match (its words, or a year or page before its numbers),
    so that the slower pattern runs only on the few replies that may cite."""
    low = text.lower()
    return any(w in low for w in _CITING_WORDS) or _CITING_NUMBERS.search(text) is not None


def _blanked(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with every span turned to spaces (line breaks kept)."""
    chars = list(text)
    for start, end in spans:
        for i in range(start, end):
            if chars[i] != "\n":
                chars[i] = " "
    return "".join(chars)


def blank_citations(text: str) -> str:
    """``text`` (normalised) with its references turned to spaces, at the same length.

    Blanked: a reference list (``Language.reference_headings``: "References", "Referencias", "参考文献", "출처"…, as
    a line of its own) and the entries, blank lines and citations after it, up to the first line that is none of
    these; every other line that opens like a list entry and cites (authors "et al.", "2021;33(4)", a DOI, a
    PMID, a link); every URL, DOI and citation marker ("[1][2]", "【1】").
    """
    heading = literals().reference_heading
    if not (_MARKER.search(text) or heading.search(text) or (_may_cite(text) and _CITED.search(text))):
        return text  # most replies cite nothing: one scan each, the cheapest first
    spans: list[tuple[int, int]] = []
    in_list = False
    for m in regex.finditer(r"[^\n]+", text):
        line = m.group()
        if not line.strip():
            continue
        if heading.fullmatch(line):
            in_list = True
            spans.append(m.span())
            continue
        cites = _CITED.search(line) is not None
        if (in_list and (_ENTRY.match(line) or cites)) or (cites and _ENTRY.match(line)):
            spans.append(m.span())
            continue
        in_list = False
    spans += [m.span() for pattern in (_LINK, _MARKER) for m in pattern.finditer(text)]
    return _blanked(text, spans) if spans else text
