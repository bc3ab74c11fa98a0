"""Who answers a run's cache misses (``--executor``): this process, a pool of Ray actors, or nobody.

The executor is chosen once, when the plan is made: ``local`` keeps each role's backend as it is; ``ray`` puts
a ``RayPool`` (``engine/ray_pool.py``) in its place, whose long-lived actors each hold one replica of the same
backend; ``cache`` puts ``CacheOnly`` there, which sends nothing. Whichever it is, the run above it is the same
code: ``CachedBackend`` looks every request up in the completion cache on the driver, hands only the misses to the
executor's backend and commits each completion as it arrives, so the cache, the budget, the progress bar and
``--dry-run`` behave identically under every executor.
"""

from __future__ import annotations

from xlingmed.config.executor import EXECUTOR_ARGS as EXECUTOR_ARGS
from xlingmed.config.executor import RayOptions as RayOptions  # declared with the configuration (issue 63)
from xlingmed.config.executor import split_executor_args as split_executor_args
from xlingmed.types import Completion, GenerateRequest

# EXECUTOR_ARGS: -M keys that configure the executor, not the backend: they never reach a backend's Options nor its
# model id (declared with the configuration, whose checks refuse them without --executor ray).


class CacheOnly:
    """``--executor cache``: a backend that sends nothing. Every request the completion cache cannot answer comes
    back failed ("not in the cache"), and, being transient, is not cached, so a later run with a real executor
    sends exactly those. ``xlingmed merge`` scores the shards' completions with it."""

    supports_logprobs = True
    max_concurrency = 64
    sends_nothing = True  # CachedBackend counts its answers as misses, not as backend calls

    def __init__(self, model_id: str) -> None:
        self.model_id = model_id

    async def generate(self, request: GenerateRequest) -> Completion:
        return Completion(text="", error="not in the cache: no shard or earlier run answered this request")

    async def aclose(self) -> None:
        return None
