"""The extract stage of multiple choice: a second model reads the replies the rules could not (``--extractor``),
and what it said per language, beside the rules (``agreement``, ``by_language``).

The extractor's label stands only with a quote of the reply it read (``parsing.extractor``, issue 46), so this stage
remembers each reply it sent until its reading is recorded: the extractor's completion alone does not hold it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from xlingmed.parsing.extractor import METHODS, NONE_WORD, SENT_FOR, extractor_messages, read_extractor_reply
from xlingmed.prompts import item_labels
from xlingmed.types import Completion, GenerateRequest, Parsed, Sample

_Key = tuple[str, str, str]


def _key(sample: Sample) -> _Key:
    return sample.item.item_id, sample.item.lang, sample.key


class Extraction:
    """Requests to the extractor and the reading of its replies, for one run of the multiple-choice task.

    Args:
        mode: ``fallback`` (the replies the rules leave ambiguous or invalid) or ``all`` (every reply).
    """

    max_tokens: ClassVar[int] = 256  # "Answer: C" and one quoted sentence

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self._replies: dict[_Key, str] = {}  # replies sent and not yet recorded (the walk holds them anyway)

    def request(
        self, sample: Sample, answer: Completion | None, rules: Parsed | None, seed: int | None
    ) -> GenerateRequest | None:
        """The extractor's request for the reply ``answer``: ``None`` where there is no reply to read, or (mode
        ``fallback``) where the rules read one."""
        if answer is None or not answer.ok or answer.refusal:
            return None
        if self.mode == "fallback" and rules is not None and rules.method not in SENT_FOR:
            return None
        item = sample.item
        self._replies[_key(sample)] = answer.text
        options = list(zip(item_labels(item), (c.text for c in item.choices), strict=True))
        question = item.meta.get("stem") or item.question
        return GenerateRequest(
            messages=extractor_messages(question, options, answer.text),
            temperature=0.0,
            max_tokens=self.max_tokens,
            seed=seed,
        )

    def read(self, sample: Sample, completion: Completion, *, done: bool = False) -> Parsed:
        """The extractor's reading of ``sample``'s reply, its quote checked against that reply; ``done``: the
        reading is recorded, the reply is forgotten."""
        choices = sample.item.choices
        reply = self._replies.pop(_key(sample), "") if done else self._replies.get(_key(sample), "")
        return read_extractor_reply(
            completion.text, [c.label for c in choices], reply=reply,
            options={c.label: c.text for c in choices}, labels=item_labels(sample.item),
        )  # fmt: skip


def agreement(pairs: Sequence[tuple[str | None, str | None]]) -> dict[str, Any]:
    """How far the rules and the extractor agree on the same replies.

    Args:
        pairs: ``(rules' label or None, extractor's label or None)`` per reply that both read (``None`` = commits
            to no option, on either side); replies the extractor could not read are left out by the caller.

    Returns:
        ``{"n", "alike": share with the same reading, "kappa": Cohen's κ (None for fewer than 2 replies or a
        single category on both sides)}``; κ from ``analysis.agreement.cohen_kappa`` with "none" a category.
    """
    n = len(pairs)
    if n == 0:
        return {"n": 0, "alike": None, "kappa": None}
    a = [x or NONE_WORD for x, _ in pairs]
    b = [y or NONE_WORD for _, y in pairs]
    alike = sum(x == y for x, y in zip(a, b, strict=True)) / n
    from xlingmed.analysis.agreement import cohen_kappa  # scikit-learn: only when agreement is asked for

    return {"n": n, "alike": alike, "kappa": cohen_kappa(a, b) if n >= 2 else None}


def by_language(records: Sequence[dict[str, Any]], languages: Sequence[str], mode: str) -> list[dict[str, Any]]:
    """Per language, what the extractor was sent and what it said, from the multiple-choice rows; with mode
    ``all``, also ``agreement`` of rules and extractor over the replies the extractor read (``extractor`` or
    ``extractor_none``): the rules' reading is the row's ``prediction`` where its ``parse_method`` is a rule's,
    ``None`` where the rules left the reply to the extractor.

    Returns:
        One row per language: ``lang``, ``sent``, ``extractor`` (a label), ``extractor_none``,
        ``extractor_unparsed`` (neither a label nor "none": left out of the agreement); mode ``all`` adds ``n``,
        ``alike`` and ``kappa``.
    """

    def text(v: Any) -> str | None:  # a cell live or read back from a CSV (NaN for empty)
        return v if isinstance(v, str) and v else None

    out = []
    for lang in languages:
        rows = [r for r in records if r.get("lang") == lang and text(r.get("extractor_method"))]
        row: dict[str, Any] = {"lang": lang, "sent": len(rows)}
        row.update({m: sum(r["extractor_method"] == m for r in rows) for m in METHODS})
        if mode == "all":
            pairs = [
                (None if r.get("parse_method") in METHODS else text(r.get("prediction")),
                 None if r.get("extractor_prediction") == NONE_WORD else text(r.get("extractor_prediction")))
                for r in rows
                if r["extractor_method"] in ("extractor", "extractor_none")
            ]  # fmt: skip
            row.update(agreement(pairs))
        out.append(row)
    return out
