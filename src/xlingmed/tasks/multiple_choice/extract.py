"""The extract stage of multiple choice: a second model reads the replies the rules could not (``--extractor``).

The extractor's label stands only with a quote of the reply it read (``parsing.extractor``, issue 46), so this stage
remembers each reply it sent until its reading is recorded: the extractor's completion alone does not hold it.
"""

from __future__ import annotations

from typing import ClassVar

from xlingmed.parsing.extractor import SENT_FOR, extractor_messages, read_extractor_reply
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
