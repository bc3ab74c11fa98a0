"""The test environment is reproducible (issue 58): the README's test command installs with ``-c constraints.txt``,
and that file pins every package the ``dev`` install brings, so a new release upstream cannot change the suite's
results on a day nobody changed the code. A dependency added to ``pyproject.toml`` without running
``.ci/update-constraints`` fails here, naming it."""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parents[1]


def _pinned() -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in (REPO / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, version = line.split("==")
            pins[canonicalize_name(name)] = version.strip()
    return pins


def _closure(name: str, extras: frozenset[str]) -> set[str]:
    """Every distribution ``name[extras]`` needs, by the installed packages' own metadata, markers evaluated."""
    needed: set[str] = set()
    visited: set[tuple[str, frozenset[str]]] = set()
    todo = [(canonicalize_name(name), extras)]
    while todo:
        dist, wanted = todo.pop()
        if (dist, wanted) in visited:
            continue
        visited.add((dist, wanted))
        for text in metadata.requires(dist) or []:
            req = Requirement(text)
            if req.marker is None or any(req.marker.evaluate({"extra": e}) for e in wanted | {""}):
                needed.add(canonicalize_name(req.name))
                todo.append((canonicalize_name(req.name), frozenset(req.extras)))
    return needed


def test_constraints_pin_every_package_the_test_install_brings() -> None:
    pins = _pinned()
    needed = _closure("xlingmed", frozenset({"dev"}))
    assert "torch" in needed and "bert-score" in needed  # the closure is really walked
    assert sorted(needed - set(pins) - {"xlingmed"}) == [], "run .ci/update-constraints (its header says how)"
    assert all(re.fullmatch(r"[0-9][0-9A-Za-z.+!-]*", v) for v in pins.values())


def test_the_readme_test_command_installs_with_the_constraints() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    command = readme.split("<!-- test-command -->", 1)[1].split("```bash", 1)[1].split("```", 1)[0]
    run = readme.split("<!-- run-command -->", 1)[1].split("```bash", 1)[1].split("```", 1)[0]
    assert "-c constraints.txt" in command and "constraints" not in run  # the user's own install is not pinned
