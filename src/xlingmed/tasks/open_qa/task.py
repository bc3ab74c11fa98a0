"""Open answers scored by BERTScore against the reference (MedArabiQ FITB without choices and the three
patient–doctor Q&A sets; paper §3.2, Tables 1, B4; spec §4.4).

Candidate = the model's full reply, stripped; reference = the stripped gold cell. BERTScore F1 × 100, averaged
over items, is the paper's number; per-item P/R/F1 and bert-score's hash of the setting are kept. An empty reply
scores 0; a failed request is excluded and counted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import field_validator

from xlingmed.errors import ConfigError
from xlingmed.metrics.registry import add_answer_metrics, answer_metric_means, answer_metric_scores, check_names
from xlingmed.tasks.base import Scoring, Stage, error_of, number, scores_by_item, temperature_of
from xlingmed.tasks.common import answer_request, mean_sd
from xlingmed.tasks.encoders import EncoderOptions, open_qa_bertscore
from xlingmed.tasks.open_qa.summary import AtTemperature, OpenQASummary, Settings
from xlingmed.types import Completion, GenerateRequest, Item, Parsed, Sample, Score

if TYPE_CHECKING:
    from xlingmed.metrics.bertscore import BERTScore
    from xlingmed.tasks.context import TaskContext


class OpenQATask:
    """Settings (CLI flag in brackets):

    Args:
        template: ``fill_blank_open`` or ``qa`` template of ``prompts/medarabiq.yaml`` [--prompt-templates]
        bertscore: a loaded ``BERTScore`` (default xlm-roberta-large, layer 17, no idf, no rescaling)
            [--bertscore-model, --bertscore-layers, --bertscore-idf, --bertscore-rescale]
        temperatures: (paper: open models 0 for FITB, 0.4 for Q&A; closed 0.2) [--temperatures]
        max_tokens: reply length limit (unstated in the paper) [--max-tokens]
        seed: sent with every request [--seed]
    """

    name: ClassVar[str] = "open_qa"
    stages: ClassVar[tuple[Stage, ...]] = (Stage("answer", "model"),)
    samples_by_item: ClassVar[bool] = True  # samples(items) = each item's samples in turn (engine/plan.py)

    def __init__(
        self,
        *,
        template: Mapping[str, str],
        bertscore: BERTScore,
        temperatures: Sequence[float] = (0.4,),
        max_tokens: int = 512,
        seed: int | None = 42,
        bertscore_source: Mapping[str, str] | None = None,
        answer_metrics: Sequence[str] = (),
    ) -> None:
        self.answer_metrics = tuple(answer_metrics)
        self.template = dict(template)
        self.bertscore = bertscore
        self.bertscore_source = dict(bertscore_source or {})
        self.temperatures = tuple(temperatures)
        self.max_tokens = max_tokens
        self.seed = seed

    def samples(self, items: Sequence[Item]) -> list[Sample]:
        bad = [it.item_id for it in items if not it.reference.strip()]
        if bad:
            raise ConfigError(f"open_qa needs a reference answer; {bad[0]} has none")
        return [
            Sample(item=it, task=self.name, key=f"t{t:g}", target=it.reference, temperature=t)
            for it in items
            for t in self.temperatures
        ]

    def request(self, stage: str, sample: Sample, prior: Mapping[str, Completion]) -> GenerateRequest | None:
        return answer_request(sample.item, self.template, sample.temperature, self.max_tokens, self.seed)

    def parse(self, stage: str, sample: Sample, completion: Completion) -> Parsed | None:
        return None

    def record(self, sample: Sample, completions: Mapping[str, Completion]) -> dict[str, Any]:
        comp = completions.get("answer")
        item = sample.item
        return {
            "item_id": item.item_id,
            "lang": item.lang,
            "temperature": sample.temperature,
            "category": item.meta.get("category"),
            "reference": item.reference,
            "response": comp.text.strip() if comp is not None and comp.ok else None,
            "empty_response": None if comp is None or not comp.ok else not comp.text.strip(),
            "error": error_of(completions),
        }

    def enrich(self, records: Sequence[dict[str, Any]], languages: Sequence[str]) -> list[dict[str, Any]]:
        """One row per answer, a copy of its record with its BERTScore P/R/F1 (× 100; ``None`` for a failed
        request; the idf, where used, fitted on the sorted references first) and a column per answer metric.
        BERTScore runs in one batch over every answer."""
        rows = [dict(r) for r in records]
        scored = [r for r in rows if r["response"] is not None]
        if self.bertscore.idf:
            self.bertscore.fit_idf(sorted({r["reference"] for r in rows}))
        prf = self.bertscore.score([r["response"] for r in scored], [r["reference"] for r in scored])
        for r, (p, rec, f) in zip(scored, prf, strict=True):
            r["bertscore_p"], r["bertscore_r"], r["bertscore_f1"] = 100 * p, 100 * rec, 100 * f
        for r in rows:
            r.setdefault("bertscore_p", None)
            r.setdefault("bertscore_r", None)
            r.setdefault("bertscore_f1", None)
        add_answer_metrics(rows, self.answer_metrics, answer="response")
        return rows

    def tables(self, scoring: Scoring) -> dict[str, list[dict[str, Any]]]:
        """The paper's Table 1 layout (from the summary) as its own table."""
        return {"open_qa_table1": scoring.summary.table1}

    def summarize(self, units: Sequence[Score], languages: Sequence[str]) -> OpenQASummary:
        """Per language × temperature, from the task's Scores alone: mean ± sd of BERTScore F1/P/R (× 100) over
        the answered items, empty replies (scored 0) and failed requests (excluded) counted; the Table 1 layout;
        the answer metrics' means."""
        groups = scores_by_item(units)
        langs_out: dict[str, dict[str, AtTemperature]] = {}
        table1 = []
        for lang in languages:
            per_t: dict[str, AtTemperature] = {}
            for t in self.temperatures:
                items = list(groups.get((lang, t), {}).values())
                ok = [it for it in items if it["bertscore_f1"].value is not None]
                cell = AtTemperature(
                    **{m: mean_sd([float(it[m].value) for it in ok])  # type: ignore[arg-type]
                       for m in ("bertscore_f1", "bertscore_p", "bertscore_r")},
                    n_items=len(items),
                    n_empty_responses=sum(1 for it in ok if it["bertscore_f1"].parse_method == "empty_answer"),
                    n_errors=len(items) - len(ok),
                )  # fmt: skip
                per_t[f"{t:g}"] = cell
                f1 = cell.bertscore_f1
                table1.append(
                    {
                        "lang": lang,
                        "temperature": t,
                        "metric": "bertscore_f1_x100",
                        "value": None if f1.mean is None else round(f1.mean + 1e-9, 1),
                        "sd": f1.sd,
                        "n": f1.n,
                        "n_errors": cell.n_errors,
                    }
                )
            langs_out[lang] = per_t
        bertscore = {**self.bertscore.settings(), "hash": self.bertscore.hash, "scale": "x100",
                     "source": self.bertscore_source}  # fmt: skip
        settings = Settings(bertscore=bertscore, temperatures=list(self.temperatures), max_tokens=self.max_tokens)
        extra: dict[str, Any] = {}
        if self.answer_metrics:
            extra["answer_metrics"] = answer_metric_means(units, self.answer_metrics, languages)
        return OpenQASummary(settings=settings, languages=langs_out, table1=table1, **extra)


