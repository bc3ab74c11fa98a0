"""What each ``RunConfig`` field carries beside its type, default and constraints (issue 63): its group, its
command-line flag(s), its short help for ``xlingmed run --help`` and its long documentation, written once, with the
field, through ``option``. The run command's options (``cli/run_options.py``) and the class's documentation are
generated from them."""

from __future__ import annotations

import textwrap
import types
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Union, cast, get_args, get_origin

from pydantic import BaseModel, Field
from pydantic_core import PydanticUndefined

# group → its title: the panel of ``xlingmed run --help`` and the heading of the documentation, in this order
GROUPS: dict[str, str] = {
    "benchmark": "Benchmark and data",
    "roles": "Models and servers",
    "generation": "Generation",
    "perturbation": "Perturbation",
    "network": "Requests",
    "budget": "Budget",
    "executor": "Executor and sharding",
    "output": "Output",
}

# how the command line gives a field: ``value`` as the field's own scalar type (bool, int, float, str, Path), ``text``
# as one string the field's validator parses (``--languages en,es``), ``list`` as a repeatable string handed on as a
# list (``--price``), ``pairs`` as a repeatable ``key=value`` made a mapping (``-T``, ``-M``, ``-B``)
CliKind = Literal["value", "text", "list", "pairs"]
SCALARS: tuple[type, ...] = (bool, int, float, str, Path)


@dataclass(frozen=True)
class FieldMeta:
    """One field's metadata: ``flags`` are the option's spellings (``("--timeout",)``,
    ``("--paper-compat/--no-paper-compat",)``, ``("-T", "--task-arg")``); ``scalar`` is the CLI type of a
    ``value`` field (``None`` otherwise)."""

    name: str
    group: str
    help: str
    doc: str
    flags: tuple[str, ...]
    kind: CliKind
    scalar: type | None


def option(
    default: Any = PydanticUndefined,
    *,
    group: str,
    help: str,
    doc: str,
    flags: tuple[str, ...] = (),
    cli: CliKind | None = None,
    default_factory: Callable[[], Any] | None = None,
    **constraints: Any,
) -> Any:
    """A pydantic ``Field`` with its metadata: ``doc`` becomes its ``description``; ``group``, ``help``, ``flags``
    (default ``--field-name``) and ``cli`` (default: ``value`` for a scalar field, else ``text``) go to its
    ``json_schema_extra``; ``constraints`` (``ge``, ``gt``, ``le``…) are the Field's own.

    Raises:
        ValueError: a group not in ``GROUPS``.
    """
    if group not in GROUPS:
        raise ValueError(f"option group {group!r}: not one of {', '.join(GROUPS)}")
    extra: dict[str, Any] = {"group": group, "help": help, "flags": list(flags)}
    if cli is not None:
        extra["cli"] = cli
    if default_factory is not None:
        return Field(default_factory=default_factory, description=doc, json_schema_extra=extra, **constraints)
    return Field(default, description=doc, json_schema_extra=extra, **constraints)


def field_meta(model: type[BaseModel]) -> dict[str, FieldMeta]:
    """Field name → its metadata, in the model's field order.

    Raises:
        TypeError: a field declared without ``option``.
    """
    out: dict[str, FieldMeta] = {}
    for name, info in model.model_fields.items():
        extra = info.json_schema_extra
        if not isinstance(extra, dict) or "group" not in extra:
            raise TypeError(f"{model.__name__}.{name}: declared without config.fields.option")
        scalar = _scalar(info.annotation)
        given = extra.get("flags")
        flags = tuple(str(f) for f in given) if isinstance(given, list) and given else (f"--{name.replace('_', '-')}",)
        kind = _kind(extra.get("cli"), scalar)
        out[name] = FieldMeta(name, str(extra["group"]), str(extra["help"]), info.description or "", flags, kind,
                              scalar if kind == "value" else None)  # fmt: skip
    return out


def _kind(given: Any, scalar: type | None) -> CliKind:
    """The ``cli`` an ``option`` named, else ``value`` for a scalar field and ``text`` for any other.

    Raises:
        ValueError: a ``cli`` that is no ``CliKind``.
    """
    if given is None:
        return "value" if scalar is not None else "text"
    for kind in get_args(CliKind):
        if given == kind:
            return cast(CliKind, kind)
    raise ValueError(f"option cli {given!r}: not one of {', '.join(get_args(CliKind))}")


def groups(model: type[BaseModel]) -> dict[str, list[str]]:
    """``{group: [field, …]}`` in the order of ``GROUPS``, each group's fields in the model's order."""
    metas = field_meta(model).values()
    return {g: names for g in GROUPS if (names := [m.name for m in metas if m.group == g])}


def documentation(model: type[BaseModel]) -> str:
    """The fields' documentation by group, for the class docstring: a Google-style block per group (an admonition
    for mkdocstrings), each field a list item ending with its flags in brackets."""
    metas = field_meta(model)
    lines = ["Fields by group (CLI flags in brackets; ``RunConfig.groups()``):", ""]
    for group, names in groups(model).items():
        lines.append(f"{GROUPS[group]}:")
        for name in names:
            m = metas[name]
            text = f"- ``{name}``: {m.doc} [{', '.join(f'``{f}``' for f in m.flags)}]"
            lines += textwrap.wrap(text, 116, initial_indent="    ", subsequent_indent="      ",
                                   break_on_hyphens=False, break_long_words=False)
        lines.append("")
    return "\n".join(lines)


def _scalar(annotation: Any) -> type | None:
    """``X`` of an annotation ``X`` or ``X | None`` where X is one of ``SCALARS``; else ``None``."""
    if get_origin(annotation) in (Union, types.UnionType):
        rest = [a for a in get_args(annotation) if a is not type(None)]
        annotation = rest[0] if len(rest) == 1 else None
    return annotation if annotation in SCALARS else None
