"""``--shard i/N`` and ``xlingmed merge``: a run split over shards, each with its own cache and run folder, merges
into a run folder equal to the unsharded run's (summary, task CSVs, Score records, the report's statistics), with a
real scripted OpenAI-compatible server answering."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from fault_server import FaultServer, Reply, completion_body, deterministic_answer, error

from xlingmed.engine import evaluate
from xlingmed.engine.merge import merge_runs
from xlingmed.engine.shard import parse_shard, select_shard, shard_of
from xlingmed.errors import ConfigError
from xlingmed.report import build_report
from xlingmed.types import Item

N_SHARDS = 3


def _answers(prompt: str, attempt: int) -> Reply:
    return Reply(200, completion_body(deterministic_answer(prompt)))


def _config(data_dir: Path, url: str, out: Path, cache: Path, **extra: Any) -> dict[str, Any]:
    return dict(
        benchmark="xlinghealth/liveqa", data_dir=data_dir, languages="en,es,zh,hi", limit=8,
        tasks="correctness,verifiability", model="openai/m", base_url=url, temperatures="0",
        max_concurrency=4, task_args={"logprobs": False}, out=out, cache=cache, **extra,
    )  # fmt: skip


def _comparable(run: Path) -> dict[str, Any]:
    """What must not depend on sharding: samples (as a multiset, less timing), task summaries, CSVs (rows as
    multisets), Score records, and the counts of work done."""
    samples = Counter()
    for line in (run / "samples.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        for volatile in ("cached", "latency_s"):
            row.pop(volatile)
        samples[json.dumps(row, sort_keys=True, ensure_ascii=False)] += 1
    summary = json.loads((run / "summary.json").read_text(encoding="utf-8"))
    csvs = {p.name: p.read_text(encoding="utf-8") for p in sorted(run.glob("*.csv"))}
    scores = pd.read_parquet(run / "scores.parquet")
    return {
        "samples": samples,
        "tasks": summary["tasks"],
        "failures": summary["failures"],
        "n_items": summary["n_items_per_language"],
        "backend_calls": summary["backend_calls"],
        "csvs": csvs,
        "scores": scores.to_json(orient="records"),  # NaN as null: NaN != NaN in a dict
    }


def test_a_question_keeps_one_shard_in_every_language_and_shards_are_balanced() -> None:
    items = [Item(f"liveqa-{i:04d}", "b", lang, "q", "r") for i in range(3000) for lang in ("en", "es", "hi")]
    parts = [select_shard(items, parse_shard(f"{i}/4")) for i in range(4)]
    assert sum(len(p) for p in parts) == len(items)  # every item in exactly one shard
    for part in parts:
        by_id = Counter(it.item_id for it in part)
        assert set(by_id.values()) == {3}  # all three languages of each question together
        assert 650 <= len(by_id) <= 850  # 3000 questions over 4 shards: about 750 each
    assert shard_of("liveqa-0042", 4) == 3  # pinned: the same shard on every machine, in every release
    with pytest.raises(ConfigError, match="i must be at least 0 and below N"):
        parse_shard("4/4")
    with pytest.raises(ConfigError, match="must be i/N"):
        parse_shard("first")


def test_merged_shards_equal_the_unsharded_run(data_dir: Path, tmp_path: Path) -> None:
    with FaultServer(_answers) as server:
        whole = evaluate(**_config(data_dir, server.url, tmp_path / "whole", tmp_path / "whole.sqlite"))
        calls_whole = server.calls
        shards = []
        for i in range(N_SHARDS):
            run = evaluate(
                **_config(data_dir, server.url, tmp_path / f"shard{i}", tmp_path / f"cache{i}.sqlite"),
                shard=f"{i}/{N_SHARDS}",
            )
            shards.append(run)
        calls_sharded = server.calls - calls_whole
    # the shards did the unsharded run's work once, split: no request twice, none left out
    assert calls_sharded == calls_whole == whole.backend_calls
    assert sum(r.backend_calls for r in shards) == whole.backend_calls
    assert [r.summary["n_items_per_language"]["en"] for r in shards] != [8, 0, 0]
    assert sum(r.summary["n_items_per_language"]["hi"] for r in shards) == 8
    for r in shards:
        assert (r.out_dir / "completions.sqlite").is_file()

    # the CLI, as a user runs it, in another order than the shards' (the order does not matter)
    merged_dir, merged_cache = tmp_path / "merged", tmp_path / "merged.sqlite"
    dirs = [str(shards[i].out_dir) for i in (2, 0, 1)]
    proc = subprocess.run(
        [sys.executable, "-m", "xlingmed.cli", "merge", *dirs, "--out", str(merged_dir), "--cache", str(merged_cache)],
        capture_output=True, text=True, env={**os.environ, "COLUMNS": "200"},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "completions added to the cache" in " ".join(proc.stderr.split())
    merged, reference = _comparable(merged_dir), _comparable(whole.out_dir)
    for key in reference:
        assert merged[key] == reference[key], key
    manifest = json.loads((merged_dir / "manifest.json").read_text())
    assert [m["shard"] for m in manifest["merged_from"]] == ["0/3", "1/3", "2/3"]
    assert manifest["config"]["shard"] is None

    # the report's statistics (gaps, paired tests, verdicts) are the same files with the same numbers
    build_report([whole.out_dir])
    stats_whole = whole.out_dir / "report" / "stats"
    stats_merged = merged_dir / "report" / "stats"
    names = sorted(p.name for p in stats_whole.glob("*.csv"))
    assert names and names == sorted(p.name for p in stats_merged.glob("*.csv"))
    for name in names:
        assert (stats_merged / name).read_text() == (stats_whole / name).read_text(), name


def test_merge_refuses_what_is_not_one_whole_run(data_dir: Path, tmp_path: Path) -> None:
    with FaultServer(_answers) as server:
        runs = [
            evaluate(**_config(data_dir, server.url, tmp_path / f"s{i}", tmp_path / "c.sqlite", shard=f"{i}/2"))
            for i in range(2)
        ]
        other = evaluate(
            **_config(data_dir, server.url, tmp_path / "other", tmp_path / "c.sqlite", shard="1/2", seed=7)
        )
        plain = evaluate(**_config(data_dir, server.url, tmp_path / "plain", tmp_path / "c.sqlite"))
    out = tmp_path / "m"
    with pytest.raises(ConfigError, match=r"shards missing: 1/2 \(merge needs all 2\)"):
        merge_runs([runs[0].out_dir], out, cache=tmp_path / "m.sqlite")
    with pytest.raises(ConfigError, match="given twice"):
        merge_runs([runs[0].out_dir, runs[0].out_dir, runs[1].out_dir], out, cache=tmp_path / "m.sqlite")
    with pytest.raises(ConfigError, match="not shards of one run: seed is 7 in one and 42 in the other"):
        merge_runs([runs[0].out_dir, other.out_dir], out, cache=tmp_path / "m.sqlite")
    with pytest.raises(ConfigError, match="not a shard"):
        merge_runs([plain.out_dir, runs[1].out_dir], out, cache=tmp_path / "m.sqlite")
    assert not out.exists()


def test_a_request_that_failed_in_its_shard_is_counted_missing_and_resent_by_the_shard(
    data_dir: Path, tmp_path: Path
) -> None:
    # one prompt fails (503, transient: not cached) in its shard; the merge counts it, sends nothing; re-running
    # that shard sends only it, and the merge then equals the unsharded run
    state = {"broken": True}
    victim: dict[str, str] = {}

    def policy(prompt: str, attempt: int) -> Reply:
        if state["broken"] and (victim.setdefault("prompt", prompt) == prompt):
            return error(503, "overloaded")
        return _answers(prompt, attempt)

    with FaultServer(policy) as server:
        cfg = {"max_retries": 0}
        runs = [
            evaluate(**_config(data_dir, server.url, tmp_path / f"s{i}", tmp_path / f"c{i}.sqlite", **cfg),
                     shard=f"{i}/2")
            for i in range(2)
        ]  # fmt: skip
        assert sum(r.failed_requests for r in runs) == 1
        sent = server.calls
        merged, imports = merge_runs([r.out_dir for r in runs], tmp_path / "m", cache=tmp_path / "m.sqlite")
        assert server.calls == sent  # merging sends nothing
        assert merged.failed_requests == 1
        assert "not_cached" in json.dumps(merged.summary["failures"])  # the reason: not in the cache
        assert sum(c.added for c in imports.values()) == runs[0].backend_calls + runs[1].backend_calls - 1
        state["broken"] = False
        bad = next(i for i, r in enumerate(runs) if r.failed_requests)
        again = evaluate(**_config(data_dir, server.url, tmp_path / f"s{bad}", tmp_path / f"c{bad}.sqlite", **cfg),
                         shard=f"{bad}/2")  # fmt: skip
        # the failed request was an answer of correctness (the first requests sent): it and its judge call
        assert again.backend_calls == 2 and again.failed_requests == 0
        merged, _ = merge_runs([r.out_dir for r in runs], tmp_path / "m", cache=tmp_path / "m.sqlite")
        whole = evaluate(**_config(data_dir, server.url, tmp_path / "whole", tmp_path / "whole.sqlite", **cfg))
    assert merged.failed_requests == 0
    assert _comparable(merged.out_dir)["tasks"] == _comparable(whole.out_dir)["tasks"]


def test_the_merge_of_shards_one_of_which_is_private_is_owner_only(data_dir: Path, tmp_path: Path) -> None:
    """Issue 49: what is derived from a ``--private`` run is private too; the shards may differ in ``--private``."""
    import os
    import stat

    old = os.umask(0o022)
    try:
        small = {"languages": "en,es", "limit": 6, "tasks": "correctness"}
        with FaultServer(_answers) as server:
            runs = [
                evaluate(**{**_config(data_dir, server.url, tmp_path / f"s{i}", tmp_path / "c.sqlite"), **small},
                         shard=f"{i}/2", private=i == 1)
                for i in range(2)
            ]  # fmt: skip
        merged, _ = merge_runs([r.out_dir for r in runs], tmp_path / "m", cache=tmp_path / "m.sqlite")
    finally:
        os.umask(old)
    modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in [merged.out_dir, *merged.out_dir.rglob("*")]}
    assert len(modes) > 5 and all(m & 0o077 == 0 for m in modes.values()), modes
    assert json.loads((merged.out_dir / "manifest.json").read_text())["config"]["private"] is True
    assert stat.S_IMODE(runs[0].out_dir.stat().st_mode) == 0o755  # the plain shard stays as it was
