"""A task is built from a TaskContext: the run's settings resolved for that task, not the whole RunConfig."""

from __future__ import annotations

import pytest

from xlingmed.benchmarks.base import PAPER_TEMPERATURES
from xlingmed.config import make_config


def test_the_context_resolves_each_tasks_settings() -> None:
    cfg = make_config(benchmark="xlinghealth/liveqa", tasks="correctness,verifiability,consistency", seed=7,
                      judge="openai/judge", translator="openai/tr")  # fmt: skip
    corr, verify, cons = (cfg.task_context(t) for t in ("correctness", "verifiability", "consistency"))
    assert corr.temperatures == (0.0,) and verify.temperatures == cons.temperatures == PAPER_TEMPERATURES
    assert (corr.max_tokens, corr.max_tokens_given, corr.seed, cons.translator) == (1000, None, 7, "openai/tr")
    mcq = make_config(benchmark="medarabiq/mcq", max_tokens=16).task_context("multiple_choice")
    assert (mcq.max_tokens, mcq.max_tokens_given, mcq.languages) == (16, 16, ("ar",))
    assert mcq.benchmark.name == "medarabiq/mcq"
    with pytest.warns(DeprecationWarning, match="RunConfig.model is read for one release"):
        assert corr.model == "llamacpp/smollm2"  # a plugin task of 0.1 reading the whole config still works
    with pytest.raises(AttributeError):
        _ = corr._missing


def test_verifiability_sweeps_the_papers_five_temperatures_on_xlinghealth_only() -> None:
    """XLingEval §5, Fig. 4: verifiability over τ ∈ {0, 0.25, 0.5, 0.75, 1} on XLingHealth; elsewhere greedy unless
    --temperatures says otherwise; consistency sweeps everywhere (its metric compares samples at each τ)."""
    from xlingmed.engine.manifest import resolved_protocol

    xling = make_config(benchmark="xlinghealth/medicationqa", tasks="verifiability,consistency", judge="openai/j")
    assert resolved_protocol(xling)["temperatures"] == {"verifiability": [0.0, 0.25, 0.5, 0.75, 1.0],
                                                        "consistency": [0.0, 0.25, 0.5, 0.75, 1.0]}  # fmt: skip
    mine = make_config(benchmark="qa:questions.csv", tasks="verifiability,consistency", judge="openai/j")
    assert resolved_protocol(mine)["temperatures"] == {"verifiability": [0.0], "consistency": list(PAPER_TEMPERATURES)}
    given = make_config(benchmark="xlinghealth/medicationqa", tasks="verifiability", temperatures="0")
    assert given.task_context("verifiability").temperatures == (0.0,)


def test_language_consistency_counts_the_papers_four_languages_on_xlinghealth() -> None:
    """XLingEval App. D.3 counts sentences labelled en, es, zh or hi, whatever languages a run has: a Hindi answer
    with one Hindi and one Spanish sentence is 0.5 in Hindi under the paper's set, and 1.0 where only the run's
    languages (en, hi) count (the Spanish sentence is then ignored)."""
    from xlingmed.engine.plan import build_tasks

    only = {"consistency_metrics": "lang_consistency"}  # no encoder to load
    paper = make_config(benchmark="xlinghealth/liveqa", languages="en,hi", tasks="consistency", judge="openai/j",
                        task_args=only)  # fmt: skip
    run = make_config(benchmark="xlinghealth/liveqa", languages="en,hi", tasks="consistency", judge="openai/j",
                      task_args={**only, "language_set": "run"})  # fmt: skip
    mine = make_config(benchmark="qa:questions.csv", languages="en,hi", tasks="consistency", judge="openai/j",
                       task_args=only)  # fmt: skip
    tasks = [build_tasks(cfg)[0] for cfg in (paper, run, mine)]
    assert [t.langid_languages for t in tasks] == [("en", "es", "zh", "hi"), ("en", "hi"), ("en", "hi")]
    answer = "बुखार में आराम करें और पानी पिएं। El paracetamol baja la fiebre rápidamente en los adultos."
    shares = [t._identifier().target_share(answer, "hi") for t in tasks]
    assert shares == [0.5, 1.0, 1.0]
    assert tasks[0].settings()["langid_languages"] == ["en", "es", "zh", "hi"]


def test_healthbench_answers_as_simple_evals_samples_them() -> None:
    """simple-evals' sampler: answers of up to 2,048 tokens at temperature 0.5; the flags still override."""
    for name in ("healthbench", "healthbench-prox", "healthbenchx"):
        ctx = make_config(benchmark=name, tasks="healthbench", languages="en").task_context("healthbench")
        assert (ctx.max_tokens, ctx.temperatures) == (2048, (0.5,)), name
    given = make_config(benchmark="healthbench", max_tokens=512, temperatures="0").task_context("healthbench")
    assert (given.max_tokens, given.temperatures) == (512, (0.0,))
    assert make_config(benchmark="healthbench").benchmark_options()["limit_order"] == "simple-evals"