class OpenQAOptions(EncoderOptions):
    """``-T`` options of open_qa: the BERTScore options of ``EncoderOptions`` (default MedArabiQ's
    xlm-roberta-large at bert-score's layer for it, 17; no idf, no rescaling); ``answer_metrics`` (registered
    answer metrics against the gold answer, e.g. token_f1)."""

    answer_metrics: tuple[str, ...] = ()

    @field_validator("answer_metrics", mode="before")
    @classmethod
    def _answer_metrics(cls, v: Any) -> tuple[str, ...]:
        return check_names(v)

    def bertscore_settings(self) -> tuple[str, int | None]:
        return open_qa_bertscore(self)[0]


def build(context: TaskContext, options: OpenQAOptions) -> OpenQATask:
    """Loads the encoder here, so a bad model path fails before any request."""
    from xlingmed.metrics.bertscore import BERTScore
    from xlingmed.prompts import load_templates

    (model, layers), sources = open_qa_bertscore(options)
    scorer = BERTScore(
        model,
        layers,
        idf=options.bertscore_idf,
        rescale=options.bertscore_rescale,
        lang="ar",
        device=context.encoder_device(),
    )
    return OpenQATask(
        template=load_templates("medarabiq", context.prompt_templates)[context.benchmark.template("question")],
        bertscore=scorer,
        bertscore_source=sources,
        temperatures=context.temperatures,
        max_tokens=context.max_tokens,
        seed=context.seed,
        answer_metrics=options.answer_metrics,
    )


def scores(rows: Sequence[Mapping[str, Any]]) -> list[Score]:
    """Per item and temperature: BERTScore F1, precision and recall × 100 against the gold answer; an empty reply
    is scored (0) with the parse method ``empty_answer``, a failed request is ``None``."""
    out = []
    for r in rows:
        method = "empty_answer" if number(r.get("empty_response")) == 1.0 else None
        out += [
            Score(
                item_id=str(r["item_id"]), lang=str(r["lang"]), task="open_qa", metric=metric,
                value=number(r.get(metric)), temperature=temperature_of(r), parse_method=method,
            )
            for metric in ("bertscore_f1", "bertscore_p", "bertscore_r")
        ]  # fmt: skip
        out += answer_metric_scores(r, "open_qa", temperature_of(r))
    return out
