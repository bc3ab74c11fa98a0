"""The run command is generated from the run's schema (issue 63): every ``RunConfig`` field carries its group, help
and documentation; ``xlingmed run`` has exactly one option per field (plus its own few), with the flags of 0.1,
shown under its group's panel; and the parsed values reach ``make_config`` under the field's name. Nothing runs a
model."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from xlingmed.cli import app
from xlingmed.cli.run_options import config_overrides
from xlingmed.config import RunConfig
from xlingmed.config.fields import GROUPS, field_meta
from xlingmed.errors import ConfigError

# the run command's own options, set on no field
NOT_FIELDS = {"dry_run", "config", "trust_config", "quiet", "report", "output_format"}
# the flags that are not --field-name (0.1's spellings, kept)
FLAGS = {
    "timeout_s": ["--timeout"],
    "retry_cap_s": ["--retry-cap"],
    "prices": ["--price"],
    "task_args": ["--task-arg", "-T"],
    "model_args": ["--model-arg", "-M"],
    "benchmark_args": ["--benchmark-arg", "-B"],
    "include_defective": ["--exclude-defective", "--include-defective"],
    "paper_compat": ["--no-paper-compat", "--paper-compat"],
}
BOOL_FLAGS = {"strict_data", "retry_failed", "private"}  # a flag with no --no- form, as in 0.1


def _run_params() -> dict[str, Any]:
    command = typer.main.get_command(app).commands["run"]  # type: ignore[attr-defined]
    return {p.name: p for p in command.params}


def test_every_field_has_a_known_group_a_description_and_a_help() -> None:
    metas = field_meta(RunConfig)
    assert sorted(metas) == sorted(RunConfig.model_fields)
    for name, meta in metas.items():
        assert meta.group in GROUPS, name
        assert meta.doc.strip() and meta.help.strip(), name
    grouped = [n for names in RunConfig.groups().values() for n in names]
    assert sorted(grouped) == sorted(RunConfig.model_fields) and len(grouped) == len(set(grouped))
    assert list(RunConfig.groups()) == [g for g in GROUPS if g in RunConfig.groups()]


def test_the_schema_documents_every_field_by_group() -> None:
    doc = inspect.getdoc(RunConfig) or ""
    for group, names in RunConfig.groups().items():
        assert f"\n{GROUPS[group]}:\n" in doc, group
        for name in names:
            assert f"- ``{name}``: " in doc, name


def test_the_command_has_one_option_per_field_with_its_flags() -> None:
    params = _run_params()
    assert sorted(set(params) - set(RunConfig.model_fields)) == sorted(NOT_FIELDS)
    assert sorted(set(RunConfig.model_fields) - set(params)) == []
    for name in RunConfig.model_fields:
        p = params[name]
        flags = sorted((*p.opts, *p.secondary_opts))
        assert flags == sorted(FLAGS.get(name, ["--" + name.replace("_", "-")])), name
        assert p.default is None and not p.required, name
        if name in BOOL_FLAGS:
            assert p.is_flag and not p.secondary_opts, name
    for name in ("prices", "task_args", "model_args", "benchmark_args"):
        assert params[name].multiple, name


def test_help_shows_each_group_as_a_panel() -> None:
    result = CliRunner().invoke(app, ["run", "--help"], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    for title in {GROUPS[g] for g in RunConfig.groups()}:
        assert f"─ {title} ─" in result.output, title
    assert "--timeout" in result.output and "--include-defective" in result.output


def _parsed(*args: str) -> tuple[dict[str, Any], list[str]]:
    """The options ``run`` receives for ``args``, parsed by the real command, nothing run."""
    command = typer.main.get_command(app).commands["run"]  # type: ignore[attr-defined]
    ctx = command.make_context("run", list(args))
    fields = set(RunConfig.model_fields)
    return {k: v for k, v in ctx.params.items() if k in fields}, ctx.args


def test_parsed_values_become_make_config_keywords() -> None:
    options, extra = _parsed("--timeout", "5", "--price", "a/b=1,2", "--no-paper-compat", "-T", "samples=3",
                             "-M", "n_gpu_layers=0", "--languages", "en,es", "--strict-data", "--judge-max-tokens",
                             "16")  # fmt: skip
    kwargs = config_overrides(options, extra)
    assert kwargs == {
        "timeout_s": 5.0,
        "prices": ["a/b=1,2"],
        "paper_compat": False,
        "task_args": {"judge_max_tokens": "16", "samples": "3"},
        "model_args": {"n_gpu_layers": "0"},
        "languages": "en,es",
        "strict_data": True,
    }
    assert config_overrides(*_parsed()) == {}  # unset: absent, make_config keeps the file's or the default


def test_the_minus_t_option_wins_over_a_task_flag_of_0_1() -> None:
    assert config_overrides(*_parsed("--samples", "2", "-T", "samples=4"))["task_args"] == {"samples": "4"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-T", "samples"], "-T 'samples': expected key=value"),
        (["-B", "=x"], "-B '=x': expected key=value"),
        (["--no-such-flag"], "no such option: --no-such-flag"),
        (["--samples"], "option --samples needs a value"),
    ],
)
def test_bad_key_values_and_extra_arguments_are_config_errors(args: list[str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        config_overrides(*_parsed(*args))


def test_the_overrides_make_a_config() -> None:
    from xlingmed.config import make_config

    kwargs = config_overrides(*_parsed("--benchmark", "xlinghealth/liveqa", "--timeout", "5", "--price",
                                       "openai/gpt-4o=2.5,10", "--out", "x", "-T", "judge_max_tokens=16"))  # fmt: skip
    cfg = make_config(None, **kwargs)
    assert cfg.timeout_s == 5.0 and cfg.prices == {"openai/gpt-4o": (2.5, 10.0)} and cfg.out == Path("x")
    assert cfg.task_args["judge_max_tokens"] == 16
