"""The run command and the run's schema name the same fields (issue 63): every ``RunConfig`` field is set from a
``run`` option (or is one of the few named below, set otherwise), and the command sets no key the schema lacks;
the class docstring documents each field. Read from the source with ``ast``: nothing runs."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

from xlingmed.config import RunConfig

RUN = Path(__file__).resolve().parents[1] / "src" / "xlingmed" / "cli" / "run.py"
NOT_FLAGS: dict[str, str] = {}  # field -> why the run command has no option for it (the list only shrinks)


def _run_command() -> ast.FunctionDef:
    tree = ast.parse(RUN.read_text(encoding="utf-8"))
    return next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "run")


def _make_config_keys(run: ast.FunctionDef) -> set[str]:
    calls = [n for n in ast.walk(run) if isinstance(n, ast.Call) and ast.unparse(n.func) == "make_config"]
    assert len(calls) == 1, "the run command builds its configuration in one make_config call"
    return {k.arg for k in calls[0].keywords if k.arg is not None} - {"trust_config", "say"}


def test_every_field_is_set_by_the_run_command_and_no_other_key() -> None:
    keys = _make_config_keys(_run_command())
    fields = set(RunConfig.model_fields)
    assert sorted(keys - fields) == []
    assert sorted(fields - keys - set(NOT_FLAGS)) == []


def test_each_option_the_command_hands_on_is_one_of_its_parameters() -> None:
    run = _run_command()
    params = {a.arg for a in run.args.args + run.args.kwonlyargs}
    calls = [n for n in ast.walk(run) if isinstance(n, ast.Call) and ast.unparse(n.func) == "make_config"]
    plain = {k.arg for k in calls[0].keywords if isinstance(k.value, ast.Name) and k.value.id == k.arg}
    assert sorted(plain - params) == []


def test_the_schema_documents_every_field() -> None:
    doc = inspect.getdoc(RunConfig) or ""
    documented = set(re.findall(r"^ {4}(\w+(?: / \w+)*(?:, \w+)*):", doc, flags=re.M))
    names = {n for entry in documented for n in re.split(r" / |, ", entry)}
    assert sorted(set(RunConfig.model_fields) - names) == []
