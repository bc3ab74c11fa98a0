"""Consistency's ``-T`` options and how the task is built from them (encoders are loaded here)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, field_validator

from xlingmed.metrics.bertscore import PairwiseBERTScore
from xlingmed.metrics.embedding import SentenceSimilarity
from xlingmed.tasks.common import PromptStyle
from xlingmed.tasks.consistency.task import METRIC_GROUPS, MODES, TOPIC_FITS, ConsistencyTask
from xlingmed.tasks.encoders import PAPER_BERTSCORE_LAYER, USER, EncoderOptions, is_paper_bert, open_qa_bertscore
from xlingmed.tasks.registry import names_list, one_of

if TYPE_CHECKING:
    from xlingmed.tasks.context import TaskContext


class ConsistencyOptions(EncoderOptions):
    """``-T`` options of consistency (XLingEval §3.2; defaults the paper's):

    ``samples`` K answers per question and temperature (10); ``consistency_mode`` ``paper`` (metrics on English
    back-translations) | ``native``; ``consistency_metrics`` registered set metrics
    (``metrics.sets``; default the paper's ``METRIC_GROUPS``);
    ``translate_max_tokens``; ``consistency_max_tokens`` the answers' cap (default none, as the paper: each answer
    ends where the model stops; ``--max-tokens`` caps them too where given); the BERTScore options of
    ``EncoderOptions`` (default paper mode bert-base-uncased layer 12, the authors' code; native mode
    bert-base-multilingual-cased at bert-score's layer);
    ``embedding_model`` the sim_sent encoder (paper mode bert-base-uncased mean pooling; native
    paraphrase-multilingual-MiniLM-L12-v2); ``lda_topics`` (Table A9: 20, 100); ``topic_fit`` ``condition`` (one
    topic model per language × τ) | ``shared``; ``topic_seed`` (42); ``language_id`` ``paper`` (langid over all
    its languages, sentences in other languages ignored) | ``restricted`` (among the candidate languages);
    ``language_set`` the candidate languages of language consistency: ``paper`` (en, es, zh, hi, App. D.3, whatever
    the run's languages) | ``run`` (the run's); default ``paper`` on XLingEval's benchmark, else ``run``;
    ``prompt_style`` ``paper`` | ``medalpaca`` (spec §6.3's Alpaca prompt; ``prompts/medalpaca.py``);
    ``consistency_prompt_language`` ``item`` (the paper's prompt in the item's language: en, es, zh, hi only) |
    ``en`` (a language without one is asked with the English prompt around its own question; recorded).
    """

    samples: int = Field(default=10, ge=2, le=1000)
    consistency_mode: str = "paper"
    consistency_metrics: tuple[str, ...] = METRIC_GROUPS
    translate_max_tokens: int = Field(default=1000, ge=1)
    consistency_max_tokens: int | None = Field(default=None, ge=1)
    embedding_model: str | None = None
    lda_topics: tuple[int, ...] = (20, 100)
    topic_fit: str = "condition"
    topic_seed: int = 42
    language_id: Literal["paper", "restricted"] = "paper"
    language_set: Literal["paper", "run"] | None = None
    prompt_style: PromptStyle = "paper"
    consistency_prompt_language: Literal["item", "en"] = "item"

    @field_validator("consistency_mode")
    @classmethod
    def _mode(cls, v: str) -> str:
        return one_of(v, MODES)

    @field_validator("topic_fit")
    @classmethod
    def _topic_fit(cls, v: str) -> str:
        return one_of(v, TOPIC_FITS)

    @field_validator("consistency_metrics", mode="before")
    @classmethod
    def _metrics(cls, v: Any) -> tuple[str, ...]:
        from xlingmed.metrics.sets import set_metrics

        return names_list(v, tuple(set_metrics()), "metric")

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

    def bertscore_settings(self) -> tuple[str, int | None]:
        """(model, layer) for BERTScore: the user's, else the mode's default. bert-base-uncased without a layer
        gets the paper's layer 12 (the authors' code used the last layer), not bert-score's default for that
        model (9), whether it was named or is the default."""
        model = self.bertscore_model or (
            "bert-base-uncased" if self.consistency_mode == "paper" else "bert-base-multilingual-cased"
        )
        if self.bertscore_layers is not None:
            return model, self.bertscore_layers
        return model, (PAPER_BERTSCORE_LAYER if is_paper_bert(model) else None)

    def embedding_settings(self) -> str:
        if self.embedding_model is not None:
            return self.embedding_model
        if self.consistency_mode == "paper":
            return "bert-base-uncased"
        return "sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2"

    def encoder_sources(self) -> dict[str, dict[str, str]]:
        """Where each resolved encoder setting comes from: ``user``, ``paper default`` or the library's default
        for that model. Recorded in the manifest and beside every BERTScore / sim_sent number."""
        bs_model, _ = self.bertscore_settings()
        if self.bertscore_layers is not None:
            layer = USER
        elif is_paper_bert(bs_model):
            layer = f"paper default (XLingEval code: layer {PAPER_BERTSCORE_LAYER} of bert-base-uncased)"
        else:
            layer = "bert-score default for this model"
        paper_model = "paper default" if self.consistency_mode == "paper" else "xlingmed default (native mode)"
        return {
            "consistency_bertscore": {
                "model": USER if self.bertscore_model else paper_model,
                "layer": layer,
                **self.flag_sources(),
            },
            "sim_sent": {"model": USER if self.embedding_model else paper_model},
            "open_qa_bertscore": open_qa_bertscore(self)[1],
        }


PAPER_LANGUAGE_SET = ("en", "es", "zh", "hi")  # XLingEval App. D.3: the labels language consistency counts


def langid_languages(context: TaskContext, options: ConsistencyOptions) -> tuple[str, ...]:
    """The candidate languages of language consistency (``-T language_set``): the paper's four, so a run on a
    subset of them has the paper's denominator, or the run's own."""
    chosen = options.language_set or ("paper" if context.benchmark.xlingeval_protocol else "run")
    return PAPER_LANGUAGE_SET if chosen == "paper" else tuple(context.languages)


def build(context: TaskContext, options: ConsistencyOptions) -> ConsistencyTask:
    """Loads the encoders here, so a bad model path fails before any request."""
    device = context.encoder_device()
    bertscore = None
    if "bertscore" in options.consistency_metrics:
        bs_model, bs_layers = options.bertscore_settings()
        bertscore = PairwiseBERTScore(
            bs_model,
            bs_layers,
            idf=options.bertscore_idf,
            rescale=options.bertscore_rescale,
            lang="en" if options.consistency_mode == "paper" else "other",
            device=device,
        )
    embedder = None
    if "sim_sent" in options.consistency_metrics:
        embedder = SentenceSimilarity(options.embedding_settings(), device=device)
    paper = options.consistency_mode == "paper"
    return ConsistencyTask(
        samples=options.samples,
        temperatures=context.temperatures,
        mode=options.consistency_mode,
        languages=context.languages,
        seed=context.seed,
        # the paper capped no consistency answer: -T consistency_max_tokens, else --max-tokens where given, else none
        max_tokens=options.consistency_max_tokens or context.max_tokens_given,
        translate_max_tokens=options.translate_max_tokens,
        metrics=options.consistency_metrics,
        lda_topics=options.lda_topics,
        topic_fit=options.topic_fit,
        topic_seed=options.topic_seed,
        bertscore=bertscore,
        embedder=embedder,
        translator=context.translator if paper else None,
        encoder_sources=options.encoder_sources(),
        language_id=options.language_id,
        langid_languages=langid_languages(context, options),
        prompt_style=options.prompt_style,
        prompt_language=options.consistency_prompt_language,
    )
