"""MkDocs hook: the reference pages generated from the code at build time (nothing here is copied by hand).

``reference/cli.md`` walks the Typer app (``typer.main.get_command(xlingmed.cli.app)``); ``reference/tasks.md``,
``reference/benchmarks.md`` and ``reference/metrics.md`` read the registries. ``tests/test_docs_reference.py``
compares the CLI page with the app.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

SRC = Path(__file__).resolve().parents[2] / "src"
if str(SRC) not in sys.path:  # the checkout's own code, whatever xlingmed the environment has installed
    sys.path.insert(0, str(SRC))


def _cell(value: Any) -> str:
    text = " ".join(str(value).split())
    return text.replace("|", "\\|") or "–"


def _default(value: Any) -> str:
    if isinstance(value, tuple | list):
        return ",".join(str(v) for v in value) or "()"
    return str(value)


def _command_tree() -> Any:
    import typer

    from xlingmed.cli import app

    return typer.main.get_command(app)


def walk(command: Any, path: tuple[str, ...] = ("xlingmed",)) -> list[tuple[tuple[str, ...], Any]]:
    """Every command of the app, depth first, in the order of ``--help``: ``(path, command)``."""
    out = [(path, command)]
    for name, sub in getattr(command, "commands", {}).items():
        if getattr(sub, "hidden", False):
            continue
        out += walk(sub, (*path, name))
    return out


def _type_name(param: Any) -> str:
    try:
        shown = param.display_type()
    except Exception:  # a Typer version without it
        shown = None
    if isinstance(shown, str) and shown:
        return shown
    annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    return getattr(annotation, "__name__", None) or str(annotation or "text")


def cli_markdown() -> str:
    lines = [
        "# Command line",
        "",
        "Generated from the Typer app (`xlingmed.cli.app`) when the site is built: every command, argument and "
        "option that `xlingmed --help` and its subcommands show. Each table lists the option's spellings, its "
        "type, its default and its help text.",
        "",
    ]
    for path, command in walk(_command_tree()):
        level = "#" * min(len(path) + 1, 4)
        lines += [f"{level} `{' '.join(path)}`", ""]
        help_text = (command.help or "").strip()
        if help_text:
            lines += [" ".join(help_text.split()), ""]
        subs = [n for n, s in getattr(command, "commands", {}).items() if not getattr(s, "hidden", False)]
        if subs:
            lines += ["Subcommands: " + ", ".join(f"`{n}`" for n in subs) + ".", ""]
        params = [p for p in command.params if not getattr(p, "hidden", False)]
        if not params:
            continue
        lines += ["| argument or option | type | default | help |", "|---|---|---|---|"]
        for p in params:
            if p.param_type_name == "argument":
                label = (p.metavar or p.display_name_raw or p.name or "").upper()
                name = f"`{label}`" + (" (repeatable)" if p.nargs == -1 else "")
            else:
                name = ", ".join(f"`{o}`" for o in (*p.opts, *p.secondary_opts))
            kind = "flag" if getattr(p, "is_flag", False) else _type_name(p)
            default = p.default
            shown = "–" if default is None or callable(default) or default == () else f"`{_default(default)}`"
            lines.append(f"| {name} | {_cell(kind)} | {shown} | {_cell(getattr(p, 'help', '') or '')} |")
        lines.append("")
    return "\n".join(lines)


def tasks_markdown() -> str:
    from xlingmed.tasks.registry import task_specs

    lines = [
        "# Tasks",
        "",
        "Generated from the task registry (`xlingmed.tasks.registry.task_specs`), plugins included: what "
        "`--tasks` names, what a task needs of an item, the outcome its verdict is on and every `-T key=value` "
        "option with its default. `xlingmed list` prints the same.",
        "",
    ]
    for spec in task_specs().values():
        lines += [f"## `{spec.name}`", "", _cell(spec.description), ""]
        lines.append(f"- needs of an item: {', '.join(f'`{r}`' for r in spec.requires) or 'nothing'}")
        if spec.primary is not None:
            p = spec.primary
            lines.append(f"- verdict on `{p.name}`: {p.statistic} of `{p.metric}`, default margin "
                         f"`--margin {p.name}={p.margin:g}` ({p.unit})")
        else:
            lines.append("- no verdict outcome")
        lines.append(f"- judged by an LLM: {'yes' if spec.judged else 'no'}")
        lines.append("")
        lines += _options_table(spec.options, "-T")
    return "\n".join(lines)


def benchmarks_markdown() -> str:
    from xlingmed.benchmarks import benchmarks
    from xlingmed.tasks.registry import tasks_for

    lines = [
        "# Benchmarks",
        "",
        "Generated from the benchmark registry (`xlingmed.benchmarks.benchmarks`): languages, pairing, tasks, "
        "licence (as the publisher states it, with any doubt recorded), access, how each language's text was "
        "made, the `-B` options and the reference prompt a run uses by default. `xlingmed list benchmarks` "
        "prints the same; [Reproducing](../reproducing.md) says where a default run differs from each "
        "reference implementation.",
        "",
        "| benchmark | languages | parallel | licence |",
        "|---|---|---|---|",
    ]
    specs = sorted(benchmarks().items())
    for name, spec in specs:
        parallel = "yes" if spec.parallel and len(spec.languages) > 1 else "no"
        lines.append(f"| [`{name}`](#{_anchor(name)}) | {len(spec.languages)} | {parallel} | "
                     f"{_cell(spec.licence)} |")
    lines.append("")
    for name, spec in specs:
        lines += [f"## `{name}` {{ #{_anchor(name)} }}", "", _cell(spec.description), ""]
        shared = getattr(spec, "shared_id", "")
        rows = [
            ("languages", ", ".join(spec.languages)),
            ("run by default", ", ".join(spec.default_languages)),
            ("parallel", ("yes" + (f", paired by `{shared}`" if shared else "")) if spec.parallel else "no"),
            ("what items hold", ", ".join(spec.provides)),
            ("default tasks", ", ".join(spec.default_tasks)),
            ("tasks it runs", ", ".join(tasks_for(spec))),
            ("licence", spec.licence),
            ("gated", "yes" if getattr(spec, "gated", False) else "no"),
            ("restriction", getattr(spec, "restriction", "")),
            ("hub dataset", getattr(spec, "dataset", "")),
            ("home", getattr(spec, "home", "")),
            ("subsets", ", ".join(getattr(spec, "subsets", ()))),
            ("translation", "; ".join(f"{lang}: {kind}" for lang, kind in getattr(spec, "translation", ()))),
        ]
        try:
            form, source = spec.mc_prompt()
            rows.append(("reference prompt", f"`{form}`: {source}"))
        except Exception:  # a benchmark without multiple choice
            pass
        if getattr(spec, "prompt_source", ""):
            rows.append(("prompt source", spec.prompt_source))
        lines += ["| | |", "|---|---|"]
        lines += [f"| {key} | {_cell(value)} |" for key, value in rows if value]
        lines.append("")
        lines += _options_table(spec.Options, "-B")
    return "\n".join(lines)


def metrics_markdown() -> str:
    from xlingmed.metrics.registry import all_metrics

    lines = [
        "# Metrics",
        "",
        "Generated from the metric registry (`xlingmed.metrics.registry.all_metrics`): what each metric reads, "
        "how it aggregates, which direction is better, the option that selects it and its source. "
        "`xlingmed list metrics` prints the same.",
        "",
        "| metric | reads | aggregation | better | kind | option | source |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, m in all_metrics().items():
        option = "`-T answer_metrics`" if m.group == "answer_metrics" else (f"group {m.group}" if m.group else "–")
        lines.append(f"| `{name}` | {_cell(m.inputs)} | {_cell(m.aggregation)} | "
                     f"{'higher' if m.higher_is_better else 'lower'} | {_cell(m.kind)} | {option} | "
                     f"{_cell(m.source or m.description or '')} |")
    return "\n".join(lines) + "\n"


def _options_table(model: Any, flag: str) -> list[str]:
    """An options model's fields with their defaults, and what its docstrings say of them."""
    fields = model.model_fields
    if not fields:
        return []
    notes = []
    for cls in model.__mro__:
        if cls.__module__.startswith("xlingmed") and cls.__doc__ and cls.__doc__ not in notes:
            notes.append(cls.__doc__)
    out = [" ".join(" ".join(note.split()) for note in notes), ""] if notes else []
    out += [f"| `{flag}` option | default |", "|---|---|"]
    out += [f"| `{key}` | `{_default(f.default)}` |" for key, f in fields.items()]
    return [*out, ""]


def _anchor(name: str) -> str:
    return "b-" + "".join(c if c.isalnum() else "-" for c in name.lower())


PAGES = {
    "reference/cli.md": cli_markdown,
    "reference/tasks.md": tasks_markdown,
    "reference/benchmarks.md": benchmarks_markdown,
    "reference/metrics.md": metrics_markdown,
}


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File

    for uri, make in PAGES.items():
        files.append(File.generated(config, uri, content=make()))
    return files
