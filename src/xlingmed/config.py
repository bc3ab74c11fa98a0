"""RunConfig: every setting of a run, validated, from CLI flags or a YAML file.

Defaults are the paper-faithful values (XLingEval; shared/specs/xlingeval.md §8) except where noted.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from xlingmed.benchmarks.base import PAPER_TEMPERATURES as PAPER_TEMPERATURES
from xlingmed.benchmarks.base import XLINGEVAL_TASKS as XLINGEVAL_TASKS
from xlingmed.benchmarks.base import Benchmark, get_benchmark
from xlingmed.errors import ConfigError
from xlingmed.languages import parse_languages
from xlingmed.models.base import split_model_id

KNOWN_TASKS = ("correctness", "verifiability", "consistency", "multiple_choice", "open_qa", "rubric")
CONSISTENCY_METRICS = ("ngram", "length", "bertscore", "sim_sent", "lda", "hdp", "lang_consistency")
BIAS_CONDITIONS = ("original", "biased", "education", "one_shot", "few_shot")


def tasks_for(benchmark: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(tasks a benchmark supports, its default tasks): ``Benchmark.tasks`` and ``Benchmark.default_tasks``.

    Raises:
        ConfigError: unknown benchmark.
    """
    spec = get_benchmark(benchmark)
    return spec.tasks, spec.default_tasks


