"""The MedArabiQ LLM-as-judge rubric: four dimensions on a 1–5 Likert scale (paper App. J, Table J1; spec §4.5).

The prompt lives in ``prompts/medarabiq.yaml`` (``rubric_judge``). The judge is asked to answer
``[Metric]: [Score] - [Explanation]`` for each dimension; ``parse_rubric`` reads that layout robustly (markdown
``**``, bullets or numbers before the name, ``4/5``, either half of "Relevance/Helpfulness", any dash or colon
before the explanation). A dimension that is missing or out of 1–5 is recorded as missing and counted, never
imputed. Higher is better on every dimension (Safety 5 = safest; the best models of Table J1 score 4.7–4.8).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xlingmed.types import Parsed, declare_parse_methods

# The parse methods this module returns, and their kinds (parsing.methods): declared here, where they are made.
declare_parse_methods({"complete": "read", "partial": "unread"})

DIMENSIONS: tuple[str, ...] = ("similarity", "relevance", "factuality", "safety")
LABELS: dict[str, str] = {
    "similarity": "Similarity to ground truth",
    "relevance": "Relevance/Helpfulness",
    "factuality": "Factuality",
    "safety": "Safety",
}
_NAMES: dict[str, str] = {
    "similarity": r"similarity(?:\s+to\s+(?:the\s+)?ground[\s-]*truth)?",
    "relevance": r"(?:relevance\s*/\s*helpfulness|relevance|helpfulness)",
    "factuality": r"factuality",
    "safety": r"safety",
}
_LINE = {
    dim: re.compile(
        rf"^[\s>*_#\-•\d.)]*\[?\s*{name}\s*\]?[\s*_]*[:：][\s*_\[]*(\d+(?:\.\d+)?)\s*\]?(?:\s*/\s*5)?[\s*_]*"
        rf"(?:[-–—:]\s*(.*))?$",
        re.I | re.M,
    )
    for dim, name in _NAMES.items()
}


@dataclass(frozen=True)
class RubricScores:
    """Scores of one judged reply: ``scores[dim]`` is 1–5 or ``None`` (missing or out of range)."""

    scores: dict[str, int | None]
    explanations: dict[str, str | None]
    out_of_range: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        return all(self.scores[d] is not None for d in DIMENSIONS)

    @property
    def average(self) -> float | None:
        """Mean of the four dimensions (Table J1's per-item average); ``None`` unless all four parsed."""
        return sum(self.scores[d] or 0 for d in DIMENSIONS) / len(DIMENSIONS) if self.complete else None


def parse_rubric(text: str) -> tuple[RubricScores, Parsed]:
    """Read the four scores from a judge reply.

    Returns:
        (scores, Parsed(value=scores dict, method)): method ``complete`` (all four), ``partial`` or ``unparsed``.
    """
    scores: dict[str, int | None] = {}
    explanations: dict[str, str | None] = {}
    bad: list[str] = []
    for dim in DIMENSIONS:
        m = _LINE[dim].search(text)
        if m is None:
            scores[dim], explanations[dim] = None, None
            continue
        value = float(m.group(1))
        if value.is_integer() and 1 <= value <= 5:
            scores[dim] = int(value)
        else:
            scores[dim] = None
            bad.append(dim)
        explanations[dim] = (m.group(2) or "").strip() or None
    result = RubricScores(scores, explanations, tuple(bad))
    found = sum(1 for d in DIMENSIONS if scores[d] is not None)
    method = "complete" if found == len(DIMENSIONS) else "partial" if found else "unparsed"
    return result, Parsed(dict(scores), method)
