"""Consistency (XLingEval paper §4, Fig. 3, Tables A9, A10, A4; spec ``xlingeval.md`` §3).

The model answers each question K times at each temperature, in each language (prompt of spec Appendix A.1).
Each sample is its own request with its own seed, derived from the run seed, so the K samples never collapse
in the cache and a re-run reproduces them. In ``paper`` mode, non-English answers are back-translated into
English by the translator model (``xlingmed.translate``) and every similarity metric runs on the translations;
in ``native`` mode they run on the original text with language-aware tokenisation. Language consistency always
uses the original text.

Per question (K answers) the metrics are: sim_1-gram and sim_2-gram, length (mean and sd), BERTScore P/R/F1,
sim_sent, sim_LDA (T topics, per condition), sim_HDP, and language consistency. Skipping rules (spec §3.3,
§3.4e) are applied and counted: a question with a failed answer or translation, or with an answer that has no
letter after cleaning, gets no similarity metric; a question with an empty or stopword-only answer gets no
topic metric.
"""

from __future__ import annotations

import hashlib
import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

from xlingmed.errors import ConfigError
from xlingmed.metrics.bertscore import PairwiseBERTScore
from xlingmed.metrics.embedding import SentenceSimilarity
from xlingmed.metrics.language_id import LanguageIdentifier
from xlingmed.metrics.lexical import Mode, clean_answer, has_letters, length_tokenizer_name, native_tokens
from xlingmed.metrics.sets import Condition, SetSettings, set_metrics
from xlingmed.metrics.topics import only_stopwords
from xlingmed.prompts import medalpaca
from xlingmed.tasks.base import Scoring, Stage, error_of
from xlingmed.tasks.consistency.aggregate import metric_columns, summarize
from xlingmed.tasks.consistency.capabilities import not_available
from xlingmed.tasks.consistency.summary import ConsistencySummary
from xlingmed.translate import clean_translation, translation_request
from xlingmed.types import Completion, GenerateRequest, Item, Message, Parsed, Sample, Score

SYSTEM = "Assistant is a medical expert that answers health-related questions."

# Spec Appendix A.1, verbatim from the authors' code (claws-lab/XLingEval, Apache-2.0), quirks included: the
# Spanish prompt closes its fence with two backticks and a period, and en/es/hi have a space before "\n".
PROMPTS: dict[str, str] = {
    "en": (
        "I want you to act as a doctor and answer the following medical question, or give your medical diagnosis "
        "based on the following scenario. \nQuestion: ```{question}```"
    ),
    "es": (
        "Quiero que actúes como un médico y respondas a la siguiente pregunta médica, o des tu diagnóstico médico "
        "basado en el siguiente escenario. \nPregunta: ```{question}``."
    ),
    "zh": "我想让你扮演一个医生，回答下列医学问题，或根据下列情境提出诊疗方案。\n问题: ```{question}```",
    "hi": (
        "मैं चाहता हूं कि आप एक डॉक्टर के रूप में कार्य करें और निम्नलिखित चिकित्सा प्रश्न का उत्तर दें, या "
        "निम्नलिखित परिदृश्य के आधार पर अपना चिकित्सा निदान दें। \nप्रश्न: ```{question}```"
    ),
}

# The paper's set metrics (metrics/sets.py), the default of -T consistency_metrics; a plugin's is named there.
METRIC_GROUPS = ("ngram", "length", "bertscore", "sim_sent", "lda", "hdp", "lang_consistency")
NEEDS = {"bertscore": "a BERTScore model", "sim_sent": "a sentence-embedding model"}  # encoders the task loads
MODES = ("paper", "native")
TOPIC_FITS = ("condition", "shared")


