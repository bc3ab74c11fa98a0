"""``-B key=value``: each benchmark validates its own options; the RunConfig fields of 0.1 still reach it."""

from __future__ import annotations

import re
from pathlib import Path

import hub_fixtures as fx
import pytest
import yaml
from typer.testing import CliRunner

from xlingmed.cli import app
from xlingmed.config import make_config
from xlingmed.config.resolve import resolve
from xlingmed.errors import ConfigError


def test_each_benchmark_takes_its_own_options_and_refuses_others(data_dir: Path) -> None:
    cfg = make_config(benchmark="xlinghealth/liveqa", data_dir=data_dir, benchmark_args={"include_defective": "true"})
    assert resolve(cfg).benchmark.options == {"include_defective": True}
    old = make_config(benchmark="xlinghealth/liveqa", data_dir=data_dir, include_defective=True)  # the 0.1 field
    assert resolve(old).benchmark.options == {"include_defective": True}
    assert resolve(make_config(benchmark="xlinghealth/liveqa")).benchmark.options == {"include_defective": False}
    with pytest.raises(ConfigError, match=r"xlinghealth/liveqa\): subset: Extra inputs are not permitted; its "
                                          r"options: include_defective"):  # fmt: skip
        make_config(benchmark="xlinghealth/liveqa", benchmark_args={"subset": "lite"})
    with pytest.raises(ConfigError, match="its options: subset, provenance, hf_split, strict_data, medical"):
        make_config(benchmark="global-mmlu/medical", subset=None, include_defective=True)
    hub = make_config(benchmark="global-mmlu/medical", benchmark_args={"provenance": "human", "subset": "lite"})
    assert resolve(hub).benchmark.options == {"subset": "lite", "provenance": ("human",), "hf_split": None,
                                       "strict_data": False, "medical": "reference"}  # fmt: skip
    table = make_config(benchmark="mcq:x.csv", benchmark_args={"columns": "question=stem,answer=gold"})
    assert resolve(table).benchmark.options == {"columns": {"question": "stem", "answer": "gold"},
                                                "answer_format": "auto", "strict_data": False}  # fmt: skip
    with pytest.raises(ConfigError, match="answer_format: Input should be 'auto'"):
        make_config(benchmark="mcq:x.csv", benchmark_args={"answer_format": "roman"})


def test_b_flag_and_yaml_reach_the_loader(tmp_path: Path) -> None:
    root = fx.global_mmlu(tmp_path / "data", "CohereLabs/Global-MMLU-Lite", ("en",))  # what -B subset=lite reads
    yaml_file = tmp_path / "run.yaml"
    yaml_file.write_text(yaml.safe_dump({"benchmark": "global-mmlu/medical", "benchmark_args": {"subset": "lite"}}))
    flag = ["run", "--benchmark", "global-mmlu/medical", "--data-dir", str(root), "--languages", "en", "--dry-run"]
    for args in ([*flag, "-B", "subset=lite"], ["run", "--config", str(yaml_file), *flag[3:]]):
        res = CliRunner().invoke(app, args, env={"COLUMNS": "250"})
        assert res.exit_code == 0, res.output
        # Lite's three medical questions in English (its fourth row is not medical)
        assert re.search(r"multiple_choice answer\s*│\s*en\s*│\s*0\s*│\s*3\s*│", res.output), res.output
    res = CliRunner().invoke(app, [*flag, "-B", "columns=question=stem"], env={"COLUMNS": "250"})
    assert res.exit_code == 2 and "its options: subset, provenance, hf_split, strict_data, medical" in res.output

    cfg = make_config(benchmark="global-mmlu/medical", data_dir=root, benchmark_args={"subset": "lite"})
    assert resolve(cfg).settings.resolved["benchmark_options"] == {"subset": "lite", "provenance": (), "hf_split": None,
                                                           "strict_data": False, "medical": "reference"}  # fmt: skip
