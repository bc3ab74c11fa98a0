"""A task is built from a TaskContext: the run's settings resolved for that task, not the whole RunConfig."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from xlingmed.benchmarks.base import PAPER_TEMPERATURES
from xlingmed.config import RunConfig, make_config
from xlingmed.config.resolve import resolve
from xlingmed.tasks.context import TaskContext


def _context(cfg: RunConfig, task: str) -> TaskContext:
    return next(t.context for t in resolve(cfg).tasks if t.name == task)  # the plan's (issue 63)


def test_the_context_resolves_each_tasks_settings() -> None:
    cfg = make_config(benchmark="xlinghealth/liveqa", tasks="correctness,verifiability,consistency", seed=7,
                      judge="openai/judge", translator="openai/tr")  # fmt: skip
    corr, verify, cons = (_context(cfg, t) for t in ("correctness", "verifiability", "consistency"))
    assert corr.temperatures == (0.0,) and verify.temperatures == cons.temperatures == PAPER_TEMPERATURES
    assert (corr.max_tokens, corr.max_tokens_given, corr.seed, cons.translator) == (1000, None, 7, "openai/tr")
    mcq = _context(make_config(benchmark="medarabiq/mcq", max_tokens=16), "multiple_choice")
    assert (mcq.max_tokens, mcq.max_tokens_given, mcq.languages) == (16, 16, ("ar",))
    assert mcq.benchmark.name == "medarabiq/mcq"
    with pytest.warns(DeprecationWarning, match="RunConfig.model is read for one release"):
        assert corr.model == "llamacpp/smollm2"  # a plugin task of 0.1 reading the whole config still works
    with pytest.raises(AttributeError):
        _ = corr._missing


def test_verifiability_sweeps_the_papers_five_temperatures_on_xlinghealth_only() -> None:
    """XLingEval §5, Fig. 4: verifiability over τ ∈ {0, 0.25, 0.5, 0.75, 1} on XLingHealth; elsewhere greedy unless
    --temperatures says otherwise; consistency sweeps everywhere (its metric compares samples at each τ)."""
    xling = make_config(benchmark="xlinghealth/medicationqa", tasks="verifiability,consistency", judge="openai/j")
    assert resolve(xling).settings.resolved["temperatures"] == {"verifiability": [0.0, 0.25, 0.5, 0.75, 1.0],
                                                        "consistency": [0.0, 0.25, 0.5, 0.75, 1.0]}  # fmt: skip
    mine = make_config(benchmark="qa:questions.csv", tasks="verifiability,consistency", judge="openai/j")
    assert resolve(mine).settings.resolved["temperatures"] == {"verifiability": [0.0],
                                                              "consistency": list(PAPER_TEMPERATURES)}  # fmt: skip
    given = make_config(benchmark="xlinghealth/medicationqa", tasks="verifiability", temperatures="0")
    assert _context(given, "verifiability").temperatures == (0.0,)


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
        ctx = _context(make_config(benchmark=name, tasks="healthbench", languages="en"), "healthbench")
        assert (ctx.max_tokens, ctx.temperatures) == (2048, (0.5,)), name
    given = _context(make_config(benchmark="healthbench", max_tokens=512, temperatures="0"), "healthbench")
    assert (given.max_tokens, given.temperatures) == (512, (0.0,))
    assert resolve(make_config(benchmark="healthbench")).benchmark.options["limit_order"] == "simple-evals"


def test_consistency_answers_are_uncapped_as_in_the_paper(data_dir: Path, tmp_path: Path) -> None:
    """XLingEval set no token cap on consistency's answers: the request carries none (the OpenAI body has no
    max_tokens), unless -T consistency_max_tokens or --max-tokens says otherwise; back-translations keep theirs."""
    from fault_server import FaultServer, ok

    from xlingmed.engine.plan import build_tasks
    from xlingmed.runner import evaluate

    only = {"consistency_metrics": "ngram", "samples": 2}
    base = {"benchmark": "xlinghealth/liveqa", "tasks": "consistency", "judge": "openai/j", "task_args": only}
    assert build_tasks(make_config(**base))[0].max_tokens is None
    assert build_tasks(make_config(**base, max_tokens=64))[0].max_tokens == 64
    capped = make_config(**{**base, "task_args": {**only, "consistency_max_tokens": 200}}, max_tokens=64)
    assert build_tasks(capped)[0].max_tokens == 200

    bodies: list[dict[str, Any]] = []

    class Script:
        with_payload = True

        def __call__(self, prompt: str, attempt: int, payload: dict[str, Any]) -> object:
            bodies.append(payload)
            return ok("Rest and fluids.")  # an answer, and its back-translation

    with FaultServer(Script()) as server:
        cfg = make_config(**base, data_dir=data_dir, languages="en,es", limit=1, temperatures="0", model="openai/m",
                          base_url=server.url, judge_base_url=server.url, out=tmp_path / "run")  # fmt: skip
        evaluate(cfg)
    answers = [b for b in bodies if b["model"] == "m"]
    translations = [b for b in bodies if b["model"] == "j"]
    assert len(answers) == 4 and all("max_tokens" not in b for b in answers)  # 2 samples × en, es
    assert translations and all(b["max_tokens"] == 1000 for b in translations)
