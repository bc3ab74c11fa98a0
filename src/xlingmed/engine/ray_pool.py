"""``--executor ray``: a pool of long-lived Ray actors, each holding one replica of a backend.

Peers start and stop Ray replicas on every generate call and hang when a replica dies (lm-evaluation-harness
#1734, #2379, #2904; lighteval #670). Here the actors are started once per run and kept until it ends; the
driver stays the only writer of the completion cache:

- ``RayPool`` is a ``ModelAPI`` on the driver. ``CachedBackend`` hands it the cache misses one request at a time
  (up to ``max_concurrency`` in flight) and commits each completion the moment it comes back, exactly as with a
  local backend, so the budget, progress bar, resumption and ``--dry-run`` are unchanged.
- One dispatcher per actor takes up to ``replica_batch`` waiting requests from a shared queue and sends them in
  one actor call; an actor answers them with its backend's ``generate_batch`` when it has one (vLLM, transformers),
  else concurrently up to the backend's ``max_concurrency`` (HTTP clients).
- An actor that dies (its process killed, its node lost) is restarted by Ray (``max_restarts=-1``); the requests
  it held go back on the queue (``resends``) and are answered by whichever replica is alive. A dispatcher takes
  work only after its actor has answered ``ready``, so a replica that cannot come back (no node left with room
  for it) holds no request. Nothing is stored twice: the driver stores a request's completion once, when the
  first answer arrives.

Ray is an optional extra (``pip install 'xlingmed[ray]'``); the nodes of a remote cluster need xlingmed and the
backend's packages installed (the actors build the backend with ``models.base.get_model``).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import time
import uuid
from dataclasses import replace
from typing import Any

from xlingmed.config.executor import RayOptions
from xlingmed.engine.ray_local import bind_loopback, joins_existing
from xlingmed.errors import ModelError
from xlingmed.models.base import ModelAPI, ModelOptions
from xlingmed.types import Completion, GenerateRequest

NAMESPACE = "xlingmed"  # the actors are named xlingmed-<pool>-<i> in it (``ray.get_actor`` finds them)
DEAD_AFTER_S = 300.0  # no replica ready for this long: the waiting requests fail (transient, so a re-run resends)


def actor_errors(ray: Any) -> tuple[type[BaseException], ...]:
    """The exceptions that mean "the actor holding the call is gone" (the names vary across Ray releases)."""
    names = ("RayActorError", "ActorDiedError", "ActorUnavailableError", "NodeDiedError", "ObjectLostError")
    return tuple(getattr(ray.exceptions, n) for n in names if hasattr(ray.exceptions, n))


def import_ray() -> Any:
    """``ray``, or a ModelError naming the extra that installs it."""
    try:
        import ray
    except ImportError:
        raise ModelError("--executor ray needs Ray: pip install 'xlingmed[ray]'") from None
    return ray


class _Replica:
    """A Ray actor: one replica of a backend, built in the actor's process from its ``provider/model`` and options."""

    def __init__(self, model_id: str, options: ModelOptions) -> None:
        from xlingmed.models.base import get_model

        self.model = get_model(model_id, options)
        self.answered = 0

    async def ready(self) -> int:
        """The actor's process id (tests kill it with it)."""
        return os.getpid()

    async def generate_batch(self, requests: list[GenerateRequest]) -> list[Completion]:
        batch = getattr(self.model, "generate_batch", None)
        if batch is not None:
            comps = list(await batch(requests))
        else:
            gate = asyncio.Semaphore(max(1, int(self.model.max_concurrency)))

            async def one(request: GenerateRequest) -> Completion:
                async with gate:
                    return await self.model.generate(request)

            comps = list(await asyncio.gather(*(one(r) for r in requests)))
        self.answered += len(comps)
        return comps


