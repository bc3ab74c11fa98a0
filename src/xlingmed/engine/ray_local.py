"""A local Ray instance that nobody else can reach: loopback only, token authentication on.

Ray's security page says that whoever reaches a cluster's ports can run code on it. ``ray.init()`` with no
address starts a local instance whose GCS, raylets, workers and agents listen on every interface, at the
machine's network address: ``_node_ip_address="127.0.0.1"`` alone is rewritten to that address
(``ray._private.services.resolve_ip_for_localhost``). Ray binds to loopback where clusters are switched off, its
default on macOS and Windows (``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0``, read by ``ray_constants``): that switch is
set here, in this process (for the driver) and in its environment (for the processes Ray starts). Measured with
``psutil`` on Ray 2.60: every listening socket of the instance is then on 127.0.0.1 (``tests/test_ray_executor.py``
asserts it). Token authentication (``RAY_AUTH_MODE=token``, Ray ≥ 2.52; on by default for local instances from
2.59) is asked for unless the user set ``RAY_AUTH_MODE`` themselves.

An existing cluster (``--ray-address``, or ``RAY_ADDRESS`` in the environment) is joined as it is: its owner
decides how it listens (the README says to start it with ``RAY_AUTH_MODE=token`` and never expose its ports).
"""

from __future__ import annotations

import os
from typing import Any

LOOPBACK = "127.0.0.1"
CLUSTERS_SWITCH = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"  # ray._private.ray_constants.ENABLE_RAY_CLUSTERS_ENV_VAR
TOKEN_AUTH_SINCE = (2, 52)


def _version(ray: Any) -> tuple[int, ...]:
    parts = []
    for piece in str(getattr(ray, "__version__", "0")).split(".")[:2]:
        digits = "".join(ch for ch in piece if ch.isdigit())
        parts.append(int(digits or 0))
    return tuple(parts)


def bind_loopback(ray: Any) -> dict[str, Any]:
    """Make the next local Ray instance started by this process listen on loopback only, with token
    authentication where Ray has it; returns the ``ray.init`` (or ``Cluster`` node) arguments that go with it.
    Call it before ``ray.init()`` (or ``ray.cluster_utils.Cluster``) starts the instance."""
    from ray._private import ray_constants

    os.environ[CLUSTERS_SWITCH] = "0"  # the raylets, workers and agents Ray starts inherit it
    ray_constants.ENABLE_RAY_CLUSTER = False  # read at call time by ray._private.services.get_node_ip_address
    if _version(ray) >= TOKEN_AUTH_SINCE:
        _token_auth()
    return {"_node_ip_address": LOOPBACK, "include_dashboard": False}


def _token_auth() -> None:
    """``RAY_AUTH_MODE=token`` for this process (Ray's cached config refreshed, as ``ray.init`` does for a new
    local instance from 2.59) and its children, and a token in Ray's default place (``~/.ray/auth_token``, made
    by Ray) if there is none; a mode the user set is left as it is."""
    try:
        from ray._private.authentication import authentication_token_setup as auth
    except ImportError:  # a Ray without token authentication
        return
    if os.environ.get("RAY_AUTH_MODE") is None:
        enable = getattr(auth, "_enable_token_auth", None)
        if enable is None:
            os.environ["RAY_AUTH_MODE"] = "token"
        else:
            enable()
    ensure = getattr(auth, "ensure_token_if_auth_enabled", None)
    if ensure is not None:
        ensure(create_token_if_missing=True)


def joins_existing(address: str | None) -> bool:
    """Whether ``ray.init(address=address)`` joins a cluster someone else started (an address, or ``RAY_ADDRESS``
    in the environment) rather than start a local instance."""
    return bool(address) or bool(os.environ.get("RAY_ADDRESS"))
