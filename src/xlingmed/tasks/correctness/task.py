"""Correctness (XLingEval paper §3.1, Table 1; spec §2).

Phase 1: the model answers each question in the item's language (system prompt of spec Appendix A.4,
temperature 0, max_tokens 1000). Phase 2: a judge compares the answer with the expert answer in the same
language and picks one of four labels (``xlingmed.tasks.correctness.judge``). Output: label counts per language in
the layout of the paper's Table 1, and the change against English.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import Field, field_validator

from xlingmed.languages import get_language
from xlingmed.metrics.registry import add_answer_metrics, answer_metric_means, answer_metric_scores, check_names
from xlingmed.prompts import medalpaca
from xlingmed.tasks.base import Stage, cell, error_of, temperature_of
from xlingmed.tasks.common import ANSWER_SYSTEM, PromptStyle
from xlingmed.tasks.correctness.judge import (
    JUDGE_PARSERS,
    JUDGE_SYSTEM,
    JUDGE_TEMPLATE,
    LABEL_NAMES,
    LABELS,
    NO_RESPONSE,
    parse_judgement,
)
from xlingmed.tasks.correctness.summary import CorrectnessSummary, LanguageLabels, PaperHeadline
from xlingmed.tasks.registry import TaskOptions, one_of
from xlingmed.types import Completion, GenerateRequest, Item, Message, Parsed, Sample, Score

if TYPE_CHECKING:
    from xlingmed.tasks.context import TaskContext


@dataclass(frozen=True)
class CorrectnessTask:
    """Settings: ``answer_max_tokens`` / ``judge_max_tokens`` (paper: 1000 each), ``judge_parser``
    (``paper`` or ``paper+fallback``), ``seed`` sent with every request, ``temperature`` of the answer
    (paper: 0; the judge always uses 0), ``answer_metrics`` registered answer metrics computed against the
    expert answer (``metrics/registry.py``)."""

    answer_max_tokens: int = 1000
    judge_max_tokens: int = 1000
    judge_parser: str = "paper"
    temperature: float = 0.0
    seed: int | None = None
    answer_metrics: tuple[str, ...] = ()
    prompt_style: str = "paper"

    name: ClassVar[str] = "correctness"
    stages: ClassVar[tuple[Stage, ...]] = (Stage("answer", "model"), Stage("judge", "judge"))
    samples_by_item: ClassVar[bool] = True  # samples(items) = each item's samples in turn (engine/plan.py)

    def samples(self, items: Sequence[Item]) -> list[Sample]:
        return [Sample(item=it, task=self.name, key="answer", temperature=self.temperature) for it in items]

    def request(self, stage: str, sample: Sample, prior: Mapping[str, Completion]) -> GenerateRequest | None:
        item = sample.item
        language = get_language(item.lang).name
        if stage == "answer" and self.prompt_style == "medalpaca":
            instruction = ANSWER_SYSTEM.format(language=language)
            return medalpaca.request(
                medalpaca.correctness_prompt(item, instruction),
                temperature=max(self.temperature, medalpaca.GREEDY_TEMPERATURE),
                max_tokens=self.answer_max_tokens,
                seed=self.seed,
            )
        if stage == "answer":
            return GenerateRequest(
                messages=(
                    Message("system", ANSWER_SYSTEM.format(language=language)),
                    Message("user", item.question),
                ),
                temperature=self.temperature,
                max_tokens=self.answer_max_tokens,
                seed=self.seed,
            )
        answer = prior.get("answer")
        if answer is None or not answer.ok or not answer.text.strip():
            return None  # failed or empty answers are not judged
        prompt = JUDGE_TEMPLATE.format(
            language=language, question=item.question, reference=item.reference, answer=answer.text.strip()
        )
        return GenerateRequest(
            messages=(Message("system", JUDGE_SYSTEM), Message("user", prompt)),
            temperature=0.0,
            max_tokens=self.judge_max_tokens,
            seed=self.seed,
        )

    def parse(self, stage: str, sample: Sample, completion: Completion) -> Parsed | None:
        if stage != "judge" or not completion.ok:
            return None
        return parse_judgement(completion.text, self.judge_parser)

    def record(
        self, sample: Sample, completions: Mapping[str, Completion], parsed: Mapping[str, Parsed | None] | None = None
    ) -> dict[str, Any]:
        """One row per sample; ``parsed``: the replies as the engine parsed them (``parse``), else parsed here."""
        answer = completions.get("answer")
        judge = completions.get("judge")
        error = error_of(completions)
        if error is not None:
            label, method = None, "error"
        elif answer is not None and not answer.text.strip():
            label, method = NO_RESPONSE, "empty_answer"
        elif judge is not None:
            reading = parsed.get("judge") if parsed else None  # as the engine parsed it, else read here
            if reading is None:
                reading = parse_judgement(judge.text, self.judge_parser)
            label, method = reading.value, reading.method
        else:
            label, method = None, "missing"
        return {
            "item_id": sample.item.item_id,
            "lang": sample.item.lang,
            "question": sample.item.question,
            "reference": sample.item.reference,
            "answer": answer.text if answer else "",
            "label": label,
            "parse_method": method,
            "judge_reasoning": judge.text if judge else "",
            "error": error,
        }

    def enrich(self, records: Sequence[dict[str, Any]], languages: Sequence[str]) -> list[dict[str, Any]]:
        """One row per sample, a copy of its record plus a column per answer metric (``-T answer_metrics``)."""
        rows = [dict(r) for r in records]
        if self.answer_metrics:
            add_answer_metrics(rows, self.answer_metrics, answer="answer")
        return rows

    def summarize(self, units: Sequence[Score], languages: Sequence[str]) -> CorrectnessSummary:
        """Per language, from the task's Scores alone (one unit per answer, the judge's label as ``answer``):
        ``CorrectnessSummary``."""
        answers = [s for s in units if s.metric == OUTCOMES[0][0]]
        base: dict[str, dict[str, Any]] = {}
        for lang in languages:
            mine = [s for s in answers if s.lang == lang]
            labelled = [s.answer for s in mine if s.answer is not None]
            n = len(labelled)
            counts = {lab: labelled.count(lab) for lab in LABELS}
            methods: dict[str | None, int] = {}
            for s in mine:
                methods[s.parse_method] = methods.get(s.parse_method, 0) + 1
            base[lang] = {
                "n": n,
                "n_items": len(mine),
                "n_errors": len(mine) - n,
                "counts": counts,
                "proportions": {lab: (c / n if n else None) for lab, c in counts.items()},
                "parse_methods": methods,
            }
        en = base.get("en")
        per_lang: dict[str, LanguageLabels] = {}
        for lang, stats in base.items():
            if en is None or not en["n"] or not stats["n"]:
                per_lang[lang] = LanguageLabels(**stats, change_vs_en_pp=None, ratio_vs_en=None)
                continue
            change = {lab: 100.0 * (stats["proportions"][lab] - en["proportions"][lab]) for lab in LABELS}
            ratio = {lab: (stats["counts"][lab] / en["counts"][lab] if en["counts"][lab] else None) for lab in LABELS}
            per_lang[lang] = LanguageLabels(**stats, change_vs_en_pp=change, ratio_vs_en=ratio)
        extra: dict[str, Any] = {}
        if self.answer_metrics:
            extra["answer_metrics"] = answer_metric_means(units, self.answer_metrics, languages)
        if en is not None and len(languages) > 1:  # the abstract's two numbers, for this run as one dataset
            from xlingmed.analysis.paper import headline_numbers

            h = headline_numbers({"run": {lg: s["counts"] for lg, s in base.items()}})
            extra["paper_headline"] = PaperHeadline(
                fewer_comprehensive_pp=h["fewer_comprehensive_pp"],
                times_more_contradictory=h["times_more_contradictory"],
                inputs=h["per_dataset"]["run"],
                dropped={k: v["run"] for k, v in h["dropped"].items() if "run" in v},
            )
        return CorrectnessSummary(labels=list(LABELS), label_names=LABEL_NAMES, languages=per_lang, **extra)


class CorrectnessOptions(TaskOptions):
    """``-T`` options of correctness: ``judge_parser`` (``paper`` | ``paper+fallback``), ``judge_max_tokens``
    (paper: 1000), ``answer_metrics`` (registered answer metrics against the expert answer, e.g. token_f1),
    ``prompt_style`` (``paper`` | ``medalpaca``: spec §6.3's Alpaca prompt, at temperature 0.001)."""

    judge_parser: str = "paper"
    judge_max_tokens: int = Field(default=1000, ge=1)
    answer_metrics: tuple[str, ...] = ()
    prompt_style: PromptStyle = "paper"

    @field_validator("answer_metrics", mode="before")
    @classmethod
    def _answer_metrics(cls, v: Any) -> tuple[str, ...]:
        return check_names(v)

    @field_validator("judge_parser")
    @classmethod
    def _judge_parser(cls, v: str) -> str:
        return one_of(v, JUDGE_PARSERS)


def build(context: TaskContext, options: CorrectnessOptions) -> CorrectnessTask:
    return CorrectnessTask(
        answer_max_tokens=context.max_tokens,
        judge_max_tokens=options.judge_max_tokens,
        judge_parser=options.judge_parser,
        seed=context.seed,
        answer_metrics=options.answer_metrics,
        prompt_style=options.prompt_style,
    )


# The binary outcomes of a judge label; "more comprehensive" is the outcome behind the paper's headline (18.12 %
# fewer in non-English languages), the others are lower-is-better.
OUTCOMES: tuple[tuple[str, str, bool], ...] = (
    ("more_comprehensive", "more", True),
    ("contradictory", "contradictory", False),
    ("less_comprehensive", "less", False),
)


def scores(rows: Sequence[Mapping[str, Any]]) -> list[Score]:
    """Per question: one binary Score per outcome of ``OUTCOMES``, with the judge's label as ``answer``;
    ``None`` where there is no label (a failed request)."""
    out = []
    for r in rows:
        label = cell(r.get("label"))
        for metric, wanted, higher in OUTCOMES:
            out.append(
                Score(
                    item_id=str(r["item_id"]), lang=str(r["lang"]), task="correctness", metric=metric,
                    value=None if label is None else float(label == wanted), temperature=temperature_of(r),
                    kind="binary", higher_is_better=higher, parse_method=cell(r.get("parse_method")),
                    answer=None if label is None else str(label),
                )
            )  # fmt: skip
        out += answer_metric_scores(r, "correctness", temperature_of(r))
    return out
