"""A consistency metric: the share of a question's K answers that are, word for word, its most common answer.

One file: the set metric reads the K cleaned answers of each question of one condition and returns one value per
question; ``-T consistency_metrics=ngram,same_answer`` computes it beside the built-ins, into consistency.csv, the
Scores, the summary and the Table A9 layout (under its label)."""

from collections import Counter
from collections.abc import Sequence

from xlingmed.metrics.sets import Condition, SetMetric


def same_answer(groups: Sequence[Sequence[str]], condition: Condition) -> list[dict[str, float | None]]:
    return [{"same_answer": Counter(g).most_common(1)[0][1] / len(g) if g else None} for g in groups]


SAME_ANSWER = SetMetric(
    "same_answer", "cleaned", lambda settings: ["same_answer"], same_answer,
    labels=lambda settings: {"same_answer": "same answer"},
)  # fmt: skip
