"""LLM-as-judge rubric on open answers (MedArabiQ App. J, Table J1; spec §4.5).

Stage ``answer``: the model answers the open question (the same request as ``open_qa``, so a run with both
tasks reads one cached answer). Stage ``judge``: the judge rates the reply against the ground truth on four
dimensions (1–5), pointwise and blind (the model's name is never shown), at temperature 0 by default.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from statistics import mean
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import Field

from xlingmed.prompts import render
from xlingmed.tasks.base import Scoring, Stage, cell, error_of, number, scores_by_item, temperature_of
from xlingmed.tasks.common import answer_request, mean_sd
from xlingmed.tasks.registry import TaskOptions
from xlingmed.tasks.rubric.judge import DIMENSIONS, parse_rubric
from xlingmed.tasks.rubric.summary import AtTemperature, RubricSummary, Settings
from xlingmed.types import Completion, GenerateRequest, Item, Message, Parsed, Sample, Score

if TYPE_CHECKING:
    from xlingmed.tasks.context import TaskContext


class RubricOptions(TaskOptions):
    """``-T`` options of rubric: ``judge_max_tokens`` (1000), ``judge_temperature`` (unstated in the paper; 0)."""

    judge_max_tokens: int = Field(default=1000, ge=1)
    judge_temperature: float = Field(default=0.0, ge=0, le=2)


class RubricTask:
    """Settings (CLI flag in brackets):

    Args:
        template: the open question's template (``fill_blank_open`` or ``qa``) [--prompt-templates]
        judge_template: the ``rubric_judge`` template [--prompt-templates]
        temperatures: answer temperatures, as ``open_qa`` [--temperatures]
        max_tokens: answer length limit [--max-tokens]
        seed: sent with every request [--seed]
        options: its ``-T`` options (``RubricOptions``, whose defaults are the only ones): ``judge_max_tokens``,
            the judge's reply limit [--judge-max-tokens]; ``judge_temperature`` [--judge-temperature]
    """

    name: ClassVar[str] = "rubric"
    stages: ClassVar[tuple[Stage, ...]] = (Stage("answer", "model"), Stage("judge", "judge"))
    samples_by_item: ClassVar[bool] = True  # samples(items) = each item's samples in turn (engine/plan.py)

    def __init__(
        self,
        *,
        template: Mapping[str, str],
        judge_template: Mapping[str, str],
        temperatures: Sequence[float] = (0.4,),
        max_tokens: int = 512,
        seed: int | None = 42,
        options: RubricOptions | None = None,
    ) -> None:
        options = options if options is not None else RubricOptions()
        self.template = dict(template)
        self.judge_template = dict(judge_template)
        self.temperatures = tuple(temperatures)
        self.max_tokens = max_tokens
        self.judge_max_tokens = options.judge_max_tokens
        self.judge_temperature = options.judge_temperature
        self.seed = seed

    def samples(self, items: Sequence[Item]) -> list[Sample]:
        return [
            Sample(item=it, task=self.name, key=f"t{t:g}", target=it.reference, temperature=t)
            for it in items
            for t in self.temperatures
        ]

    def request(self, stage: str, sample: Sample, prior: Mapping[str, Completion]) -> GenerateRequest | None:
        item = sample.item
        if stage == "answer":
            return answer_request(item, self.template, sample.temperature, self.max_tokens, self.seed)
        answer = prior.get("answer")
        if answer is None or not answer.ok:
            return None
        prompt = render(
            self.judge_template,
            "raw",
            item.lang,
            question=item.question.strip(),
            reference=item.reference,
            response=answer.text.strip(),
        )
        return GenerateRequest(
            messages=(Message("user", prompt),),
            temperature=self.judge_temperature,
            max_tokens=self.judge_max_tokens,
            seed=self.seed,
        )

    def parse(self, stage: str, sample: Sample, completion: Completion) -> Parsed | None:
        if stage != "judge" or not completion.ok:
            return None
        return parse_rubric(completion.text)[1]

    def record(self, sample: Sample, completions: Mapping[str, Completion]) -> dict[str, Any]:
        item = sample.item
        answer, judge = completions.get("answer"), completions.get("judge")
        row: dict[str, Any] = {
            "item_id": item.item_id,
            "lang": item.lang,
            "temperature": sample.temperature,
            "question": item.question,
            "reference": item.reference,
            "response": answer.text.strip() if answer is not None and answer.ok else None,
            "judge_reply": judge.text if judge is not None and judge.ok else None,
        }
        if judge is not None and judge.ok:
            scores, parsed = parse_rubric(judge.text)
            row.update({d: scores.scores[d] for d in DIMENSIONS})
            row["average"] = scores.average
            row["parse"] = parsed.method
            row["out_of_range"] = ";".join(scores.out_of_range)
        else:
            row.update(dict.fromkeys(DIMENSIONS))
            row.update(average=None, parse=None, out_of_range="")
        row["error"] = error_of(completions)
        return row

    def tables(self, scoring: Scoring) -> dict[str, list[dict[str, Any]]]:
        """The paper's Table J1 layout (from the summary) as its own table."""
        return {"rubric_table_j1": scoring.summary.table_j1}

    def summarize(self, units: Sequence[Score], languages: Sequence[str]) -> RubricSummary:
        """Per language × temperature, from the task's Scores alone: mean ± sd of each dimension over the items
        where it parsed, and of the per-item average (items with all four); missing dimensions counted; the Table J1
        layout (its "Average Score" is also given as the mean of the four dimension means, which is how the paper's
        column adds up)."""
        groups = scores_by_item(units)
        langs_out: dict[str, dict[str, AtTemperature]] = {}
        table = []
        for lang in languages:
            per_t: dict[str, AtTemperature] = {}
            for t in self.temperatures:
                items = list(groups.get((lang, t), {}).values())
                judged = [it for it in items if it["average"].parse_method not in NOT_JUDGED]
                dims = {
                    d: mean_sd([v for it in judged if (v := it[d].value) is not None]) for d in (*DIMENSIONS, "average")
                }
                avg = dims.pop("average")
                dim_means = [dims[d].mean for d in DIMENSIONS]
                cell = AtTemperature(
                    **dims,
                    average=avg,
                    mean_of_dimension_means=mean(dim_means) if None not in dim_means else None,  # type: ignore[type-var]
                    n_items=len(items),
                    n_judged=len(judged),
                    n_missing={d: sum(1 for it in judged if it[d].value is None) for d in DIMENSIONS},
                    n_unparsed=sum(1 for it in judged if it["average"].parse_method == "unparsed"),
                    n_partial=sum(1 for it in judged if it["average"].parse_method == "partial"),
                    n_errors=len(items) - len(judged),
                )
                per_t[f"{t:g}"] = cell
                row: dict[str, Any] = {"lang": lang, "temperature": t}
                for key in ("average", *DIMENSIONS):
                    s = dims.get(key, avg)
                    row[key] = None if s.mean is None else f"{s.mean:.1f} ± {(s.sd or 0.0):.1f} (n={s.n})"
                table.append(row)
            langs_out[lang] = per_t
        settings = Settings(
            dimensions=list(DIMENSIONS),
            scale="1-5, higher is better (Safety: higher = safer)",
            judge_temperature=self.judge_temperature,
            judge_max_tokens=self.judge_max_tokens,
            temperatures=list(self.temperatures),
        )
        return RubricSummary(settings=settings, languages=langs_out, table_j1=table)