def sample_seed(run_seed: int | None, sample_index: int) -> int | None:
    """The seed of sample ``sample_index``: a 31-bit hash of (run seed, index), so seeds of nearby run seeds
    do not overlap (42+1 vs 43+0). ``None`` when the run sends no seed."""
    if run_seed is None:
        return None
    digest = hashlib.sha256(f"xlingmed-consistency:{run_seed}:{sample_index}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def _nan_to_none(v: float | None) -> float | None:
    return None if v is None or (isinstance(v, float) and math.isnan(v)) else v


class ConsistencyTask:
    """Settings (CLI flag in brackets):

    Args:
        samples: K answers per question and temperature (paper: 10) [--samples]
        temperatures: (paper: 0, 0.25, 0.5, 0.75, 1) [--temperatures]
        mode: ``paper`` (metrics on English back-translations) or ``native`` [--consistency-mode]
        languages / langid_languages: the run's; the candidates of language consistency (``None``: the run's)
        seed: run seed; sample k is sent with ``sample_seed(seed, k)`` [--seed]
        max_tokens: answer length limit; ``None`` = none, as the paper [-T consistency_max_tokens, --max-tokens]
        translate_max_tokens: back-translation length limit
        metrics: the registered set metrics to compute (``metrics.sets``; default ``METRIC_GROUPS``, the paper's)
            [--consistency-metrics]
        lda_topics: LDA topic counts (paper table: 20 and 100) [--lda-topics]
        topic_fit: ``condition`` (one topic model per language × temperature, as the authors did) or ``shared``
            (one per run, so all conditions share a topic space) [--topic-fit]
        topic_seed: random_state of LDA and HDP (paper: 42) [--topic-seed]
        bertscore: a loaded ``PairwiseBERTScore`` (required when ``bertscore`` is among ``metrics``)
        embedder: a loaded ``SentenceSimilarity`` (required when ``sim_sent`` is among ``metrics``)
        translator: the translator's ``provider/model`` (recorded with the results)
    Raises:
        ConfigError: unknown mode, metric group or topic fit; a needed encoder missing.
    """

    name: ClassVar[str] = "consistency"
    stages: ClassVar[tuple[Stage, ...]] = (Stage("answer", "model"), Stage("translate", "translator"))
    samples_by_item: ClassVar[bool] = True  # samples(items) = each item's samples in turn (engine/plan.py)

    def __init__(
        self,
        *,
        samples: int = 10,
        temperatures: Sequence[float] = (0.0, 0.25, 0.5, 0.75, 1.0),
        mode: Literal["paper", "native"] | str = "paper",
        languages: Sequence[str] = ("en", "es", "zh", "hi"),
        seed: int | None = 42,
        max_tokens: int | None = None,
        translate_max_tokens: int = 1000,
        metrics: Sequence[str] = METRIC_GROUPS,
        lda_topics: Sequence[int] = (20, 100),
        topic_fit: str = "condition",
        topic_seed: int = 42,
        bertscore: PairwiseBERTScore | None = None,
        embedder: SentenceSimilarity | None = None,
        translator: str | None = None,
        language_id: str = "paper",
        langid_languages: Sequence[str] | None = None,
        encoder_sources: Mapping[str, Mapping[str, str]] | None = None,
        prompt_style: str = "paper",
        prompt_language: str = "item",
    ) -> None:
        if mode not in MODES:
            raise ConfigError(f"unknown consistency mode {mode!r}; known: {', '.join(MODES)}")
        known = set_metrics()
        unknown = [m for m in metrics if m not in known]
        if unknown:
            raise ConfigError(f"unknown consistency metric(s) {unknown}; known: {', '.join(known)}")
        if topic_fit not in TOPIC_FITS:
            raise ConfigError(f"unknown topic fit {topic_fit!r}; known: {', '.join(TOPIC_FITS)}")
        if samples < 2:
            raise ConfigError("consistency needs at least 2 samples per question (--samples)")
        loaded = {"bertscore": bertscore, "sim_sent": embedder}
        for name in metrics:
            for need in known[name].needs:
                if need in NEEDS and loaded[need] is None:
                    raise ConfigError(f"consistency metric {name!r} needs {NEEDS[need]}")
        self.samples_per_question = samples
        self.temperatures = tuple(temperatures)
        self.mode = mode
        self.languages = tuple(languages)
        self.seed = seed
        self.max_tokens = max_tokens
        self.translate_max_tokens = translate_max_tokens
        self.metrics = tuple(m for m in known if m in metrics)  # in the registry's order
        self.lda_topics = tuple(lda_topics)
        self.topic_fit = topic_fit
        self.topic_seed = topic_seed
        self.bertscore = bertscore
        self.embedder = embedder
        self.translator = translator
        self.language_id = language_id
        self.langid_languages = tuple(langid_languages) if langid_languages else tuple(languages)
        self.encoder_sources = {k: dict(v) for k, v in (encoder_sources or {}).items()}
        self.prompt_style = prompt_style
        self.prompt_language = prompt_language
        self._langid: LanguageIdentifier | None = None

    # ---- generation -------------------------------------------------------------------------------------

    def samples(self, items: Sequence[Item]) -> list[Sample]:
        missing = sorted({it.lang for it in items} - set(PROMPTS))
        if missing and self.prompt_style == "paper" and self.prompt_language == "item":
            raise ConfigError(f"consistency has the paper's prompt in {', '.join(PROMPTS)} only, not in "
                              f"{', '.join(missing)}: pass -T consistency_prompt_language=en to ask with the English "
                              "prompt around the item's own question (recorded as such)")  # fmt: skip
        return [
            Sample(
                item=it,
                task=self.name,
                key=f"t{t:g}-k{k}",
                temperature=t,
                sample_index=k,
                meta={"seed": sample_seed(self.seed, k)},
            )
            for it in items
            for t in self.temperatures
            for k in range(self.samples_per_question)
        ]

    def translates(self, lang: str) -> bool:
        return self.mode == "paper" and lang != "en"

    def request(self, stage: str, sample: Sample, prior: Mapping[str, Completion]) -> GenerateRequest | None:
        item = sample.item
        if stage == "answer" and self.prompt_style == "medalpaca":
            return medalpaca.request(
                medalpaca.consistency_prompt(item),
                temperature=sample.temperature,
                max_tokens=self.max_tokens,
                seed=sample.meta["seed"],
                sample_index=sample.sample_index,
            )
        if stage == "answer":
            return GenerateRequest(
                messages=(
                    Message("system", SYSTEM),
                    Message("user", PROMPTS.get(item.lang, PROMPTS["en"]).format(question=item.question)),
                ),
                temperature=sample.temperature,
                max_tokens=self.max_tokens,
                seed=sample.meta["seed"],
                sample_index=sample.sample_index,
            )
        answer = prior.get("answer")
        if not self.translates(item.lang) or answer is None or not answer.ok or not has_letters(answer.text):
            return None  # nothing to translate: the question is skipped by the cleaning rules anyway
        return translation_request(
            answer.text.strip(), item.lang, "en", max_tokens=self.translate_max_tokens, seed=self.seed
        )

    def parse(self, stage: str, sample: Sample, completion: Completion) -> Parsed | None:
        return None

    def record(self, sample: Sample, completions: Mapping[str, Completion]) -> dict[str, Any]:
        answer = completions.get("answer")
        translation = completions.get("translate")
        answer_text = answer.text if answer is not None and answer.ok else None
        if not self.translates(sample.item.lang):
            analysed = answer_text
        elif translation is not None and translation.ok:
            analysed = clean_translation(translation.text)
        elif answer_text is not None and not has_letters(answer_text):
            analysed = answer_text  # not sent for translation; skipped by the no-letters rule
        else:
            analysed = None
        return {
            "item_id": sample.item.item_id,
            "lang": sample.item.lang,
            "temperature": sample.temperature,
            "sample_index": sample.sample_index,
            "seed": sample.meta["seed"],
            "answer": answer_text,
            "translation": clean_translation(translation.text) if translation is not None and translation.ok else None,
            "analysed_text": analysed,
            "error": error_of(completions),
        }

    # ---- scoring ----------------------------------------------------------------------------------------

    def _identifier(self) -> LanguageIdentifier:
        if self._langid is None:
            self._langid = LanguageIdentifier(self.langid_languages, scope=self.language_id)
        return self._langid

    def settings(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "samples": self.samples_per_question,
            "temperatures": list(self.temperatures),
            "metrics": list(self.metrics),
            "translator": self.translator if self.mode == "paper" else None,
            "bertscore": {**self.bertscore.settings(), "source": self.encoder_sources.get("consistency_bertscore", {})}
            if self.bertscore and "bertscore" in self.metrics
            else None,
            "sim_sent": {**self.embedder.settings(), "source": self.encoder_sources.get("sim_sent", {})}
            if self.embedder and "sim_sent" in self.metrics
            else None,
            "ngram_tokenizer": "sklearn CountVectorizer" if self.mode == "paper" else "native (jieba for zh, pythainlp "
                                                                                      "for th)",
            "not_available": not_available(self.metrics, self.languages, self.mode),
            "prompt_language": {lang: lang if lang in PROMPTS else "en" for lang in self.languages},
            "length_tokenizer": length_tokenizer_name("paper" if self.mode == "paper" else "native"),
            "lda_topics": list(self.lda_topics),
            "topic_fit": self.topic_fit,
            "topic_seed": self.topic_seed,
            "langid_languages": list(self.langid_languages),
            "langid_scope": self.language_id,
            "run_seed": self.seed,
            "sample_seeds": [sample_seed(self.seed, k) for k in range(self.samples_per_question)],
        }

    def _question_row(
        self, item_id: str, lang: str, temp: float, recs: list[dict[str, Any]], text_mode: Mode,
        sets: dict[str, dict[tuple[str, float], list[tuple[dict[str, Any], list[str]]]]],
    ) -> dict[str, Any]:  # fmt: skip
        """One question's row (its metrics still blank), with why it is skipped; the texts each kind of set metric
        reads are added to ``sets`` (the row kept with them, to be filled)."""
        recs = sorted(recs, key=lambda r: r["sample_index"])
        row: dict[str, Any] = {
            "item_id": item_id,
            "lang": lang,
            "temperature": temp,
            "mode": self.mode,
            "n_samples": len(recs),
            "skipped": "",
            "topic_skipped": "",
        }
        row.update(dict.fromkeys(metric_columns(self.metrics, self.lda_topics)))
        originals = [r["answer"] for r in recs if r["answer"] is not None]
        if originals:  # language consistency reads what the model wrote, never skipped
            sets["original"][(lang, temp)].append((row, originals))
        texts = [r["analysed_text"] for r in recs]
        raw = [t if t is not None else "" for t in texts]
        if any(t is None for t in texts):
            row["skipped"] = "missing_answer"
        else:
            cleaned = [clean_answer(t) for t in raw]
            if not all(has_letters(t) for t in cleaned):
                row["skipped"] = "no_letters"
            else:
                sets["cleaned"][(lang, temp)].append((row, cleaned))
        # topic filter: on the uncleaned texts; missing answers count as empty (spec §3.4e)
        if text_mode == "paper":
            drop = any(only_stopwords(t) for t in raw)
        else:
            drop = any(not native_tokens(t, lang) for t in raw)
        if drop:
            row["topic_skipped"] = "empty_or_stopwords_only"
        else:
            sets["topic"][(lang, temp)].append((row, raw))
        return row

    def enrich(self, records: Sequence[dict[str, Any]], languages: Sequence[str]) -> list[dict[str, Any]]:
        """One row per question (language × temperature × item; ``consistency.csv``) from its samples' records,
        with each chosen set metric computed across the questions at once (an encoder batches them, a topic model
        is fitted on them) and blanks where a metric is not available for a language."""
        groups: dict[tuple[str, float], dict[str, list[dict[str, Any]]]] = defaultdict(lambda: defaultdict(list))
        for r in records:
            groups[(r["lang"], r["temperature"])][r["item_id"]].append(r)
        text_mode: Mode = "paper" if self.mode == "paper" else "native"
        rows: list[dict[str, Any]] = []
        # per condition and kind of texts a set metric reads (metrics/sets.py): (row, texts) of each question kept
        sets: dict[str, dict[tuple[str, float], list[tuple[dict[str, Any], list[str]]]]] = {
            "cleaned": defaultdict(list), "topic": defaultdict(list), "original": defaultdict(list),
        }  # fmt: skip
        for (lang, temp), by_item in sorted(groups.items(), key=lambda kv: (languages.index(kv[0][0]), kv[0][1])):
            for item_id, recs in by_item.items():
                rows.append(self._question_row(item_id, lang, temp, recs, text_mode, sets))
        self._score_sets(sets, text_mode)
        for group, langs in not_available(self.metrics, self.languages, self.mode).items():
            blank = dict.fromkeys(metric_columns([group], self.lda_topics))  # named in settings, never a number
            for row in rows:
                if row["lang"] in langs:
                    row.update(blank)
        return rows

    def tables(self, scoring: Scoring) -> dict[str, list[dict[str, Any]]]:
        """The per-sample texts (``consistency_samples.csv``: the records), the summary in long form (per
        language × temperature × metric the mean, sd and number of questions), and the Table A9 layout (mean over
        temperatures and % change vs English)."""
        summary, languages = scoring.summary, scoring.languages
        a9 = summary.table_a9
        table_a9 = [
            {"lang": lang, "mode": self.mode, **{label: a9.metrics[c][lang].cell for c, label in a9.columns.items()}}
            for lang in languages
        ]
        long = [
            {"lang": lang, "temperature": float(t), "metric": metric, "mode": self.mode, **stats.model_dump()}
            for lang, per_t in summary.languages.items()
            for t, cond in per_t.items()
            for metric, stats in cond.metrics.items()
        ]
        return {
            "consistency_samples": [dict(r) for r in scoring.records],
            "consistency_summary": long,
            "consistency_table_a9": table_a9,
        }

    def summarize(self, units: Sequence[Score], languages: Sequence[str]) -> ConsistencySummary:
        """Per language × temperature × metric the mean, sd and number of questions (each language over its own
        valid questions, NaN skipped, as the authors' aggregated table), the skip counts and Table A9, from the
        task's Scores alone (``aggregate.summarize``)."""
        return summarize(self, units, languages)

    def _score_sets(
        self, sets: Mapping[str, Mapping[tuple[str, float], list[tuple[dict[str, Any], list[str]]]]], text_mode: Mode
    ) -> None:
        """Each chosen set metric on each condition's questions that its texts keep (an encoder batches across
        them; a topic model is fitted on them, or on every topic text of the run with ``topic_fit=shared``)."""
        settings = SetSettings(lda_topics=self.lda_topics, topic_seed=self.topic_seed)
        shared = [t for entries in sets["topic"].values() for _, texts in entries for t in texts]
        known = set_metrics()
        for name in self.metrics:
            metric = known[name]
            encoders: dict[str, Any] = {"bertscore": self.bertscore, "sim_sent": self.embedder}
            if "langid" in metric.needs:
                encoders["langid"] = self._identifier()
            for (lang, _temp), entries in sets[metric.texts].items():
                if not entries:
                    continue
                condition = Condition(
                    lang, text_mode, "en" if text_mode == "paper" else lang, settings,
                    fit_on=shared if metric.texts == "topic" and self.topic_fit == "shared" else None,
                    encoders=encoders,
                )  # fmt: skip
                values = metric.compute([texts for _, texts in entries], condition)
                for (row, _), cells in zip(entries, values, strict=True):
                    row.update({column: _nan_to_none(v) for column, v in cells.items()})