class RunConfig(BaseModel):
    """One evaluation run.

    Attributes (CLI flag in brackets):
        benchmark: ``xlinghealth/liveqa`` | ``xlinghealth/medicationqa`` | ``xlinghealth/healthqa`` |
            ``medarabiq/<task>`` (mcq, mcq_bias, fitb_choices, fitb_open, qa, qa_gec, qa_llm) [--benchmark]
        data_dir: folder with the benchmark files; else ``$XLINGMED_DATA_DIR``; else download (XLingHealth only:
            MedArabiQ is never downloaded) [--data-dir]
        languages: ISO codes; default: the benchmark's (XLingHealth en,es,zh,hi; MedArabiQ ar; the two FITB
            files also hold en) [--languages]
        tasks: XLingHealth: ``correctness``, ``verifiability``, ``consistency`` (default the first two);
            MedArabiQ: ``multiple_choice`` (MCQ, bias, FITB with choices), ``open_qa`` (BERTScore; default for
            FITB without choices and Q&A) and ``rubric`` (LLM judge, App. J) [--tasks]
        model / judge: ``provider/model``; the judge defaults to the model [--model, --judge]
        base_url / judge_base_url: OpenAI-compatible server of the model / judge [--base-url, --judge-base-url]
        translator / translator_base_url: back-translation model for consistency in paper mode; defaults to the
            judge when a judge different from the model was named, else the run stops before any request (the
            model under test never back-translates its own answers unless named here) [--translator,
            --translator-base-url]
        api_key_env: environment variable that holds the API key [--api-key-env]
        limit: first N questions (same ones in every language) [--limit]
        include_defective: keep questions with empty cells (LiveQA 58, 67; MedicationQA 212) [--include-defective]
        seed: sent with every request (the paper set none) [--seed]
        temperatures: temperatures swept by verifiability and consistency; default the paper's 0, 0.25, 0.5, 0.75,
            1 for consistency and for verifiability on XLingHealth (0 for a user's qa:FILE) [--temperatures]
        max_tokens / judge_max_tokens: answer and judge; default XLingEval 1000 (paper), MedArabiQ 16 for a
            letter, 64 for a FITB term, 512 for a Q&A answer (unstated in that paper) [--max-tokens,
            --judge-max-tokens]
        judge_temperature: temperature of the MedArabiQ rubric judge (unstated; 0) [--judge-temperature]
        model_class: ``auto`` | ``open`` | ``closed``: MedArabiQ's default temperatures depend on it (open 0.0
            for MCQ/FITB and 0.4 for Q&A, closed 0.2); ``auto`` = closed for GPT/Claude/Gemini/DeepSeek names
            [--model-class]
        paper_compat: ``medarabiq/mcq_bias``: only rows 0–97, the paper's 98-item Table 2 [--paper-compat]
        mc_prompt: ``raw`` (options inside the question cell, paper) | ``structured`` [--mc-prompt]
        letter_parser: how a multiple-choice reply is read (``parsing.choice``): ``robust`` (marker, answer
            phrases, standalone labels, option text; never a guess) | ``paper`` (the character after the marker,
            else invalid) | ``first_char`` (marker, else the first character: the default before 0.2) |
            ``regex`` [--letter-parser]
        letter_fallback: the old name: ``first_char`` | ``regex`` | ``invalid`` (= ``paper``) set
            ``letter_parser`` [--letter-fallback]
        bias_conditions: which of original, biased, education, one_shot, few_shot to ask [--bias-conditions]
        prompt_templates: YAML file laid over ``prompts/medarabiq.yaml`` [--prompt-templates]
        columns: a user's file (``mcq:FILE``, ``qa:FILE``): field → column name, e.g. ``{"question": "stem"}``
            [--columns question=stem,answer=gold]
        answer_format: ``mcq:FILE`` answers: ``auto`` (letter, else option text) | ``letter`` | ``index0`` |
            ``index1`` | ``text`` [--answer-format]
        perturb: ``bias:all`` or ``bias:<name>[,<name>…]``: inject cognitive biases into multiple-choice items
            [--perturb]
        mitigations: with ``perturb``: any of education, one_shot, few_shot [--mitigations]
        bias_target / bias_target_render / bias_position: target policy (random_incorrect | correct | random),
            how the target is named (letter_and_text | text_only | letter_only), where the sentence goes (auto |
            prepend | append | after_first_sentence) [--bias-target, --bias-target-render, --bias-position]
        verify_max_tokens: verifiability reply; the paper set none, a yes/no needs few [--verify-max-tokens]
        judge_parser: ``paper`` | ``paper+fallback`` [--judge-parser]
        verify_parser: ``paper`` | ``strict`` [--verify-parser]
        logprobs: ask for logprobs in verifiability, for AUC from P(yes) [--no-logprobs]
        max_concurrency, max_retries, timeout_s: request handling; the concurrency is a ceiling that halves on
            429/503 and grows back when healthy [--max-concurrency, --max-retries, --timeout]
        retry_cap_s: the longest wait before one resend, ``Retry-After`` included (seconds) [--retry-cap]
        rpm / tpm: requests- and tokens-per-minute ceilings of each remote backend [--rpm, --tpm]
        max_requests: stop cleanly after this many backend calls; the same command resumes [--max-requests]
        max_cost: stop cleanly before spending more than this many USD (needs ``prices``) [--max-cost]
        prices: ``provider/model`` → (USD per 1M prompt tokens, USD per 1M completion tokens)
            [--price MODEL=IN,OUT, repeatable]
        retry_failed: resend requests whose failure is cached (HTTP 400/413/422; transient failures are never
            cached, so any re-run resends them) [--retry-failed]
        n_ctx: context window of in-process GGUF models [--n-ctx]
        samples: consistency answers per question and temperature, K (paper: 10) [--samples]
        consistency_mode: ``paper`` (metrics on English back-translations) | ``native`` [--consistency-mode]
        consistency_metrics: which of ngram, length, bertscore, sim_sent, lda, hdp, lang_consistency
            [--consistency-metrics]
        translate_max_tokens: back-translation length limit [--translate-max-tokens]
        bertscore_model / bertscore_layers: encoder and layer; default consistency paper mode bert-base-uncased
            layer 12 (the authors' code), native mode bert-base-multilingual-cased at bert-score's layer;
            MedArabiQ xlm-roberta-large at layer 17 (bert-score's default; spec §4.4) [--bertscore-model,
            --bertscore-layers]
        bertscore_idf / bertscore_rescale: idf weighting, baseline rescaling (paper: off) [--bertscore-idf,
            --bertscore-rescale]
        embedding_model: sim_sent encoder; default paper mode bert-base-uncased mean pooling (the authors'
            code), native mode paraphrase-multilingual-MiniLM-L12-v2 [--embedding-model]
        lda_topics: LDA topic counts (paper Table A9: 20, 100) [--lda-topics]
        topic_fit: ``condition`` (one topic model per language × temperature, paper) | ``shared`` [--topic-fit]
        topic_seed: LDA/HDP random_state (paper: 42) [--topic-seed]
        language_id: language consistency: ``paper`` (langid over all its languages, sentences in other languages
            ignored) | ``restricted`` (langid chooses among the run's languages) [--language-id]
        device: torch device of the encoders, ``auto`` = CUDA when present [--device]
        cache: completion cache file; default ``$XLINGMED_CACHE`` or the user cache dir [--cache]
        out: run folder [--out]
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    benchmark: str
    data_dir: Path | None = None
    languages: tuple[str, ...] = ("en", "es", "zh", "hi")
    tasks: tuple[str, ...] = ("correctness", "verifiability")
    model: str = "llamacpp/smollm2"
    judge: str | None = None
    base_url: str | None = None
    judge_base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    limit: int | None = Field(default=None, ge=1)
    include_defective: bool = False
    seed: int | None = 42
    temperatures: tuple[float, ...] | None = None
    max_tokens: int | None = Field(default=None, ge=1)
    judge_max_tokens: int = Field(default=1000, ge=1)
    judge_temperature: float = Field(default=0.0, ge=0, le=2)
    model_class: Literal["auto", "open", "closed"] = "auto"
    paper_compat: bool = False
    mc_prompt: Literal["raw", "structured"] = "raw"
    letter_parser: Literal["robust", "paper", "first_char", "regex"] = "robust"
    letter_fallback: Literal["first_char", "regex", "invalid"] | None = None
    bias_conditions: tuple[str, ...] = BIAS_CONDITIONS
    prompt_templates: Path | None = None
    columns: dict[str, str] = Field(default_factory=dict)
    answer_format: Literal["auto", "letter", "index0", "index1", "text"] = "auto"
    perturb: str | None = None
    mitigations: tuple[str, ...] = ()
    bias_target: Literal["random_incorrect", "correct", "random"] = "random_incorrect"
    bias_target_render: Literal["letter_and_text", "text_only", "letter_only"] = "letter_and_text"
    bias_position: Literal["auto", "prepend", "append", "after_first_sentence"] = "auto"
    verify_max_tokens: int = Field(default=32, ge=1)
    judge_parser: str = "paper"
    verify_parser: str = "paper"
    logprobs: bool = True
    max_concurrency: int = Field(default=8, ge=1)
    max_retries: int = Field(default=5, ge=0, le=20)
    timeout_s: float = Field(default=600.0, gt=0)
    retry_cap_s: float = Field(default=60.0, ge=0)
    rpm: float | None = Field(default=None, gt=0)
    tpm: float | None = Field(default=None, gt=0)
    max_requests: int | None = Field(default=None, ge=1)
    max_cost: float | None = Field(default=None, gt=0)
    prices: dict[str, tuple[float, float]] = Field(default_factory=dict)
    retry_failed: bool = False
    n_ctx: int = Field(default=8192, ge=256)
    samples: int = Field(default=10, ge=2, le=1000)
    consistency_mode: str = "paper"
    consistency_metrics: tuple[str, ...] = CONSISTENCY_METRICS
    translator: str | None = None
    translator_base_url: str | None = None
    translate_max_tokens: int = Field(default=1000, ge=1)
    bertscore_model: str | None = None
    bertscore_layers: int | None = Field(default=None, ge=0)
    bertscore_idf: bool = False
    bertscore_rescale: bool = False
    embedding_model: str | None = None
    lda_topics: tuple[int, ...] = (20, 100)
    topic_fit: str = "condition"
    topic_seed: int = 42
    language_id: Literal["paper", "restricted"] = "paper"
    device: str = "auto"
    cache: Path | None = None
    out: Path = Path("runs/latest")

    @model_validator(mode="before")
    @classmethod
    def _old_letter_fallback(cls, data: Any) -> Any:
        # --letter-fallback (before 0.2) names a parser: invalid was the paper's rule
        if isinstance(data, dict) and data.get("letter_fallback") and not data.get("letter_parser"):
            old = data["letter_fallback"]
            data = dict(data)
            data["letter_parser"] = {"invalid": "paper"}.get(old, old)
        return data

    @model_validator(mode="before")
    @classmethod
    def _benchmark_defaults(cls, data: Any) -> Any:
        # languages and tasks default to the benchmark's own (an unknown benchmark is reported by its field)
        if isinstance(data, dict) and isinstance(data.get("benchmark"), str):
            try:
                spec = get_benchmark(data["benchmark"])
            except ConfigError:
                return data
            data = dict(data)
            if "languages" not in data:
                data["languages"] = spec.default_languages
            data.setdefault("tasks", spec.default_tasks)
        return data

    @field_validator("benchmark")
    @classmethod
    def _benchmark(cls, v: str) -> str:
        try:
            get_benchmark(v)
        except ConfigError as exc:
            raise ValueError(str(exc)) from None
        return v

    @model_validator(mode="after")
    def _tasks_fit_benchmark(self) -> RunConfig:
        try:
            self.spec.check_tasks(self.tasks)
        except ConfigError as exc:
            raise ValueError(str(exc)) from None
        return self

    @model_validator(mode="after")
    def _translator_is_not_the_model_under_test(self) -> RunConfig:
        # Paper mode scores es/zh/hi on English back-translations: a model that translates its own answers
        # would grade itself, so the translator defaults to a judge only when one different from the model
        # was named (spec xlingeval.md §3.2).
        paper_mode = "consistency" in self.tasks and self.consistency_mode == "paper"
        if paper_mode and self.translator is None and self.judge in (None, self.model):
            raise ValueError(
                "consistency in paper mode computes the metrics of es/zh/hi on English back-translations, and "
                "no translator was named (the judge, which would default, is the model under test): pass "
                "--translator provider/model, or use --consistency-mode native"
            )
        return self

    @field_validator("prices", mode="before")
    @classmethod
    def _prices(cls, v: Any) -> Any:
        if isinstance(v, list | tuple):
            from xlingmed.budget import parse_prices

            return {m: (p.prompt, p.completion) for m, p in parse_prices([str(x) for x in v]).items()}
        return v

    @field_validator("columns", mode="before")
    @classmethod
    def _columns(cls, v: Any) -> dict[str, str]:
        if isinstance(v, str):
            pairs = [p.split("=", 1) for p in v.split(",") if p.strip()]
            if any(len(p) != 2 or not p[0].strip() or not p[1].strip() for p in pairs):
                raise ValueError(f"expected field=column[,field=column…], got {v!r}")
            return {k.strip(): c.strip() for k, c in pairs}
        return dict(v or {})

    @field_validator("mitigations", mode="before")
    @classmethod
    def _mitigations(cls, v: Any) -> tuple[str, ...]:
        parts = [t.strip() for t in (v.split(",") if isinstance(v, str) else v) if str(t).strip()]
        unknown = [t for t in parts if t not in ("education", "one_shot", "few_shot")]
        if unknown:
            raise ValueError(f"unknown mitigation(s) {unknown}; known: education, one_shot, few_shot")
        return tuple(m for m in ("education", "one_shot", "few_shot") if m in parts)

    @model_validator(mode="after")
    def _perturbation_fits(self) -> RunConfig:
        if self.perturb is not None:
            from xlingmed.perturbations.bias import parse_perturb

            try:
                parse_perturb(self.perturb)
            except ConfigError as exc:
                raise ValueError(str(exc)) from None
            if "multiple_choice" not in self.tasks:
                raise ValueError("--perturb bias:… applies to multiple-choice benchmarks (mcq:FILE, medarabiq/mcq…)")
            if self.benchmark == "medarabiq/mcq_bias":
                raise ValueError("medarabiq/mcq_bias already holds its own bias variants; perturb medarabiq/mcq")
        elif self.mitigations:
            raise ValueError("--mitigations needs --perturb bias:…")
        return self

    @field_validator("bias_conditions", mode="before")
    @classmethod
    def _bias_conditions(cls, v: Any) -> tuple[str, ...]:
        parts = [t.strip() for t in (v.split(",") if isinstance(v, str) else v) if str(t).strip()]
        unknown = [t for t in parts if t not in BIAS_CONDITIONS]
        if unknown or not parts:
            raise ValueError(f"unknown condition(s) {unknown or parts}; known: {', '.join(BIAS_CONDITIONS)}")
        return tuple(c for c in BIAS_CONDITIONS if c in parts)

    @field_validator("languages", mode="before")
    @classmethod
    def _languages(cls, v: Any) -> tuple[str, ...]:
        try:
            return parse_languages(v)
        except ConfigError as exc:
            raise ValueError(str(exc)) from None

    @field_validator("tasks", mode="before")
    @classmethod
    def _tasks(cls, v: Any) -> tuple[str, ...]:
        parts = [t.strip() for t in (v.split(",") if isinstance(v, str) else v) if t.strip()]
        unknown = [t for t in parts if t not in KNOWN_TASKS]
        if unknown or not parts:
            raise ValueError(f"unknown task(s) {unknown or parts}; known: {', '.join(KNOWN_TASKS)}")
        return tuple(dict.fromkeys(parts))

    @field_validator("temperatures", mode="before")
    @classmethod
    def _temperatures(cls, v: Any) -> tuple[float, ...] | None:
        if v is None:
            return None
        parts = v.split(",") if isinstance(v, str) else v
        try:
            temps = tuple(float(t) for t in parts if str(t).strip())
        except ValueError:
            raise ValueError(f"temperatures must be numbers, got {v!r}") from None
        if not temps or any(t < 0 or t > 2 for t in temps):
            raise ValueError(f"temperatures must be in [0, 2], got {v!r}")
        return tuple(dict.fromkeys(temps))

    @field_validator("consistency_metrics", mode="before")
    @classmethod
    def _consistency_metrics(cls, v: Any) -> tuple[str, ...]:
        parts = [t.strip() for t in (v.split(",") if isinstance(v, str) else v) if str(t).strip()]
        unknown = [t for t in parts if t not in CONSISTENCY_METRICS]
        if unknown or not parts:
            raise ValueError(f"unknown metric(s) {unknown or parts}; known: {', '.join(CONSISTENCY_METRICS)}")
        return tuple(dict.fromkeys(parts))

    @field_validator("lda_topics", mode="before")
    @classmethod
    def _lda_topics(cls, v: Any) -> tuple[int, ...]:
        parts = v.split(",") if isinstance(v, str) else v
        try:
            topics = tuple(int(t) for t in parts if str(t).strip())
        except ValueError:
            raise ValueError(f"topic counts must be integers, got {v!r}") from None
        if not topics or any(t < 2 for t in topics):
            raise ValueError(f"topic counts must be ≥ 2, got {v!r}")
        return tuple(dict.fromkeys(topics))

    @field_validator("consistency_mode")
    @classmethod
    def _consistency_mode(cls, v: str) -> str:
        if v not in ("paper", "native"):
            raise ValueError("must be 'paper' or 'native'")
        return v

    @field_validator("topic_fit")
    @classmethod
    def _topic_fit(cls, v: str) -> str:
        if v not in ("condition", "shared"):
            raise ValueError("must be 'condition' or 'shared'")
        return v

    @field_validator("model", "judge", "translator")
    @classmethod
    def _model_id(cls, v: str | None) -> str | None:
        if v is not None:
            try:
                split_model_id(v)
            except Exception as exc:
                raise ValueError(str(exc)) from None
        return v

    @field_validator("judge_parser")
    @classmethod
    def _judge_parser(cls, v: str) -> str:
        if v not in ("paper", "paper+fallback"):
            raise ValueError("must be 'paper' or 'paper+fallback'")
        return v

    @field_validator("verify_parser")
    @classmethod
    def _verify_parser(cls, v: str) -> str:
        if v not in ("paper", "strict"):
            raise ValueError("must be 'paper' or 'strict'")
        return v

    @property
    def spec(self) -> Benchmark:
        """The benchmark spec this run's ``benchmark`` names (parsed once here; nothing else reads the string)."""
        return get_benchmark(self.benchmark)

    def benchmark_options(self) -> dict[str, Any]:
        """The benchmark's own settings, handed to ``Benchmark.load``."""
        return {
            "include_defective": self.include_defective,
            "paper_compat": self.paper_compat,
            "columns": dict(self.columns),
            "answer_format": self.answer_format,
        }

    @property
    def judge_model(self) -> str:
        return self.judge or self.model

    @property
    def translator_model(self) -> str:
        return self.translator or self.judge_model

    def task_temperatures(self, task: str) -> tuple[float, ...]:
        """The temperatures ``task`` sweeps: ``--temperatures`` if given, else the task's default (MedArabiQ:
        the paper's temperature for this model class and task, ``medarabiq.default_temperature``; XLingHealth:
        the paper's five for verifiability and consistency)."""
        if self.temperatures is not None:
            return self.temperatures
        return self.spec.temperatures(task, self.model, self.model_class)

    def task_max_tokens(self) -> int:
        """Answer length limit: ``--max-tokens`` if given, else the benchmark's default (see the class doc)."""
        if self.max_tokens is not None:
            return self.max_tokens
        return self.spec.max_tokens()

    def encoder_device(self) -> str:
        if self.device != "auto":
            return self.device
        import torch

        return "cuda" if torch.cuda.is_available() else "cpu"

    def bertscore_settings(self) -> tuple[str, int | None]:
        """(model, layer) for BERTScore: the user's, else the benchmark's or mode's default (class docstring).

        bert-base-uncased without a layer gets the paper's layer 12 (the authors' code used the last layer), not
        bert-score's default for that model (9), whether it was named or is the default."""
        if self.bertscore_layers is not None:
            return self.bertscore_model or self._default_bertscore_model(), self.bertscore_layers
        model = self.bertscore_model or self._default_bertscore_model()
        return model, (PAPER_BERTSCORE_LAYER if _is_paper_bert(model) else None)

    def _default_bertscore_model(self) -> str:
        return "bert-base-uncased" if self.consistency_mode == "paper" else "bert-base-multilingual-cased"

    def encoder_sources(self) -> dict[str, dict[str, str]]:
        """Where each resolved encoder setting comes from: ``user``, ``paper default`` or the library's default
        for that model. Recorded in the manifest and beside every BERTScore / sim_sent number."""
        user = "user"
        bs_model, _ = self.bertscore_settings()
        if self.bertscore_layers is not None:
            layer = user
        elif _is_paper_bert(bs_model):
            layer = f"paper default (XLingEval code: layer {PAPER_BERTSCORE_LAYER} of bert-base-uncased)"
        else:
            layer = "bert-score default for this model"
        paper_model = "paper default" if self.consistency_mode == "paper" else "xlingmed default (native mode)"
        flags = {
            "idf": user if "bertscore_idf" in self.model_fields_set else "paper default",
            "rescale": user if "bertscore_rescale" in self.model_fields_set else "paper default",
        }
        return {
            "consistency_bertscore": {"model": user if self.bertscore_model else paper_model, "layer": layer, **flags},
            "sim_sent": {"model": user if self.embedding_model else paper_model},
            "open_qa_bertscore": {
                "model": user if self.bertscore_model else "paper default (MedArabiQ §4.4: xlm-roberta-large)",
                "layer": user
                if self.bertscore_layers is not None
                else "bert-score default for this model (xlm-roberta-large: 17, as the paper)",
                **flags,
            },
        }

    def resolved(self) -> dict[str, Any]:
        """Every protocol choice as it was resolved for this run, and whether it was the default (manifest)."""
        given = self.model_fields_set
        return {
            "temperatures": {t: list(self.task_temperatures(t)) for t in self.tasks},
            "temperatures_source": "user" if "temperatures" in given else "paper default",
            "max_tokens": self.task_max_tokens(),
            "letter_parser": self.letter_parser,
            "judge_parser": self.judge_parser,
            "verify_parser": self.verify_parser,
            "judge": self.judge_model,
            "translator": self.translator_model
            if ("consistency" in self.tasks and self.consistency_mode == "paper")
            else None,
            "translator_source": "user" if self.translator else "judge",
            "language_id": self.language_id,
            "bertscore": dict(zip(("model", "layer"), self.bertscore_settings(), strict=True)),
            "open_qa_bertscore": dict(zip(("model", "layer"), self.open_qa_bertscore_settings(), strict=True)),
            "embedding_model": self.embedding_settings(),
            "encoder_sources": self.encoder_sources(),
            "defaults_taken": sorted(set(type(self).model_fields) - set(given)),
        }

    def open_qa_bertscore_settings(self) -> tuple[str, int | None]:
        """(model, layer) of the open-answer BERTScore: the user's, else MedArabiQ's xlm-roberta-large at
        bert-score's default layer for it, 17 (spec medarabiq.md §4.4)."""
        if self.bertscore_model is not None:
            return self.bertscore_model, self.bertscore_layers
        return "xlm-roberta-large", self.bertscore_layers

    def embedding_settings(self) -> str:
        if self.embedding_model is not None:
            return self.embedding_model
        if self.consistency_mode == "paper":
            return "bert-base-uncased"
        return "sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2"


PAPER_BERTSCORE_LAYER = 12  # XLingEval's code scored with the last layer of bert-base-uncased (spec §3.4 c)


def _is_paper_bert(model: str) -> bool:
    """bert-base-uncased by hub name or as a local folder of that name."""
    return Path(model).name == "bert-base-uncased"


def make_config(source: str | Path | None = None, **overrides: Any) -> RunConfig:
    """Build a RunConfig from an optional YAML file plus keyword overrides (``None`` values are ignored).

    Raises:
        ConfigError: unreadable YAML, or a field that fails validation (the message names the field).
    """
    data: dict[str, Any] = {}
    if source is not None:
        try:
            loaded = yaml.safe_load(Path(source).read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as exc:
            raise ConfigError(f"config file {source}: {exc}") from None
        if loaded is None:
            loaded = {}
        if not isinstance(loaded, dict):
            raise ConfigError(f"config file {source}: expected a mapping of field: value")
        data.update(loaded)
    data.update({k: v for k, v in overrides.items() if v is not None})
    try:
        return RunConfig(**data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'config'}: {err['msg']}" for err in exc.errors()
        )
        where = f"config file {source}: " if source else ""
        raise ConfigError(f"{where}{problems}") from None
