"""``xlingmed merge RUN_DIR... --out DIR``: the shards of one run (``--shard i/N``) back into one run folder.

Merging does not glue files together. It checks that the folders are the N shards of one configuration, imports
the completions each shard used (its ``completions.sqlite``) into the completion cache, and then runs that
configuration unsharded with ``--executor cache``: every answer comes from the cache, nothing is sent, and every
file of the run folder (``summary.json``, the task CSVs, ``scores.parquet``, and the report built from them) is
produced by the same code that an unsharded run uses. The merged folder therefore equals the unsharded run's
(``tests/test_scale.py`` checks it), with the shards' counts of backend calls and cache hits summed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xlingmed.config import RunConfig
from xlingmed.engine.generate import Progress
from xlingmed.engine.run import SHARD_COMPLETIONS, RunResult, evaluate_async
from xlingmed.engine.shard import parse_shard
from xlingmed.errors import ConfigError
from xlingmed.filemodes import is_owner_only
from xlingmed.store import CompletionCache, ImportCounts, default_cache_path

# settings that may differ between the shards of one run (where and how each ran, not what it measured)
PER_SHARD = frozenset(
    {"shard", "out", "cache", "executor", "ray_address", "max_concurrency", "max_retries", "timeout_s",
     "retry_cap_s", "rpm", "tpm", "max_requests", "max_cost", "prices", "retry_failed", "device", "data_dir",
     "api_key_env", "base_url", "judge_base_url", "translator_base_url", "extractor_base_url", "private"}
)  # fmt: skip
# (``private`` may differ: the merged run is private when any shard is, see ``merge_runs_async``)


@dataclass(frozen=True)
class ShardRun:
    """One shard's run folder as merge reads it."""

    path: Path
    shard: tuple[int, int]
    config: dict[str, Any]
    summary: dict[str, Any]


