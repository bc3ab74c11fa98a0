"""The engine: ``plan`` (the resolved ``RunPlan`` → items, tasks, backends), ``walk`` (the one stage loop, shared
by a run and a dry run), ``generate`` (the cache and the budget around a backend), ``run`` (score and write the run
folder), ``manifest`` (what the folder says about itself)."""

from xlingmed.engine.dry_run import dry_run
from xlingmed.engine.generate import CachedBackend, Counters, Progress, generate_all
from xlingmed.engine.plan import Plan, build_tasks, make_plan, prepare
from xlingmed.engine.run import RunResult, evaluate, evaluate_async, failure_kind, run_plan

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
    "prepare",
    "run_plan",
]