class RayPool:
    """A backend answered by ``replicas`` Ray actors (see the module doc).

    Attributes:
        model_id: the wrapped backend's (so cache keys are those of a local run).
        max_concurrency: requests the driver keeps in flight: two batches per replica, so an actor never waits.
        resends: requests sent again because the actor holding them died.
        restarts: actor deaths seen (each one restarted by Ray).

    Raises (on the first request):
        ModelError: Ray is not installed, or the cluster at ``address`` cannot be joined.
    """

    def __init__(
        self,
        backend: ModelAPI,
        model_id: str,
        options: ModelOptions,
        ray_options: RayOptions,
        address: str | None = None,
    ) -> None:
        self.model_id = backend.model_id
        self.supports_logprobs = backend.supports_logprobs
        self.settings = ray_options
        self.max_concurrency = ray_options.replicas * ray_options.replica_batch * 2
        # an in-process engine answers one request at a time and reuses the previous prompt's KV cache: the misses
        # are sent sorted by prompt (engine/generate.send_order), so a replica's batch shares its prefixes
        self.sort_prompts = backend.max_concurrency == 1
        if options.n_threads is None and ray_options.cpus_per_replica >= 1:
            # an in-process engine uses the CPUs Ray reserved for its actor, not every core of the node
            options = replace(options, n_threads=int(ray_options.cpus_per_replica))
        self._spec = (model_id, options)
        self._address = address
        self._name = f"xlingmed-{uuid.uuid4().hex[:8]}"
        self._actors: list[Any] = []
        self._queue: asyncio.Queue[tuple[GenerateRequest, asyncio.Future[Completion]]] | None = None
        self._dispatchers: list[asyncio.Task[None]] = []
        self._ready: list[bool] = []
        self._last_ready = time.monotonic()
        self._started_ray = False
        self.resends = 0
        self.restarts = 0
        self.answered: list[int] = []
        self._actor_errors: tuple[type[BaseException], ...] = ()

    def _start(self) -> None:
        if self._queue is not None:
            return
        ray = import_ray()
        self._actor_errors = actor_errors(ray)
        if not ray.is_initialized():
            # a local instance listens on loopback only (engine/ray_local.py); a cluster is joined as it is
            # ("local": a new instance of our own, never one found running on the machine)
            joins = joins_existing(self._address)
            local = {} if joins else {"address": "local", **bind_loopback(ray)}
            try:
                ray.init(**{"address": self._address, "include_dashboard": False, **local}, log_to_driver=False,
                         configure_logging=False)  # fmt: skip
            except Exception as exc:  # ConnectionError, RuntimeError… whatever the cluster says
                raise ModelError(f"--executor ray: cannot join Ray at {self._address or 'a new local instance'}: "
                                 f"{exc}") from None  # fmt: skip
            self._started_ray = True
        remote = ray.remote(_Replica)
        s = self.settings
        self._actors = [
            remote.options(
                name=f"{self._name}-{i}",
                namespace=NAMESPACE,
                num_cpus=s.cpus_per_replica,
                num_gpus=s.gpus_per_replica,
                max_restarts=-1,
                max_task_retries=0,  # the pool resends, and counts it
                scheduling_strategy="SPREAD",
            ).remote(*self._spec)
            for i in range(s.replicas)
        ]
        self._queue = asyncio.Queue()
        self._ready = [False] * s.replicas
        self.answered = [0] * s.replicas
        self._last_ready = time.monotonic()
        self._dispatchers = [asyncio.create_task(self._dispatch(i)) for i in range(s.replicas)]

    async def generate(self, request: GenerateRequest) -> Completion:
        self._start()
        assert self._queue is not None
        future: asyncio.Future[Completion] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((request, future))
        return await future

    async def _wait_ready(self, i: int) -> None:
        """Until actor ``i`` answers (it may be starting or restarting); fails the queue when none has for
        ``DEAD_AFTER_S``."""
        waited_out: tuple[type[BaseException], ...] = (TimeoutError, *self._actor_errors)
        while True:
            try:
                await asyncio.wait_for(asyncio.wrap_future(self._actors[i].ready.remote().future()), timeout=5.0)
                self._ready[i] = True
                self._last_ready = time.monotonic()
                return
            except waited_out:
                self._ready[i] = False
                if not any(self._ready) and time.monotonic() - self._last_ready > DEAD_AFTER_S:
                    self._fail_waiting(f"ray: no replica of {self.model_id} has been alive for {DEAD_AFTER_S:.0f} s")
                await asyncio.sleep(0.5)

    def _fail_waiting(self, error: str) -> None:
        assert self._queue is not None
        while not self._queue.empty():
            _, future = self._queue.get_nowait()
            if not future.done():
                future.set_result(Completion(text="", error=error))

    async def _dispatch(self, i: int) -> None:
        assert self._queue is not None
        size = self.settings.replica_batch
        while True:
            if not self._ready[i]:
                await self._wait_ready(i)
            jobs = [await self._queue.get()]
            # a fair share of what is waiting, so one replica never takes everything while the others idle
            share = min(size, math.ceil((self._queue.qsize() + 1) / max(1, sum(self._ready))))
            while len(jobs) < share and not self._queue.empty():
                jobs.append(self._queue.get_nowait())
            jobs = [(r, f) for r, f in jobs if not f.done()]
            if not jobs:
                continue
            try:
                ref = self._actors[i].generate_batch.remote([r for r, _ in jobs])
                comps = await asyncio.wrap_future(ref.future())
            except self._actor_errors:
                # the actor died with these requests: Ray restarts it, another replica answers them
                self.restarts += 1
                self.resends += len(jobs)
                self._ready[i] = False
                for job in jobs:
                    self._queue.put_nowait(job)
                continue
            except Exception as exc:  # the backend raised inside the actor: these requests failed, nothing else
                comps = [Completion(text="", error=f"ray: {type(exc).__name__}: {exc}"[:500]) for _ in jobs]
            self.answered[i] += len(jobs)
            for (_, future), comp in zip(jobs, comps, strict=True):
                if not future.done():
                    future.set_result(comp)

    def stats(self) -> dict[str, Any]:
        """What the pool did, for ``summary.json``'s ``executor``."""
        return {
            "replicas": self.settings.replicas,
            "gpus_per_replica": self.settings.gpus_per_replica,
            "cpus_per_replica": self.settings.cpus_per_replica,
            "requests_per_replica": list(self.answered),
            "replica_deaths": self.restarts,
            "resends": self.resends,
        }

    async def aclose(self) -> None:
        for task in self._dispatchers:
            task.cancel()
        await asyncio.gather(*self._dispatchers, return_exceptions=True)
        self._dispatchers = []
        if self._actors:
            ray = import_ray()
            for actor in self._actors:
                with contextlib.suppress(Exception):  # already gone
                    ray.kill(actor, no_restart=True)
            self._actors = []
        if self._started_ray:
            import_ray().shutdown()
            self._started_ray = False
        self._queue = None