def read_shard(path: Path) -> ShardRun:
    """A shard's run folder: its manifest's configuration, its summary, and a check that it holds its completions.

    Raises:
        ConfigError: not a run folder, not a ``--shard`` run, or its ``completions.sqlite`` is missing.
    """
    manifest_path, summary_path = path / "manifest.json", path / "summary.json"
    if not manifest_path.is_file() or not summary_path.is_file():
        raise ConfigError(f"{path}: not a run folder (no manifest.json and summary.json)")
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        summary = json.loads(summary_path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        raise ConfigError(f"{manifest_path}: unreadable ({str(exc)[:160]})") from None
    if not isinstance(manifest, dict) or not isinstance(summary, dict):
        raise ConfigError(f"{path}: manifest.json and summary.json must each hold a JSON object")
    config = manifest.get("config") or {}
    if not isinstance(config, dict):
        raise ConfigError(f"{manifest_path}: its config must be a JSON object")
    if not isinstance(config.get("shard"), str) or not config.get("shard"):
        raise ConfigError(f"{path}: not a shard (its run had no --shard i/N); merge takes the shards of one run")
    if not (path / SHARD_COMPLETIONS).is_file():
        raise ConfigError(f"{path}: {SHARD_COMPLETIONS}, the shard's completions, is missing (re-run the shard)")
    shard = parse_shard(config["shard"])
    return ShardRun(path, (shard.i, shard.n), config, summary)


def check_shards(shards: Sequence[ShardRun]) -> dict[str, Any]:
    """The one configuration the shards share (its per-shard settings taken from the first shard).

    Raises:
        ConfigError: shards of different runs (naming the first setting that differs), a shard given twice, or
            shards missing.
    """
    if not shards:
        raise ConfigError("merge needs the run folders of a run's shards")
    first = shards[0]
    count = first.shard[1]
    for other in shards[1:]:
        if other.shard[1] != count:
            raise ConfigError(f"{other.path} is shard {other.shard[0]}/{other.shard[1]}, {first.path} one of {count}")
        for key in sorted(set(first.config) | set(other.config)):
            if key not in PER_SHARD and first.config.get(key) != other.config.get(key):
                raise ConfigError(
                    f"{other.path} and {first.path} are not shards of one run: {key} is "
                    f"{other.config.get(key)!r} in one and {first.config.get(key)!r} in the other"
                )
    seen: dict[int, Path] = {}
    for s in shards:
        if s.shard[0] in seen:
            raise ConfigError(f"shard {s.shard[0]}/{count} given twice: {seen[s.shard[0]]} and {s.path}")
        seen[s.shard[0]] = s.path
    missing = sorted(set(range(count)) - set(seen))
    if missing:
        raise ConfigError(f"shards missing: {', '.join(f'{i}/{count}' for i in missing)} (merge needs all {count})")
    return dict(first.config)


def _merged_fields(shards: list[ShardRun], out: Path, cache_path: Path, data_dir: Path | None) -> dict[str, Any]:
    """The merged run's configuration fields: the shards' (checked alike), unsharded, answered from the cache."""
    fields = check_shards(shards)
    fields.update(shard=None, out=str(out), executor="cache", ray_address=None, max_requests=None, max_cost=None)
    fields["model_args"] = {k: v for k, v in (fields.get("model_args") or {}).items()}
    from xlingmed.config.executor import EXECUTOR_ARGS

    for key in EXECUTOR_ARGS:  # a shard's -M replicas=… configured its executor, not its answers
        fields["model_args"].pop(key, None)
    if data_dir is not None:
        fields["data_dir"] = str(data_dir)
    # what is derived from a private shard is private too (issue 49): its --private flag, or a folder its owner
    # made owner-only
    fields["private"] = any(bool(s.config.get("private")) or is_owner_only(s.path) for s in shards)
    fields["cache"] = str(cache_path)
    return fields


async def merge_runs_async(
    run_dirs: Sequence[Path],
    out: Path,
    cache: Path | None = None,
    data_dir: Path | None = None,
    progress: Progress | None = None,
) -> tuple[RunResult, dict[str, ImportCounts]]:
    """Merge the shards ``run_dirs`` into the run folder ``out``; see the module doc.

    Args:
        run_dirs: the N run folders of ``--shard 0/N`` … ``--shard N-1/N`` of one configuration (any order).
        out: the merged run folder (absent, empty or an earlier run folder); owner-only (``--private``) when any
            shard was private or its folder is owner-only.
        cache: the completion cache the shards' completions go into (default: the default cache).
        data_dir: where the benchmark files are, when not where the shards found them.

    Returns:
        The merged run, and per shard folder what the import did (a key the cache held with a different
        completion keeps the cache's, and is counted as ``differing``).

    Raises:
        ConfigError: see ``read_shard`` and ``check_shards``; and every error ``evaluate`` raises.
    """
    shards = [read_shard(Path(p)) for p in run_dirs]
    cache_path = Path(cache) if cache is not None else default_cache_path()
    fields = _merged_fields(shards, out, cache_path, data_dir)
    try:
        config = RunConfig(**fields)
    except Exception as exc:
        raise ConfigError(f"the shards' configuration cannot be read by this xlingmed: {exc}") from None
    imports: dict[str, ImportCounts] = {}
    store = CompletionCache(cache_path)
    try:
        for s in sorted(shards, key=lambda s: s.shard):
            imports[str(s.path)] = store.import_from(s.path / SHARD_COMPLETIONS)
    finally:
        store.close()

    def amend(summary: dict[str, Any], manifest: dict[str, Any]) -> None:
        # the merged run's own counts are all cache hits; the work was the shards'
        for key in ("backend_calls", "cache_hits"):
            summary[key] = sum(int(s.summary.get(key) or 0) for s in shards)
        manifest["merged_from"] = [
            {"run_dir": str(s.path), "shard": f"{s.shard[0]}/{s.shard[1]}", "imported": vars(imports[str(s.path)])}
            for s in sorted(shards, key=lambda s: s.shard)
        ]

    result = await evaluate_async(config, progress, amend=amend)
    return result, imports


def merge_runs(
    run_dirs: Sequence[Path],
    out: Path,
    cache: Path | None = None,
    data_dir: Path | None = None,
    progress: Progress | None = None,
) -> tuple[RunResult, dict[str, ImportCounts]]:
    """``merge_runs_async`` run to completion (see there)."""
    import asyncio

    return asyncio.run(merge_runs_async(run_dirs, out, cache, data_dir, progress))
