"""A benchmark: three multiple-choice questions in English and Spanish, built in code."""

from dataclasses import dataclass
from typing import Any

from xlingmed.benchmarks import Benchmark, LoadRequest, register_benchmark
from xlingmed.types import Choice, Item

QUESTIONS = {  # item_id -> language -> (question, options, gold label)
    "organs-1": {
        "en": ("Which organ pumps blood?", ("The heart", "The liver", "The lungs"), "A"),
        "es": ("¿Qué órgano bombea la sangre?", ("El corazón", "El hígado", "Los pulmones"), "A"),
    },
    "organs-2": {
        "en": ("Which organ filters blood into urine?", ("The kidneys", "The stomach", "The skin"), "A"),
        "es": ("¿Qué órgano filtra la sangre en orina?", ("Los riñones", "El estómago", "La piel"), "A"),
    },
    "organs-3": {
        "en": ("Where is insulin made?", ("The pancreas", "The brain", "The spleen"), "A"),
        "es": ("¿Dónde se produce la insulina?", ("El páncreas", "El cerebro", "El bazo"), "A"),
    },
}


@dataclass(frozen=True)
class OrgansBenchmark(Benchmark):
    def load(self, request: LoadRequest) -> tuple[list[Item], dict[str, Any]]:
        items = []
        for item_id, by_lang in list(QUESTIONS.items())[: request.limit]:
            for lang in request.languages:
                question, options, gold = by_lang[lang]
                choices = tuple(Choice(label, label, text) for label, text in zip("ABC", options, strict=True))
                reference = options["ABC".index(gold)]
                items.append(Item(item_id, self.name, lang, question, reference, choices=choices, gold_label=gold))
        return items, {"source": "xlingmed_example.benchmark"}


register_benchmark(
    OrgansBenchmark(
        name="example/organs",
        languages=("en", "es"),
        provides=("choices", "question", "reference"),  # every task needing no more runs on it
        default_tasks=("multiple_choice",),
        description="three anatomy questions (example plugin)",
    )
)
