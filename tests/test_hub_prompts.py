"""Each hub multiple-choice benchmark asks with its reference prompt and says which (``HubBenchmark.prompt*``,
``prompts/hub.yaml``): the prompt built for a fixture item holds the question and every option, ends the way the
reference prompt ends, and the summary's ``prompt_source`` names it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import hub_fixtures as fx
import pytest

from xlingmed.benchmarks import get_benchmark, load_benchmark
from xlingmed.config import make_config
from xlingmed.config.resolve import resolve
from xlingmed.tasks.multiple_choice import build

# name -> (fixture writer, a language, how the prompt ends or what it must hold, the source's words)
CASES: dict[str, tuple[Callable[[Path], Path], str, str, str]] = {
    "global-mmlu/medical": (fx.global_mmlu, "es", "'Respuesta: X' (without quotes)", "simple-evals"),
    "mmlu-prox/health": (fx.mmlu_prox, "zh", "'答案: X' (without quotes)", "mmlu_prox"),
    "kormedmcqa": (fx.kormedmcqa, "ko", "\n정답：", "kormedmcqa/_template_yaml"),
    "medexpqa": (fx.medexpqa, "es", "\nThe correct answer is:", "PROMPT_02_MEDRAG"),
    "mmedbench": (lambda root: fx.mmedbench(root), "ja", "\n\n### Response:", "MMedLM"),
    "afrimed-qa": (fx.afrimed_qa, "en", "\n\n###Answer:", "base_mcq_no_exp"),
    "medarabench": (fx.medarabench, "ar", "single letter of the correct answer", "publishes no prompt"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_each_hub_benchmark_uses_its_reference_prompt_and_says_which(name: str, tmp_path: Path) -> None:
    write, lang, marker, source = CASES[name]
    root = write(tmp_path)
    config = make_config(None, benchmark=name, languages=lang, data_dir=root, model="openai/m")
    planned = resolve(config).tasks[0]  # the set runs multiple_choice alone
    task = build(planned.context, planned.options)  # type: ignore[arg-type]
    form, said = get_benchmark(name).mc_prompt()
    assert task.form == form and task.prompt_source == said and source in said
    assert task.max_tokens == (2048 if form == "answer_line" else 16)
    items, _ = load_benchmark(name, root, [lang])
    sample = task.samples(items[:1])[0]
    prompt = task.prompt(sample)
    item = items[0]
    stem = item.meta.get("stem") or item.question
    assert stem.strip()[:20] in prompt and all(c.text in prompt for c in item.choices), prompt
    assert marker in prompt, prompt
    if form != "answer_line" and name != "medarabench":  # the reference prompts end where the answer begins
        assert prompt.endswith(marker.strip()), prompt
