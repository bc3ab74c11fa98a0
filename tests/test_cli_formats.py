"""Tables in pipes and logs (``cli/tables.py``): off a terminal every table prints whole rows, so ``grep`` finds a
row whole; ``--format tsv`` and ``--format json`` give the same tables to programs, prose going to stderr."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fault_server import FaultServer, Reply, ok

XLINGMED = f"{shlex.quote(sys.executable)} -m xlingmed.cli"


def _sh(command: str) -> subprocess.CompletedProcess[str]:
    """``command`` in a shell, as a user pipes it: no terminal, no COLUMNS."""
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    return subprocess.run(command, shell=True, capture_output=True, text=True, timeout=300,
                          env={**env, "OPENAI_API_KEY": "x"})  # fmt: skip


@pytest.fixture(scope="module")
def run_files(data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A run command (correctness and verifiability on 2 LiveQA questions in en, es) against a scripted server,
    and its cache; the first call fills the cache."""
    tmp = tmp_path_factory.mktemp("formats")
    with FaultServer(lambda prompt, attempt: Reply(200, ok("Yes. Answer: yes").body)) as server:
        cmd = (f"{XLINGMED} run --benchmark xlinghealth/liveqa --data-dir {data_dir} --languages en,es --limit 2 "
               f"--tasks correctness,verifiability --temperatures 0 --model openai/m --base-url {server.url} "
               f"--max-tokens 16 --cache {tmp / 'c.sqlite'} --out {tmp / 'run'} --no-report --quiet")  # fmt: skip
        first = _sh(cmd)
        assert first.returncode == 0, first.stderr
        yield cmd, tmp / "c.sqlite"


def _one_line(res: subprocess.CompletedProcess[str], *parts: str) -> str:
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert len(lines) == 1, res.stdout
    assert all(p in lines[0] for p in parts), lines[0]
    return lines[0]


def test_grep_finds_whole_rows_of_every_table(run_files: tuple[str, Path]) -> None:
    cmd, cache = run_files
    # its row of the table (the table of real files under it names the set too)
    row = _one_line(_sh(f"{XLINGMED} list benchmarks | grep 'global-mmlu/medical.*multiple_choice'"),
                    "global-mmlu/medical", "multiple_choice", "Apache-2.0", "all,lite,sensitive,agnostic")  # fmt: skip
    print(row)
    _one_line(_sh(f"{XLINGMED} list metrics | grep sim_1gram"), "Jaccard of word 1-grams", "higher")
    _one_line(_sh(f"{XLINGMED} cache info --cache {cache} | grep correctness:judge"), "openai/m", "│    4 │", "Z │")
    _one_line(_sh(f"{XLINGMED} describe xlinghealth/liveqa --data-dir ../shared/data/xlinghealth | grep ' hi '"),
              "246", "49.08 ± 43.96")  # fmt: skip
    _one_line(_sh(f"{cmd} | grep 'No Response'"), "2 (+0.0pp)")  # a run's summary tables, from the cache
    _one_line(_sh(f"{cmd} | grep 'verifiability │ es'"), "10")


def test_tsv_is_one_header_and_one_line_per_row(run_files: tuple[str, Path]) -> None:
    cmd, _ = run_files
    res = _sh(f"{XLINGMED} list benchmarks --format tsv")
    assert res.returncode == 0, res.stderr
    title, header, *rows = res.stdout.splitlines()
    assert title.startswith("# benchmarks") and header.split("\t")[:2] == ["benchmark", "languages"]
    assert all(r.count("\t") == header.count("\t") for r in rows) and len(rows) >= 20
    assert [r.split("\t")[3] for r in rows if r.startswith("global-mmlu/medical\t")] == ["multiple_choice"]
    res = _sh(f"{cmd} --format tsv")  # every answer from the cache; the prose goes to stderr
    assert res.returncode == 0 and "wrote" in res.stderr and "wrote" not in res.stdout
    blocks = [b.splitlines() for b in res.stdout.strip().split("\n\n")]
    assert [b[0] for b in blocks] == ["# Correctness: judge labels per language (openai/m)",
                                      "# Verifiability (openai/m, parser paper)",
                                      "# How replies were read (read = a direct rule; fallback and unread can make a "
                                      "gap alone)"]  # fmt: skip
    verif = [line.split("\t") for line in blocks[1][1:]]
    assert verif[0][:4] == ["lang", "τ", "claims", "scored"] and [r[:3] for r in verif[1:]] == [["en", "0", "10"],
                                                                                                 ["es", "0", "10"]]
    cut = _sh(f"{XLINGMED} list --format tsv | cut -f1,2 | grep '^task'")
    assert {line.split("\t")[1] for line in cut.stdout.splitlines()} >= {"correctness", "verifiability"}


def test_json_lines_give_the_tables_to_programs(run_files: tuple[str, Path]) -> None:
    cmd, cache = run_files
    res = _sh(f"{XLINGMED} list metrics --format json")
    table = json.loads(res.stdout)
    assert table["columns"][0] == "metric" and {"metric": "sim_1gram"}.items() <= table["rows"][0].items()
    info = json.loads(_sh(f"{XLINGMED} cache info {cache} --format json").stdout)
    assert info["rows"] == 28 and info["mode"] == "0600 (owner only)"
    assert {(g["model"], g["task"], g["rows"]) for g in info["by_model_task"]} == {
        ("openai/m", "correctness:answer", 4), ("openai/m", "correctness:judge", 4),
        ("openai/m", "verifiability:verify", 20)}  # fmt: skip
    tables = [json.loads(line) for line in _sh(f"{cmd} --format json").stdout.splitlines()]
    verif = next(t for t in tables if t["title"].startswith("Verifiability"))
    assert [(r["lang"], r["claims"], r["scored"]) for r in verif["rows"]] == [("en", 10, 10), ("es", 10, 10)]
    assert all(isinstance(r["macro-F1"], float) for r in verif["rows"])
    bad = _sh(f"{XLINGMED} list --format xml")
    assert bad.returncode == 2 and "--format xml: expected one of text, tsv, json" in bad.stderr
