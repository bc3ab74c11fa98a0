"""The site's references are the code's (issue 64): the command-line page lists every command, argument and option
of the Typer app, walked recursively as ``xlingmed --help`` and its subcommands show them; the task, benchmark and
metric pages name every registered one. The pages are made by the same hook ``mkdocs build`` runs."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import typer

from xlingmed.cli import app

REPO = Path(__file__).resolve().parents[1]


def _hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_reference_hook", REPO / "docs" / "hooks" / "reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _commands(command, path=("xlingmed",)):  # type: ignore[no-untyped-def]
    """(path, options, arguments) of every visible command, walked here apart from the hook's own walk."""
    options = sorted(o for p in command.params if p.param_type_name == "option" and not p.hidden
                     for o in (*p.opts, *p.secondary_opts))  # fmt: skip
    arguments = sorted(p.name for p in command.params if p.param_type_name == "argument")
    out = [(path, options, arguments)]
    for name, sub in getattr(command, "commands", {}).items():
        if not getattr(sub, "hidden", False):
            out += _commands(sub, (*path, name))
    return out


def _sections(page: str) -> dict[str, str]:
    """Each command's section of the CLI page: heading ``xlingmed run`` → its text up to the next heading."""
    parts = re.split(r"^#{2,4} `([^`]+)`\n", page, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_the_cli_page_lists_every_command_and_option_of_the_app() -> None:
    page = _hook().cli_markdown()
    sections = _sections(page)
    walked = _commands(typer.main.get_command(app))
    assert len(walked) >= 20  # run, merge, import, …, cache info, annotate serve: really walked
    assert sorted(sections) == sorted(" ".join(path) for path, _, _ in walked)
    for path, options, arguments in walked:
        text = sections[" ".join(path)]
        listed = sorted(set(re.findall(r"`(--?[\w-]+)`", text.split("| argument or option |", 1)[-1])))
        assert listed == sorted(set(options)), " ".join(path)
        for arg in arguments:
            assert re.search(r"^\| `[A-Z_]*` ", text, flags=re.M), (path, arg)
    run = sections["xlingmed run"]
    assert "| `--languages` | str |" in run and "| `--model` | str |" in run  # type and help, not just names
    assert "`--include-defective`, `--exclude-defective`" in run  # a flag's both spellings


def test_a_renamed_option_shows_on_the_cli_page() -> None:
    """The page is made from the app itself: an option renamed in the code is renamed on the page."""
    hook = _hook()
    tree = typer.main.get_command(app)
    option = next(p for p in tree.commands["run"].params if p.opts == ["--limit"])  # type: ignore[attr-defined]
    option.opts = ["--max-items"]
    hook._command_tree = lambda: tree
    section = _sections(hook.cli_markdown())["xlingmed run"]
    assert "`--max-items`" in section and "`--limit`" not in section


def test_the_registry_pages_name_every_task_benchmark_and_metric() -> None:
    from xlingmed.benchmarks import benchmarks
    from xlingmed.metrics.registry import all_metrics
    from xlingmed.tasks.registry import task_specs

    hook = _hook()
    tasks = re.findall(r"^## `([^`]+)`", hook.tasks_markdown(), flags=re.M)
    assert tasks == list(task_specs())
    bench_page = hook.benchmarks_markdown()
    assert sorted(re.findall(r"^## `([^`]+)`", bench_page, flags=re.M)) == sorted(benchmarks())
    assert "| licence | CC BY 4.0 (unverified: see the card) |" in bench_page  # persianmedqa's recorded doubt
    metrics = re.findall(r"^\| `([^`]+)` \|", hook.metrics_markdown(), flags=re.M)
    assert metrics == list(all_metrics())
    assert "| `-T` option | default |" in hook.tasks_markdown() and "`judge_parser` | `paper`" in hook.tasks_markdown()
