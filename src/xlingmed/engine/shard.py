"""``--shard i/N``: a run over one N-th of the questions, for clusters that have a job array and no Ray.

A question goes to shard ``sha256(item_id) mod N``. The hash is of ``item_id`` alone, which every language of a
question shares (``types.Item``), so the English and the Hindi of a question always land in the same shard and the
paired statistics survive the split; it does not depend on the run's order, seed or limit, so the same question
lands in the same shard on every machine and in every re-run. ``xlingmed merge`` (``engine/merge.py``) puts the
shards back together.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from xlingmed.config.values import Shard, parse_shard
from xlingmed.types import Item

__all__ = ["Shard", "parse_shard", "select_shard", "shard_of"]


def shard_of(item_id: str, count: int) -> int:
    """The shard (``0 … count-1``) of the question ``item_id``: the first 8 bytes of its SHA-256, mod ``count``."""
    return int.from_bytes(hashlib.sha256(item_id.encode("utf-8")).digest()[:8], "big") % count


def select_shard(items: Sequence[Item], shard: Shard) -> list[Item]:
    """The items of ``shard``, in their order (every language of a question together)."""
    return [it for it in items if shard_of(it.item_id, shard.n) == shard.i]
