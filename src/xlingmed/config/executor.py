"""The executor's own settings (``--executor ray``'s ``-M`` options): declared with the configuration, so that the
plan (``config.resolve``) validates them before the engine starts a pool (``engine/executors.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

# ``-M`` keys the executor takes (engine/executors.py), not the backend: they shape the Ray pool.
EXECUTOR_ARGS = ("replicas", "gpus_per_replica", "cpus_per_replica", "replica_batch")


class RayOptions(BaseModel):
    """``--executor ray``'s ``-M`` options.

    Attributes:
        replicas: Ray actors, each holding one replica of the backend (an in-process engine with its weights, or
            an HTTP client).
        gpus_per_replica: GPUs Ray reserves for each actor (vLLM's tensor parallelism within a replica).
        cpus_per_replica: CPUs Ray reserves for each actor (llama.cpp and transformers use them for threads).
        replica_batch: requests handed to an actor at once (an engine with ``generate_batch`` answers them in one
            call; any other backend answers them concurrently, up to its ``max_concurrency``).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    replicas: int = Field(default=1, ge=1)
    gpus_per_replica: float = Field(default=0.0, ge=0)
    cpus_per_replica: float = Field(default=1.0, ge=0)
    replica_batch: int = Field(default=8, ge=1)


def split_executor_args(model_args: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``-M`` arguments split into (the backend's, the executor's)."""
    backend = {k: v for k, v in model_args.items() if k not in EXECUTOR_ARGS}
    executor = {k: v for k, v in model_args.items() if k in EXECUTOR_ARGS}
    return backend, executor
