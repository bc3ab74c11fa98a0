"""``resolve(config) -> RunPlan`` (issue 63): the run's configuration worked out once, frozen and typed; the plan
holds the same values the configuration's own methods give, and what may reach a Ray actor pickles."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from xlingmed.config import RunConfig, make_config
from xlingmed.config.plan import RunPlan
from xlingmed.config.resolve import resolve
from xlingmed.config.values import Shard

CONFIGS = {  # the shapes of the golden runs (tests/golden_runs.py): one each of their role and option mixes
    "liveqa": dict(benchmark="xlinghealth/liveqa", tasks="correctness,verifiability,consistency,safety",
                   judge="openai/judge", translator="openai/tr", limit=2, seed=3, max_requests=50,
                   prices=["openai/judge=1,2"], task_args={"consistency_metrics": "lang_consistency"}),
    "mcq_bias": dict(benchmark="medarabiq/mcq", perturb="bias:all", mitigations="education", judge="openai/j",
                     extractor="judge", shard="1/3"),
    "qa": dict(benchmark="medarabiq/qa", tasks="open_qa,rubric", judge="openai/j", top_p=0.9, max_tokens=64),
    "healthbench": dict(benchmark="healthbench", judge="openai/j", executor="cache"),
}


@pytest.mark.filterwarnings("ignore:RunConfig.*deprecated:DeprecationWarning")  # the methods of 0.2
@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_the_plan_holds_what_the_configuration_resolves(name: str) -> None:
    cfg = make_config(**CONFIGS[name])
    plan = resolve(cfg)
    assert isinstance(plan, RunPlan)
    assert [t.name for t in plan.tasks] == list(cfg.tasks)
    for t in plan.tasks:
        assert t.options == cfg.options(t.name)
        assert t.context == cfg.task_context(t.name)
        assert t.temperatures == cfg.task_temperatures(t.name)
        assert bool(t.roles) == bool([r for r in ("judge", "translator", "extractor") if t.name in cfg.uses(r)])
    assert plan.benchmark.options == cfg.benchmark_options()
    assert (plan.benchmark.spec, plan.benchmark.languages, plan.benchmark.limit) == (cfg.spec, cfg.languages,
                                                                                     cfg.limit)  # fmt: skip
    assert plan.settings.given == cfg.model_dump(mode="json")
    assert plan.settings.identity["judge"] == (cfg.judge_model if cfg.uses("judge") else None)
    assert plan.settings.resolved["task_options"] == {t: cfg.options(t).model_dump(mode="json") for t in cfg.tasks}
    assert plan.fail_on_error == cfg.fail_on_error and plan.executor.kind == cfg.executor
    pickle.loads(pickle.dumps(plan.roles))  # what a Ray actor builds its replica from
    assert not any(isinstance(v, RunConfig) for t in plan.tasks for v in vars(t.context).values())
    with pytest.raises(dataclasses.FrozenInstanceError):
        plan.shard = None  # type: ignore[misc]


def test_roles_shard_perturbation_and_prices_are_parsed_once() -> None:
    live = resolve(make_config(**CONFIGS["liveqa"]))
    assert list(live.roles) == ["model", "judge", "translator"]
    assert live.roles["translator"].model_id == "openai/tr" and live.roles["model"].options.args == ()
    assert live.budget.max_requests == 50 and live.budget.prices["openai/judge"].completion == 2
    assert live.settings.resolved["temperatures"]["verifiability"] == [0.0, 0.25, 0.5, 0.75, 1.0]
    bias = resolve(make_config(**CONFIGS["mcq_bias"]))
    assert bias.shard == Shard(1, 3) and bias.settings.sharded
    assert bias.perturbation is not None and bias.perturbation.mitigations == ("education",)
    assert len(bias.perturbation.biases) > 1 and list(bias.roles) == ["model", "judge", "extractor"]
    assert bias.roles["extractor"].model_id == "openai/j"
    same = resolve(make_config(benchmark="medarabiq/qa", tasks="rubric", model="openai/m", model_args={"x": 1}))
    assert same.roles["judge"] == same.roles["model"]  # the judge that is the model shares its backend
    qa = resolve(make_config(**CONFIGS["qa"]))
    assert qa.sampling == {"top_p": 0.9} and qa.settings.resolved["max_tokens"] == 64


def test_the_lazy_methods_of_0_2_warn_and_give_what_the_plan_holds() -> None:
    cfg = make_config(**CONFIGS["liveqa"], device="cpu")
    plan = resolve(cfg)
    task = plan.tasks[0]
    calls = {
        "task_context": (lambda: cfg.task_context(task.name), task.context),
        "task_temperatures": (lambda: cfg.task_temperatures(task.name), task.temperatures),
        "task_max_tokens": (cfg.task_max_tokens, task.context.max_tokens),
        "options": (lambda: cfg.options(task.name), task.options),
        "uses": (lambda: cfg.uses("translator"), [t.name for t in plan.tasks if "translator" in t.roles]),
        "benchmark_options": (cfg.benchmark_options, plan.benchmark.options),
        "encoder_device": (cfg.encoder_device, "cpu"),
    }
    for name, (call, want) in calls.items():
        with pytest.warns(DeprecationWarning, match=f"RunConfig.{name} is deprecated"):
            assert call() == want, name
