"""``xlingmed run``'s options generated from the ``RunConfig`` fields (issue 63): one Typer option per field, with
the field's flags, help and group (a panel of ``--help``) from its metadata (``config.fields``), and the parsed
values turned back into ``make_config``'s keyword arguments. No field is named here."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar, cast

import typer

from xlingmed.config.fields import GROUPS, FieldMeta, field_meta
from xlingmed.config.run_config import RunConfig
from xlingmed.errors import ConfigError

F = TypeVar("F", bound=Callable[..., Any])

# the task flags of 0.1 (``--samples 5``, unknown to the command, so in ``ctx.args``) are aliases of this field's -T
LEGACY_FLAGS_FIELD = "task_args"


def schema_options(command: F) -> F:
    """``command``, a function taking ``**options``, with one keyword-only parameter per ``RunConfig`` field added
    to its ``__signature__`` and ``__annotations__`` (what Typer reads), each defaulting to ``None`` (unset); Typer
    then calls it with ``options`` = field name → parsed value.

    Raises:
        TypeError: ``command`` takes no ``**options``, or has a parameter named like a field.
    """
    signature = inspect.signature(command, eval_str=True)
    params = list(signature.parameters.values())
    if not any(p.kind is p.VAR_KEYWORD for p in params):
        raise TypeError(f"{command.__name__} takes no **options for the RunConfig fields")
    clash = sorted(set(signature.parameters) & set(RunConfig.model_fields))
    if clash:
        raise TypeError(f"{command.__name__}: parameters named like RunConfig fields: {', '.join(clash)}")
    own = [p for p in params if p.kind is not p.VAR_KEYWORD]
    leading = [p for p in own if p.kind is not p.KEYWORD_ONLY]  # ctx
    generated = [option_parameter(m) for m in schema_fields().values()]
    new = signature.replace(parameters=[*leading, *generated, *(p for p in own if p.kind is p.KEYWORD_ONLY)])
    target = cast(Any, command)  # a function: its signature and annotations are plain attributes
    target.__signature__ = new
    target.__annotations__ = {p.name: p.annotation for p in new.parameters.values()} | {"return": None}
    return command


def schema_fields() -> dict[str, FieldMeta]:
    """Field → metadata, in the order of ``--help``: by group (``GROUPS``), then the model's order."""
    metas = field_meta(RunConfig)
    return {name: metas[name] for names in RunConfig.groups().values() for name in names}


def option_parameter(meta: FieldMeta) -> inspect.Parameter:
    """The keyword-only parameter of one field: its CLI type (``cli_type``), ``None`` by default, its flags, help
    and panel."""
    option = typer.Option(None, *meta.flags, help=meta.help, rich_help_panel=GROUPS[meta.group])
    return inspect.Parameter(meta.name, inspect.Parameter.KEYWORD_ONLY, default=option, annotation=cli_type(meta))


def cli_type(meta: FieldMeta) -> Any:
    """What Typer parses a field as: its scalar type (``bool``, ``int``, ``float``, ``str``, ``Path``), ``str`` for
    what the field's validator parses from text (tuples, mappings, choices: ``--languages en,es``), ``list[str]``
    for a repeatable option; each ``| None``."""
    if meta.kind in ("list", "pairs"):
        return list[str] | None
    if meta.kind == "value" and meta.scalar is not None:
        return meta.scalar | None
    return str | None


def config_overrides(options: Mapping[str, Any], extra_args: Sequence[str] = ()) -> dict[str, Any]:
    """The parsed options (field → value, ``None`` when not given) as ``make_config``'s keyword arguments: unset
    ones left out, a ``pairs`` option (``-T``, ``-M``, ``-B``) made a mapping, a ``list`` one (``--price``) a list;
    ``extra_args``, the task flags of 0.1, join ``task_args`` under the ``-T`` options.

    Raises:
        ConfigError: a field the schema lacks, a ``key=value`` entry without ``=``, an extra argument that is no
            task option or lacks its value.
    """
    metas = field_meta(RunConfig)
    out: dict[str, Any] = {}
    legacy = legacy_task_flags(list(extra_args))
    for name, value in options.items():
        if name not in metas:
            raise ConfigError(f"no such field: {name}")
        if value is not None and metas[name].kind == "pairs":
            value = key_values(value, metas[name].flags[0])
        if value is not None and metas[name].kind == "list":
            value = list(value)
        if value is not None and value != [] and value != {}:
            out[name] = value
    if legacy:
        out[LEGACY_FLAGS_FIELD] = {**legacy, **out.get(LEGACY_FLAGS_FIELD, {})}
    return out


def key_values(pairs: Sequence[str] | None, flag: str) -> dict[str, str]:
    """``["k=v", …]`` → ``{"k": "v"}``; the values are validated by the options model they reach.

    Raises:
        ConfigError: an entry without ``=``.
    """
    out: dict[str, str] = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"{flag} {pair!r}: expected key=value")
        out[key.strip()] = value  # kept as given: a value may start with a space
    return out


def legacy_task_flags(args: list[str]) -> dict[str, Any]:
    """The task options given as ``--key value`` / ``--key=value`` / ``--flag`` / ``--no-flag`` (the flags
    before 0.2), read against the task registry: every task option is accepted this way.

    Raises:
        ConfigError: an argument that is no task option, or one without its value.
    """
    from xlingmed.tasks.registry import task_specs

    fields = {k: f for spec in task_specs().values() for k, f in spec.options.model_fields.items()}
    out: dict[str, Any] = {}
    it = iter(args)
    for token in it:
        name, eq, value = token.partition("=")
        key = name.removeprefix("--").replace("-", "_")
        negated = key.removeprefix("no_")
        if not name.startswith("--"):
            raise ConfigError(f"unexpected argument {token!r}")
        if key in fields and fields[key].annotation is bool and not eq:
            out[key] = True
        elif negated in fields and fields[negated].annotation is bool and not eq and key != negated:
            out[negated] = False
        elif key in fields:
            if not eq:
                value = next(it, None)  # type: ignore[assignment]
                if value is None:
                    raise ConfigError(f"option {name} needs a value")
            out[key] = value
        else:
            raise ConfigError(f"no such option: {name} (task options: -T key=value; see `xlingmed list`)")
    return out
