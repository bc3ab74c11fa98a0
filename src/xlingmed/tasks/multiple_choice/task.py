"""Multiple choice (MedArabiQ MCQ, MCQ with bias, FITB with choices; paper §3.2, Tables 1, 2, B3; spec §4.3, §4.6).

The model gets the question (options embedded, English instruction; ``prompts/medarabiq.yaml``) and should answer
with one letter. ``parsing.choice.extract_choice`` reads its reply (default ``robust``: the paper's marker, answer
phrases of every language, standalone labels, the option's text; the paper's literal rule as ``paper``); a reply
that names no option, or two, is *invalid* or *ambiguous*, which counts as wrong and stays in the denominator
(``invalid_rate`` is reported beside accuracy), and every reply's parse method is kept.

Items of ``medarabiq/mcq_bias`` carry five prompt variants (original, biased, bias education, one-shot,
few-shot); each is a sample of the same item, so conditions are compared item by item (McNemar).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import field_validator, model_validator

from xlingmed.errors import ConfigError
from xlingmed.languages import get_language
from xlingmed.parsing.choice import FALLBACKS, MARKERS, PARSERS, READINGS, extract_choice, extract_letter
from xlingmed.parsing.extractor import MODES, NONE_WORD, SENT_FOR
from xlingmed.parsing.several import extract_choices
from xlingmed.prompts import format_options, item_labels, render
from xlingmed.tasks.base import Scoring, Stage, cell, error_of
from xlingmed.tasks.multiple_choice.extract import Extraction
from xlingmed.tasks.multiple_choice.summary import Extractor, MultipleChoiceSummary
from xlingmed.tasks.registry import TaskOptions, names_list, one_of
from xlingmed.types import Completion, GenerateRequest, Item, Message, Parsed, Sample, Score

if TYPE_CHECKING:
    from xlingmed.tasks.context import TaskContext

CONDITIONS: tuple[str, ...] = ("original", "biased", "education", "one_shot", "few_shot")
FORMS: tuple[str, ...] = ("raw", "structured", "answer_line")
ANSWER_LINE_MAX_TOKENS = 2048  # reasoning before the answer line; --max-tokens overrides it
__all__ = ["CONDITIONS", "FALLBACKS", "MARKERS", "PARSERS", "MultipleChoiceTask", "extract_choice", "extract_letter"]


class MultipleChoiceTask:
    """Settings (CLI flag in brackets):

    Args:
        template: the ``multiple_choice`` template of ``prompts/medarabiq.yaml`` (or the user's) [--prompt-templates]
        form: ``raw`` (options inside the question cell, paper), ``structured`` (options rebuilt) or
            ``answer_line`` (reasoning, then "Answer: X" in the item's language) [--mc-prompt]
        prompt_source: where the form comes from (the benchmark's reference prompt, or the user), for the summary
        temperatures: temperatures swept (paper default: 0 for open models, 0.2 for closed) [--temperatures]
        max_tokens: reply length limit (paper: unstated; a letter needs few) [--max-tokens]
        parser: how a reply is read: ``robust`` | ``paper`` | ``first_char`` | ``regex`` [--letter-parser]
        conditions: the bias conditions to ask (``mcq_bias``; others ask only ``original``)
        seed: sent with every request [--seed]
        extractor_mode: which replies the extractor model reads, when the run names one (``parsing.extractor``):
            ``fallback`` those the rules leave ambiguous or invalid, ``all`` every reply (agreement measured; the
            rules' reading still counts where they read one) [--extractor, --extractor-mode]
    """

    name: ClassVar[str] = "multiple_choice"
    # the extract stage runs only when the run names an extractor (no backend for the role: the walk skips it)
    stages: ClassVar[tuple[Stage, ...]] = (Stage("answer", "model"), Stage("extract", "extractor"))
    samples_by_item: ClassVar[bool] = True  # samples(items) = each item's samples in turn (engine/plan.py)

    def __init__(
        self,
        *,
        template: Mapping[str, str],
        form: str = "raw",
        temperatures: Sequence[float] = (0.0,),
        max_tokens: int = 16,
        parser: str = "robust",
        conditions: Sequence[str] = CONDITIONS,
        seed: int | None = 42,
        extractor_mode: str = "fallback",
        prompt_source: str = "",
        reading: str = "strict",
    ) -> None:
        if form not in FORMS:
            raise ConfigError(f"unknown multiple-choice prompt form {form!r}; known: {', '.join(FORMS)}")
        if parser not in PARSERS:
            raise ConfigError(f"unknown multiple-choice parser {parser!r}; known: {', '.join(PARSERS)}")
        unknown = [c for c in conditions if c not in CONDITIONS]
        if unknown:
            raise ConfigError(f"unknown bias condition(s) {unknown}; known: {', '.join(CONDITIONS)}")
        self.template = dict(template)
        self.form = form
        self.temperatures = tuple(temperatures)
        self.max_tokens = max_tokens
        self.parser = parser
        self.conditions = tuple(conditions)
        self.seed = seed
        if extractor_mode not in MODES:
            raise ConfigError(f"unknown extractor mode {extractor_mode!r}; known: {', '.join(MODES)}")
        self.extractor_mode = extractor_mode
        self.extraction = Extraction(extractor_mode)
        self.prompt_source = prompt_source
        if reading not in READINGS:
            raise ConfigError(f"unknown reading {reading!r}; known: {', '.join(READINGS)}")
        self.reading = reading

    def _variants(self, item: Item) -> list[tuple[str, str | None]]:
        """(condition, bias) of every variant of ``item`` this run asks: ``("original", None)`` alone for a
        plain item; for a perturbed one (``meta["variants"]`` keyed ``"original"`` and ``"<condition>|<bias>"``)
        those whose condition is in ``conditions``."""
        if "variants" not in item.meta:
            return [("original", None)]
        out: list[tuple[str, str | None]] = []
        for key in item.meta["variants"]:
            cond, _, bias = key.partition("|")
            if cond in self.conditions:
                out.append((cond, bias or None))
        return sorted(out, key=lambda cb: (CONDITIONS.index(cb[0]), cb[1] or ""))

    def samples(self, items: Sequence[Item]) -> list[Sample]:
        bad = [it.item_id for it in items if not it.choices]
        if bad:
            raise ConfigError(f"multiple_choice needs items with options; {bad[0]} has none (an open-answer task?)")
        return [
            Sample(
                item=it,
                task=self.name,
                key=f"{cond}-{bias}-t{t:g}" if bias else f"{cond}-t{t:g}",
                target=it.gold_label,
                temperature=t,
                meta={"condition": cond, "bias": bias},
            )
            for it in items
            for cond, bias in self._variants(it)
            for t in self.temperatures
        ]

    def prompt(self, sample: Sample) -> str:
        item = sample.item
        cond, bias = sample.meta["condition"], sample.meta["bias"]
        if "variants" in item.meta:
            # pre-rendered (MedArabiQ's columns) or injected variants, demonstrations and warnings included
            text = item.meta["variants"][cond if bias is None else f"{cond}|{bias}"]
            return render(self.template, self.form if self.form == "answer_line" else "raw", item.lang,
                          question=text.strip(), labels=", ".join(item_labels(item)))  # fmt: skip
        if self.form == "answer_line":
            parsed = item.meta.get("stem") and not item.meta.get("options_embedded", True)
            body = f"{item.meta['stem'].strip()}\n\n{format_options(item)}" if parsed else item.question.strip()
            return render(self.template, "answer_line", item.lang, question=body, labels=", ".join(item_labels(item)))
        if self.form == "structured" or not item.meta.get("options_embedded", True):
            return render(
                self.template, "structured", item.lang, stem=item.meta.get("stem", ""), options=format_options(item)
            )
        return render(self.template, "raw", item.lang, question=item.question.strip())

    def request(self, stage: str, sample: Sample, prior: Mapping[str, Completion]) -> GenerateRequest | None:
        if stage == "extract":
            answer = prior.get("answer")
            rules = self.parse("answer", sample, answer) if answer is not None else None
            return self.extraction.request(sample, answer, rules, self.seed)
        return GenerateRequest(
            messages=(Message("user", self.prompt(sample)),),
            temperature=sample.temperature,
            max_tokens=self.max_tokens,
            seed=self.seed,
        )

    def parse(self, stage: str, sample: Sample, completion: Completion) -> Parsed | None:
        if not completion.ok:
            return Parsed(None, "error")
        choices = sample.item.choices
        if stage == "extract":  # its label stands only with a quote of the reply it read (issue 46)
            return self.extraction.read(sample, completion)
        if completion.refusal:
            return Parsed(None, "refused")
        if "," in (sample.item.gold_label or ""):  # several right options: the set the reply names (MMedBench)
            return extract_choices(completion.text, [c.label for c in choices], {c.label: c.text for c in choices})
        return extract_choice(
            completion.text, [c.label for c in choices], options={c.label: c.text for c in choices},
            parser=self.parser, labels=item_labels(sample.item),  # the labels the prompt showed
            reading=self.reading, markers=self._markers(sample.item),
            cut_off=completion.finish_reason == "length",  # stopped at the token limit: no last word
        )  # fmt: skip

    def _markers(self, item: Item) -> tuple[str, ...]:
        """The markers the prompt asked the reply to end with: the paper's, and for ``answer_line`` "Answer:" in
        the item's language ("Respuesta:"), declared to the reader (issue 59)."""
        if self.form != "answer_line":
            return MARKERS
        return (f"{get_language(item.lang).answer_label}:", *MARKERS)

    def record(
        self, sample: Sample, completions: Mapping[str, Completion], parsed: Mapping[str, Parsed | None] | None = None
    ) -> dict[str, Any]:
        """One row per answer; ``parsed``: the replies as the engine parsed them (``parse``), else parsed here."""
        comp = completions.get("answer")
        item = sample.item
        read = None
        if comp is not None:
            read = parsed["answer"] if parsed and "answer" in parsed else self.parse("answer", sample, comp)
        reading = read or Parsed(None, "error")
        failed = comp is None or not comp.ok
        ext = completions.get("extract")
        extracted = self.extraction.read(sample, ext, done=True) if ext is not None and ext.ok else None
        said = extracted and (extracted.value or {"extractor_none": NONE_WORD}.get(extracted.method))
        if extracted is not None and reading.method in SENT_FOR:  # the rules could not decide: the extractor's
            reading = extracted
        bias = sample.meta["bias"]
        target = item.meta.get("bias_targets", {}).get(bias) if bias else None
        return {
            "item_id": item.item_id,
            "lang": item.lang,
            "temperature": sample.temperature,
            "condition": sample.meta["condition"],
            "bias": bias,
            "bias_code": item.meta.get("bias_code") if bias else None,
            "bias_target": target,
            "category": item.meta.get("category"),
            "gold": item.gold_label,
            "prediction": reading.value,
            "parse_method": reading.method,
            "valid": None if failed else reading.value is not None,
            "correct": None if failed else reading.value == item.gold_label,
            "followed_bias": None if failed or target is None or target == item.gold_label else reading.value == target,
            "response": comp.text if comp is not None and comp.ok else None,
            "extractor_prediction": said,
            "extractor_method": None if extracted is None else extracted.method,
            "flags": ";".join(item.meta.get("flags", [])),
            "error": error_of(completions),
        }

    def annotate(self, scoring: Scoring) -> MultipleChoiceSummary:
        """The summary with, where an extractor model was named (``parsing.extractor``), what it was sent and said
        per language (``extract.by_language``: read from the rows, not the Scores)."""
        summary: MultipleChoiceSummary = scoring.summary
        if not any(cell(r.get("extractor_method")) for r in scoring.records):
            return summary
        from xlingmed.tasks.multiple_choice.extract import by_language

        rows = by_language(scoring.records, scoring.languages, self.extractor_mode)
        langs = {r["lang"]: {k: v for k, v in r.items() if k != "lang"} for r in rows}
        return summary.model_copy(update={"extractor": Extractor(mode=self.extractor_mode, languages=langs)})

    def tables(self, scoring: Scoring) -> dict[str, list[dict[str, Any]]]:
        """MedArabiQ's Table 1, the extractor's counts per language (where named), and with bias conditions
        Table 2 and the per-bias breakdown, as their own tables."""
        from xlingmed.analysis.conditions import bias_breakdown, grouped_answers  # scipy: only when scoring

        summary: MultipleChoiceSummary = scoring.summary
        tables = {"multiple_choice_table1": summary.table1}
        if summary.extractor is not None:
            tables["multiple_choice_extractor"] = [{"lang": k, **v} for k, v in summary.extractor.languages.items()]
        if summary.table2 is not None:
            answers, conditions, item_biases = grouped_answers(scoring.units, CONDITIONS)
            tables["multiple_choice_table2"] = summary.table2
            tables["multiple_choice_bias"] = bias_breakdown(answers, scoring.languages, self.temperatures,
                                                            conditions, item_biases)  # fmt: skip
        return tables

    def summarize(self, units: Sequence[Score], languages: Sequence[str]) -> MultipleChoiceSummary:
        """From the task's Scores alone: accuracy (invalid = wrong; failed requests excluded and counted) per
        language × temperature × condition, with breakdowns per bias and per category; for perturbed items, per
        condition and per (condition, bias): the change against the clean question on the same items (exact
        McNemar; bootstrap 95% CI resampled by item) and how often the answer was the option the bias pointed at;
        MedArabiQ Table 1 / Table 2 layouts with numerators and denominators."""
        import numpy as np

        from xlingmed.analysis.conditions import condition_cell, fraction, grouped_answers  # scipy: when scoring

        answers, conditions, item_biases = grouped_answers(units, CONDITIONS)
        empty = np.array([], dtype=np.int64)
        langs_out: dict[str, Any] = {}
        table1: list[dict[str, Any]] = []
        table2: list[dict[str, Any]] = []
        for lang in languages:
            per_t: dict[str, Any] = {}
            for t in self.temperatures:
                conds: dict[str, Any] = {}
                original = answers.keys.get((lang, t, "original"), empty)
                for cond in conditions:
                    rows = answers.keys.get((lang, t, cond), empty)
                    conds[cond] = condition_cell(answers, rows, original, cond, item_biases)
                per_t[f"{t:g}"] = {"conditions": conds} if len(conditions) > 1 else conds["original"]
                orig = conds.get("original", {})
                table1.append(
                    {"lang": lang, "temperature": t, "metric": "accuracy", "value": orig.get("accuracy_pct"),
                     "numerator": orig.get("n_correct"), "denominator": orig.get("n"),
                     "n_invalid": orig.get("n_invalid")}
                )  # fmt: skip
                if len(conditions) > 1:
                    table2.append({"lang": lang, "temperature": t, **{c: fraction(conds[c]) for c in conditions}})
            langs_out[lang] = per_t
        summary: dict[str, Any] = {
            "settings": {
                "prompt_form": self.form,
                "prompt_source": self.prompt_source,
                "temperatures": list(self.temperatures),
                "max_tokens": self.max_tokens,
                "letter_markers": list(MARKERS),
                "letter_parser": self.parser,
                "conditions": conditions,
                "biases": sorted({b for bs in item_biases.values() for b in bs}),
                "invalid_counts_as_wrong": True,
            },
            "languages": langs_out,
            "table1": table1,
        }
        if table2:
            summary["table2"] = table2
        return MultipleChoiceSummary.model_validate(summary)  # the keys each cell has stay its set fields


class MultipleChoiceOptions(TaskOptions):
    """``-T`` options of multiple choice (MedArabiQ §3.2):

    ``mc_prompt`` ``raw`` (options inside the question cell, paper) | ``structured`` | ``answer_line``
    (reasoning, then "Answer: X" in the item's language); ``None`` = the benchmark's reference prompt
    (``Benchmark.mc_prompt``); ``letter_parser`` how a reply is read (``parsing.choice``): ``robust`` (marker,
    answer phrases, standalone labels, option text; never a guess) | ``paper`` (the character after the marker,
    else invalid) | ``first_char`` (marker, else the first character: the default before 0.2) | ``regex``;
    ``letter_fallback`` the old name (``first_char`` | ``regex`` | ``invalid`` = ``paper``); ``bias_conditions``
    which of original, biased, education, one_shot, few_shot to ask (``medarabiq/mcq_bias``); ``reading``
    ``strict`` (default: a reply only a fallback rule would read gives no option, ``guess_withheld``) |
    ``lenient`` (the fallbacks' ``last_line``/``option_match`` option counts, as before 0.2).
    """

    mc_prompt: Literal["raw", "structured", "answer_line"] | None = None
    letter_parser: str = "robust"
    reading: Literal["strict", "lenient"] = "strict"
    letter_fallback: str | None = None
    bias_conditions: tuple[str, ...] = CONDITIONS

    @model_validator(mode="before")
    @classmethod
    def _old_letter_fallback(cls, data: Any) -> Any:
        # --letter-fallback (before 0.2) names a parser: invalid was the paper's rule
        if isinstance(data, dict) and data.get("letter_fallback") and not data.get("letter_parser"):
            old = data["letter_fallback"]
            data = {**data, "letter_parser": {"invalid": "paper"}.get(old, old)}
        return data

    @field_validator("letter_parser")
    @classmethod
    def _letter_parser(cls, v: str) -> str:
        return one_of(v, PARSERS)

    @field_validator("letter_fallback")
    @classmethod
    def _letter_fallback(cls, v: str | None) -> str | None:
        return None if v is None else one_of(v, FALLBACKS)

    @field_validator("bias_conditions", mode="before")
    @classmethod
    def _conditions(cls, v: Any) -> tuple[str, ...]:
        return names_list(v, CONDITIONS, "condition", order=True)


def prompt_settings(context: TaskContext, options: MultipleChoiceOptions) -> tuple[str, str, int]:
    """(prompt form, where it comes from, answer tokens): ``-T mc_prompt`` else the benchmark's reference prompt
    (``Benchmark.mc_prompt``); ``--max-tokens`` else 2,048 for ``answer_line``, else the benchmark's limit."""
    form, source = context.benchmark.mc_prompt()
    if options.mc_prompt is not None:
        form, source = options.mc_prompt, "the user (-T mc_prompt)"
    default = ANSWER_LINE_MAX_TOKENS if form == "answer_line" else context.max_tokens
    return form, source, context.max_tokens_given or default


def build(context: TaskContext, options: MultipleChoiceOptions) -> MultipleChoiceTask:
    from xlingmed.prompts import load_templates

    templates = load_templates("medarabiq", context.prompt_templates)
    form, source, max_tokens = prompt_settings(context, options)
    return MultipleChoiceTask(
        # answer_line is one shared template (medarabiq.yaml); the others are the benchmark's own
        template=templates["multiple_choice" if form == "answer_line" else context.benchmark.template("choices")],
        form=form,
        temperatures=context.temperatures,
        max_tokens=max_tokens,
        parser=options.letter_parser,
        conditions=options.bias_conditions,
        seed=context.seed,
        extractor_mode=context.extractor_mode,
        prompt_source=source,
        reading=options.reading,
    )
