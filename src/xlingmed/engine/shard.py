"""``--shard i/N``: a run over one N-th of the questions, for clusters that have a job array and no Ray.

A question goes to shard ``sha256(item_id) mod N``. The hash is of ``item_id`` alone, which every language of a
question shares (``types.Item``), so the English and the Hindi of a question always land in the same shard and the
paired statistics survive the split; it does not depend on the run's order, seed or limit, so the same question
lands in the same shard on every machine and in every re-run. ``xlingmed merge`` (``engine/merge.py``) puts the
shards back together.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import NamedTuple

from xlingmed.errors import ConfigError
from xlingmed.types import Item


class Shard(NamedTuple):
    """Shard ``i`` of ``n`` (``0 <= i < n``)."""

    i: int
    n: int

    def __str__(self) -> str:
        return f"{self.i}/{self.n}"


def parse_shard(text: str | Shard | Sequence[int]) -> Shard:
    """``"3/8"`` → ``Shard(3, 8)``: the fourth of eight shards (indices start at 0, as Slurm's
    ``$SLURM_ARRAY_TASK_ID`` does with ``--array=0-7``).

    Raises:
        ConfigError: not ``i/N`` with ``0 <= i < N``.
    """
    if isinstance(text, Shard):
        return text
    if not isinstance(text, str):
        parts = list(text)
        if len(parts) != 2:
            raise ConfigError(f"shard {text!r} must be i/N, e.g. 0/4")
        text = f"{parts[0]}/{parts[1]}"
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    if m is None:
        raise ConfigError(f"--shard {text!r} must be i/N with 0 <= i < N, e.g. --shard 0/4")
    index, count = int(m.group(1)), int(m.group(2))
    if count < 1 or index >= count:
        raise ConfigError(f"--shard {text!r}: i must be at least 0 and below N (shards of 4 are 0/4 … 3/4)")
    return Shard(index, count)


def shard_of(item_id: str, count: int) -> int:
    """The shard (``0 … count-1``) of the question ``item_id``: the first 8 bytes of its SHA-256, mod ``count``."""
    return int.from_bytes(hashlib.sha256(item_id.encode("utf-8")).digest()[:8], "big") % count


def select_shard(items: Sequence[Item], shard: Shard) -> list[Item]:
    """The items of ``shard``, in their order (every language of a question together)."""
    return [it for it in items if shard_of(it.item_id, shard.n) == shard.i]
