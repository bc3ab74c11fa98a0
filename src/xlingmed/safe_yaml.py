"""YAML from others (configs, prompt templates), read with caps on its size and on the nodes its aliases expand to.

``yaml.safe_load`` builds no objects of a file's choosing, but a "billion laughs" file (nine aliases, each a list
of nine of the one before) stays small on disk and in the loader, and explodes in whatever walks the result:
pydantic validating ``prices:`` reached 2.9 GB (issue 60). The document is composed first, its nodes counted as
they expand through aliases, and only a document under the cap is built.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from xlingmed.errors import ConfigError

MAX_YAML_BYTES = 1_000_000  # a run configuration or a prompt file is a few kilobytes
MAX_YAML_NODES = 100_000  # scalars, sequences and mappings, each alias counted as what it expands to


def load_yaml(path: str | Path, what: str, *, max_bytes: int = MAX_YAML_BYTES, max_nodes: int = MAX_YAML_NODES) -> Any:
    """The YAML document of ``path``, as ``yaml.safe_load`` would build it.

    Raises:
        ConfigError: unreadable, not UTF-8, over ``max_bytes`` bytes, malformed, or over ``max_nodes`` nodes once
            its aliases are expanded; the message starts with ``what`` (``"config file run.yaml"``) and names the
            cap.
    """
    path = Path(path)
    try:
        with path.open("rb") as fh:
            raw = fh.read(max_bytes + 1)
    except OSError as exc:
        raise ConfigError(f"{what}: {exc.strerror or exc}") from None
    if len(raw) > max_bytes:
        raise ConfigError(f"{what}: larger than {max_bytes:,} bytes (the cap on a YAML file)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{what}: not UTF-8 text (byte {exc.start})") from None
    return loads_yaml(text, what, max_nodes=max_nodes)


def loads_yaml(text: str, what: str, *, max_nodes: int = MAX_YAML_NODES) -> Any:
    """``load_yaml`` of a text already read.

    Raises:
        ConfigError: malformed, or over ``max_nodes`` nodes once expanded.
    """
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _count(node, max_nodes, what)
        return loader.construct_document(node)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{what}: {_one_line(exc)}") from None
    except RecursionError:
        raise ConfigError(f"{what}: nested too deeply") from None
    except (ValueError, OverflowError) as exc:  # a 5,000-digit number, a date that is none
        raise ConfigError(f"{what}: a value that cannot be read ({str(exc)[:120]})") from None
    finally:
        loader.dispose()


def _one_line(exc: yaml.YAMLError) -> str:
    """PyYAML's error (several lines, with a caret under the text) as one line: what, and where."""
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    mark = getattr(exc, "problem_mark", None)
    where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
    opened = getattr(exc, "context_mark", None)
    if opened is not None and mark is not None and opened.line != mark.line:
        where = f" (line {mark.line + 1}, column {mark.column + 1}; opened at line {opened.line + 1})"
    context = getattr(exc, "context", None)
    return f"{context + ': ' if context else ''}{problem}{where}"


def _count(root: yaml.Node, cap: int, what: str) -> None:
    """Walk ``root`` as its aliases expand (a node reached twice counts twice), stopping at ``cap``."""
    stack: list[yaml.Node] = [root]
    seen = 0
    while stack:
        node = stack.pop()
        seen += 1
        if seen > cap:
            raise ConfigError(f"{what}: more than {cap:,} YAML nodes once its aliases are expanded (the cap)")
        if isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                stack.extend((key, value))
