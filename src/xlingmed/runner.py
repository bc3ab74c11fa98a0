"""The engine's entry points under their 0.1 module name (``xlingmed.engine`` holds them since 0.2; this module
stays importable for one release)."""

from xlingmed.engine import (
    CachedBackend,
    Counters,
    Plan,
    Progress,
    RunResult,
    build_tasks,
    dry_run,
    evaluate,
    evaluate_async,
    failure_kind,
    generate_all,
    make_plan,
)

__all__ = [
    "CachedBackend",
    "Counters",
    "Plan",
    "Progress",
    "RunResult",
    "build_tasks",
    "dry_run",
    "evaluate",
    "evaluate_async",
    "failure_kind",
    "generate_all",
    "make_plan",
]