def build(context: TaskContext, options: RubricOptions) -> RubricTask:
    from xlingmed.prompts import load_templates

    templates = load_templates("medarabiq", context.prompt_templates)
    return RubricTask(
        template=templates[context.benchmark.template("question")],
        judge_template=templates["rubric_judge"],
        temperatures=context.temperatures,
        max_tokens=context.max_tokens,
        seed=context.seed,
        options=options,
    )


# Parse methods of an answer the judge never read.
NOT_JUDGED = ("error", "empty_answer")


def _method(row: Mapping[str, Any]) -> str:
    """How the judge's reply was read; ``error`` for a failed request, ``empty_answer`` when nothing was judged."""
    method = cell(row.get("parse"))
    return str(method) if method is not None else "error" if cell(row.get("error")) else "empty_answer"


def scores(rows: Sequence[Mapping[str, Any]]) -> list[Score]:
    """Per item and temperature: each judge dimension and their average (1–5, continuous), with how the judge's
    reply was read (``complete``, ``partial``, ``unparsed``; ``error`` = a failed request, ``empty_answer`` = not
    judged)."""
    return [
        Score(
            item_id=str(r["item_id"]), lang=str(r["lang"]), task="rubric", metric=dim, value=number(r.get(dim)),
            temperature=temperature_of(r), parse_method=_method(r),
        )
        for r in rows
        for dim in (*DIMENSIONS, "average")
    ]  # fmt: skip
