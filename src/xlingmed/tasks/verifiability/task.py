"""Verifiability (XLingEval paper §5, Fig. 4, Table A11; spec §5).

Each question is paired with its expert answer (label 1) and its shipped negatives (label 0, answers to other
questions); the model is asked, in the item's language, whether the answer is factually correct, in one
English word. Metrics per language (and temperature): macro precision/recall/F1, accuracy and AUC.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import mean, stdev
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import Field, field_validator

from xlingmed.errors import ConfigError
from xlingmed.metrics.classification import binary_metrics
from xlingmed.parsing.yes_no import PARSERS, clean_reply, p_yes, parse_medalpaca, parse_paper, parse_strict
from xlingmed.prompts import medalpaca
from xlingmed.tasks.base import Scoring, Stage, cell, error_of, number, temperature_of
from xlingmed.tasks.common import PromptStyle
from xlingmed.tasks.registry import TaskOptions, one_of
from xlingmed.tasks.verifiability.summary import AtTemperature, LanguageResult, VerifiabilitySummary
from xlingmed.types import Completion, GenerateRequest, Item, Message, Parsed, Sample, Score

if TYPE_CHECKING:
    from xlingmed.tasks.context import TaskContext

__all__ = ["PARSERS", "VerifiabilityTask", "clean_reply", "p_yes", "parse_medalpaca", "parse_paper", "parse_strict"]

SYSTEM = "Assistant is a medical expert that answers health-related questions."

# Spec Appendix A.2, verbatim from the authors' code (claws-lab/XLingEval, Apache-2.0).
PROMPTS: dict[str, str] = {
    "en": (
        "Use one English word (either 'Yes' or 'No'. Do not give any reasons) to answer me whether the following "
        "response is a factually correct answer (or diagnosis) to the following question (or scenario). Both the "
        "question and answer are delimited by triple backticks. \nQuestion: \n```\n{question}\n```\n"
        "Response: ```\n{answer}\n```"
    ),
    "es": (
        "Use una palabra en inglés (ya sea 'Yes' o 'No'. No dé ninguna razón) para responderme si la siguiente "
        "respuesta es una respuesta (o diagnóstico) objetivamente correcta a la siguiente pregunta (o escenario). "
        "Tanto la pregunta como la respuesta están delimitadas por triples acentos graves. \nPregunta: \n```\n"
        "{question}\n```\n \nRespuesta: ```\n{answer}\n```"
    ),
    "zh": (
        "用一个英文单词（`Yes`或`No`，不要回答原因）告诉我下列答案是否是以下问题（或情景）的正确回答（或诊疗方案）。"
        "问题和答案均用三个反引号包围。 \n问题: ```{question}``` \n答案: ```{answer}```.你的判断："
    ),
    "hi": (
        "मुझे उत्तर देने के लिए एक अंग्रेजी शब्द ('Yes' या 'No', कोई कारण न बताएं) का उपयोग करें कि क्या निम्नलिखित "
        "प्रतिक्रिया निम्नलिखित प्रश्न (या परिदृश्य) का तथ्यात्मक रूप से सही उत्तर (या निदान) है। प्रश्न और उत्तर "
        "दोनों को ट्रिपल बैकटिक्स द्वारा सीमांकित किया गया है।\nप्रश्न: ```{question}``` \nआपका उत्तर: ```\n"
        "{answer}\n```।"
    ),
}

# For claims about a text rather than answers to a question (an NLI pair: Item.meta["claim_prompt"] == "nli";
# MultiMed-X's BioNLI): the paper's wording and delimiters, asking whether the premise supports the hypothesis.
# In English for every language, as -T verify_prompt_language=en asks (recorded per item's claim_prompt).
NLI_PROMPT = (
    "Use one English word (either 'Yes' or 'No'. Do not give any reasons) to answer me whether the following "
    "premise supports the following hypothesis ('No' if the premise contradicts it). Both the premise and the "
    "hypothesis are delimited by triple backticks. \nPremise: \n```\n{question}\n```\nHypothesis: ```\n{answer}\n```"
)

# Paper Table A11: each metric's mean ± sd over the temperatures; its AUC is the one from hard labels.
A11_METRICS = ("macro_precision", "macro_recall", "macro_f1", "accuracy", "auc_hard_labels")
A11_NAMES = {
    "macro_precision": "macro-P",
    "macro_recall": "macro-R",
    "macro_f1": "macro-F1",
    "accuracy": "accuracy",
    "auc_hard_labels": "AUC (hard labels, paper)",
}


def _mean_sd(m: float | None, sd: float | None) -> str | None:
    """``"0.823 ± 0.012"`` (sd over temperatures, ddof=1); the mean alone with one temperature."""
    if m is None:
        return None
    return f"{m:.3f}" if sd is None else f"{m:.3f} ± {sd:.3f}"


@dataclass(frozen=True)
class VerifiabilityTask:
    """Settings: ``temperatures`` swept (paper: 0, 0.25, 0.5, 0.75, 1), ``parser`` (``paper`` or ``strict``),
    ``max_tokens`` (the paper set none; a yes/no needs few, so 32 by default), ``logprobs`` (ask for the top
    20 logprobs to compute AUC from P(yes)), ``seed``, ``negatives`` (the first N of each item's; ``None``: all)."""

    temperatures: tuple[float, ...] = (0.0,)
    parser: str = "paper"
    max_tokens: int = 32
    logprobs: bool = True
    seed: int | None = None
    prompt_style: str = "paper"
    prompt_language: str = "item"
    negatives: int | None = None
    name: ClassVar[str] = "verifiability"
    stages: ClassVar[tuple[Stage, ...]] = (Stage("verify", "model"),)
    samples_by_item: ClassVar[bool] = True  # samples(items) = each item's samples in turn (engine/plan.py)

    def __post_init__(self) -> None:
        if self.parser not in PARSERS:
            raise ConfigError(f"unknown verifiability parser {self.parser!r}; known: {', '.join(PARSERS)}")

    def samples(self, items: Sequence[Item]) -> list[Sample]:
        missing = sorted({it.lang for it in items if it.meta.get("claim_prompt") != "nli"} - set(PROMPTS))
        if missing and self.prompt_style == "paper" and self.prompt_language == "item":
            raise ConfigError(
                f"verifiability has the paper's prompt in {', '.join(PROMPTS)} only, not in {', '.join(missing)}: "
                "pass -T verify_prompt_language=en to ask in English about the item's text (recorded as such)"
            )
        out = []
        for it in items:
            negatives = it.negatives if self.negatives is None else it.negatives[: self.negatives]
            claims = ([(1, it.reference)] if it.reference else []) + [(0, neg) for neg in negatives]
            for t in self.temperatures:
                for idx, (label, answer) in enumerate(claims):
                    out.append(
                        Sample(
                            item=it,
                            task=self.name,
                            key=f"t{t:g}-c{idx}",
                            target=label,
                            temperature=t,
                            meta={"candidate": answer, "candidate_index": idx},
                        )
                    )
        return out

    def request(self, stage: str, sample: Sample, prior: Mapping[str, Completion]) -> GenerateRequest | None:
        item = sample.item
        if self.prompt_style == "medalpaca":
            return medalpaca.request(
                medalpaca.verifiability_prompt(item, sample.meta["candidate"]),
                temperature=sample.temperature,
                max_tokens=self.max_tokens,
                seed=self.seed,
                logprobs=self.logprobs,
                top_logprobs=20 if self.logprobs else 0,
            )
        lang = "en" if self.prompt_language == "en" else item.lang
        template = NLI_PROMPT if item.meta.get("claim_prompt") == "nli" else PROMPTS[lang]
        prompt = template.format(question=item.question, answer=sample.meta["candidate"])
        return GenerateRequest(
            messages=(Message("system", SYSTEM), Message("user", prompt)),
            temperature=sample.temperature,
            max_tokens=self.max_tokens,
            seed=self.seed,
            logprobs=self.logprobs,
            top_logprobs=20 if self.logprobs else 0,
        )

    def parse(self, stage: str, sample: Sample, completion: Completion) -> Parsed | None:
        if not completion.ok:
            return None
        if completion.refusal:
            return Parsed(-1, "refused")
        if self.parser == "strict":
            return parse_strict(completion.text, sample.item.lang)
        if self.parser == "medalpaca":
            return parse_medalpaca(completion.text)
        return parse_paper(completion.text)

    def record(
        self, sample: Sample, completions: Mapping[str, Completion], parsed: Mapping[str, Parsed | None] | None = None
    ) -> dict[str, Any]:
        """One row per sample; ``parsed``: the replies as the engine parsed them (``parse``), else parsed here."""
        comp = completions.get("verify")
        reading = None
        if comp is not None:
            reading = parsed["verify"] if parsed and "verify" in parsed else self.parse("verify", sample, comp)
        return {
            "item_id": sample.item.item_id,
            "lang": sample.item.lang,
            "temperature": sample.temperature,
            "candidate_index": sample.meta["candidate_index"],
            "label": sample.target,
            "response": comp.text if comp else "",
            "prediction": reading.value if reading else None,
            "parse_method": reading.method if reading else "error",
            "p_yes": p_yes(comp.logprobs, sample.item.lang) if comp and comp.ok else None,
            "error": error_of(completions),
        }

    def tables(self, scoring: Scoring) -> dict[str, list[dict[str, Any]]]:
        """The paper's Table A11 layout (from the summary) as its own table."""
        return {"verifiability_table_a11": scoring.summary.table_a11}

    def summarize(self, units: Sequence[Score], languages: Sequence[str]) -> VerifiabilitySummary:
        """Per language and temperature, from the task's Scores (one per claim: the reading as ``answer``, the
        claim's truth as ``target``, P(yes) as ``probability``): the ``binary_metrics`` on claims read yes or no, plus
        ``n_claims``, ``n_unparsed`` (−1), ``n_refused``, ``n_errors`` (failed requests) — all excluded from the
        metrics, as in the paper — and ``accuracy_unparsed_as_wrong`` over all claims. ``mean_over_temperatures`` and
        ``sd_over_temperatures`` (ddof=1) give each metric over the temperatures, and ``table_a11`` the paper's
        Table A11 layout: "mean ± sd" per metric and language, with the paper's AUC (from hard labels)."""
        per_lang: dict[str, LanguageResult] = {}
        for lang in languages:
            per_t: dict[str, Any] = {}
            for t in self.temperatures:
                claims = [c for c in units if c.lang == lang and c.temperature == t]
                scored = [c for c in claims if c.answer is not None]
                p = [c.probability for c in scored]
                stats = binary_metrics(
                    [int(c.target == "yes") for c in scored],
                    [int(c.answer == "yes") for c in scored],
                    p if scored and all(x is not None for x in p) else None,  # type: ignore[arg-type]
                )
                correct = sum(1 for c in scored if c.value == 1.0)
                stats.update(
                    n_claims=len(claims),
                    n_positive=sum(1 for c in claims if c.target == "yes"),
                    n_scored=len(scored),
                    n_unparsed=sum(
                        1 for c in claims if c.answer is None and c.parse_method not in ("refused", "error")
                    ),
                    n_refused=sum(1 for c in claims if c.parse_method == "refused"),
                    n_errors=sum(1 for c in claims if c.parse_method == "error"),
                    predicted_yes=sum(1 for c in scored if c.answer == "yes"),
                    accuracy_unparsed_as_wrong=correct / len(claims) if claims else None,
                )
                per_t[f"{t:g}"] = stats
            means: dict[str, float | None] = {}
            sds: dict[str, float | None] = {}
            for m in (*A11_METRICS, "auc", "auc_p_yes"):
                vals = [s[m] for s in per_t.values() if s[m] is not None]
                means[m] = mean(vals) if vals else None
                sds[m] = stdev(vals) if len(vals) > 1 else None  # ddof=1, as the paper's ± over 5 τ
            per_lang[lang] = LanguageResult(
                temperatures={t: AtTemperature(**stats) for t, stats in per_t.items()},
                mean_over_temperatures=means,
                sd_over_temperatures=sds,
            )
        table_a11 = [
            {
                "lang": lang,
                **{
                    A11_NAMES[m]: _mean_sd(per_lang[lang].mean_over_temperatures[m],
                                           per_lang[lang].sd_over_temperatures[m])
                    for m in A11_METRICS
                },
                "n_temperatures": len(self.temperatures),
            }
            for lang in languages
        ]  # fmt: skip
        negatives: int | str = "all" if self.negatives is None else self.negatives
        return VerifiabilitySummary(parser=self.parser, negatives_per_item=negatives, languages=per_lang,
                                    table_a11=table_a11)  # fmt: skip


class VerifiabilityOptions(TaskOptions):
    """``-T`` options of verifiability: ``verify_parser`` (``paper`` | ``strict`` | ``medalpaca``),
    ``verify_max_tokens`` (the paper set none; a yes/no needs few), ``logprobs`` (ask for them, for the AUC from
    P(yes)), ``prompt_style`` (``paper`` | ``medalpaca``: spec §6.3's Alpaca prompt), ``verify_prompt_language``
    (``item``: the paper's prompt in the item's language, which exists for en/es/zh/hi; ``en``: its English prompt
    for every language, for a language the paper did not have, such as a translated benchmark's),
    ``verify_negatives`` (the first N shipped negatives of each item; default all, as in the paper: fewer make a
    cheaper run whose class balance differs from the paper's, recorded as ``negatives_per_item``)."""

    verify_parser: str = "paper"
    verify_max_tokens: int = Field(default=32, ge=1)
    logprobs: bool = True
    prompt_style: PromptStyle = "paper"
    verify_prompt_language: str = "item"
    verify_negatives: int | None = Field(default=None, ge=0)

    @field_validator("verify_prompt_language")
    @classmethod
    def _prompt_language(cls, v: str) -> str:
        return one_of(v, ("item", "en"))

    @field_validator("verify_parser")
    @classmethod
    def _verify_parser(cls, v: str) -> str:
        return one_of(v, PARSERS)


def build(context: TaskContext, options: VerifiabilityOptions) -> VerifiabilityTask:
    return VerifiabilityTask(
        temperatures=context.temperatures,
        parser=options.verify_parser,
        max_tokens=options.verify_max_tokens,
        logprobs=options.logprobs,
        seed=context.seed,
        prompt_style=options.prompt_style,
        prompt_language=options.verify_prompt_language,
        negatives=options.verify_negatives,
    )


_YES_NO: dict[float | None, str] = {1.0: "yes", 0.0: "no"}
_NOT_READ = ("refused", "error")  # claims not counted as unparsed: the model refused, or the request failed


def scores(rows: Sequence[Mapping[str, Any]]) -> list[Score]:
    """Per claim (question × candidate answer, ``unit`` ``c<k>``) and temperature: ``correct`` = the Yes/No read
    equals the label (``answer`` the reading, ``target`` the claim's truth, ``yes``/``no``; ``probability`` P(yes));
    ``None`` for claims unparsed, refused or failed (excluded, as from the paper's metrics)."""
    out = []
    for r in rows:
        pred, label = number(r.get("prediction")), number(r.get("label"))
        value = float(pred == label) if pred in (0.0, 1.0) and label is not None else None
        out.append(
            Score(
                item_id=str(r["item_id"]), lang=str(r["lang"]), task="verifiability", metric="correct", value=value,
                temperature=temperature_of(r), unit=f"c{int(float(r['candidate_index']))}", kind="binary",
                parse_method=cell(r.get("parse_method")), answer=_YES_NO.get(pred), target=_YES_NO.get(label),
                probability=number(r.get("p_yes")),
            )
        )  # fmt: skip
    return out
