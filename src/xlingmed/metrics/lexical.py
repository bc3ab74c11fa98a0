"""Surface consistency: answer cleaning, n-gram Jaccard (sim_1-gram, sim_2-gram) and response length.

XLingEval paper §4 (Fig. 3, Table A9); spec ``xlingeval.md`` §3.3, §3.4a–b. Pure functions of text.

Two tokenisations:

* ``paper``: what the authors ran on English (back-translated) text. n-grams come from scikit-learn's
  ``CountVectorizer`` analyzer (lower case, ``\\b\\w\\w+\\b`` tokens, so one-character tokens are dropped and
  bigrams may skip over them); length is the NLTK ``word_tokenize`` token count, punctuation included.
* ``native``: for untranslated answers. Chinese is segmented with jieba, Thai with PyThaiNLP; every other
  language is split into runs of letters, combining marks and digits (so Devanagari vowel signs and Arabic
  diacritics stay inside their word, which ``\\w`` would break apart). No token is dropped for being short.
  Length counts word tokens only (punctuation conventions differ across scripts).
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Literal

import regex

from xlingmed.metrics.registry import ANSWERS, PAIRS, AnswerMetric, MetricSpec, declare_metric, register_metric
from xlingmed.metrics.sets import Condition, SetMetric, register_set_metric

declare_metric(
    MetricSpec("sim_1gram", ANSWERS, PAIRS, group="ngram", source="XLingEval §3.2 (Jaccard of word 1-grams)"),
    MetricSpec("sim_2gram", ANSWERS, PAIRS, group="ngram", source="XLingEval §3.2 (Jaccard of word 2-grams)"),
    MetricSpec("length_mean", ANSWERS, "mean over questions", group="length", source="XLingEval §3.2 (answer words)"),
    MetricSpec("length_sd", ANSWERS, "mean over questions", group="length", source="XLingEval §3.2 (sd of words)"),
)

Mode = Literal["paper", "native"]

_MARKERS = ("### Input:", "### Explanation:", "### Response:", "### Instruction:")
_WS = re.compile(r"\s+")
_NATIVE_WORD = regex.compile(r"[\p{L}\p{M}\p{N}]+")


def clean_answer(text: str) -> str:
    """Spec §3.3 step 2: drop the ``### Input:``-style markers, turn every other ``#`` into a space, collapse
    whitespace runs to one space."""
    for marker in _MARKERS:
        text = text.replace(marker, "")
    return _WS.sub(" ", text.replace("#", " "))


def has_letters(text: str) -> bool:
    """Spec §3.3 step 3: does any character satisfy ``str.isalpha`` (true for CJK, Devanagari, Arabic)?"""
    return any(ch.isalpha() for ch in text)


def native_tokens(text: str, lang: str) -> list[str]:
    """Lower-cased word tokens of untranslated ``text`` in ``lang`` (a segmenter's words for ``zh`` and ``th``:
    ``languages.words``; letter runs otherwise)."""
    from xlingmed.languages.words import SEGMENTERS, segment

    text = text.lower()
    if lang in SEGMENTERS:
        # the segmenters keep Latin words and digits whole; drop their whitespace and punctuation pieces
        return [tok for tok in segment(text, lang) if _NATIVE_WORD.search(tok)]
    words: list[str] = _NATIVE_WORD.findall(text)
    return words


@functools.lru_cache(maxsize=8)
def _paper_analyzer(n: int) -> Callable[[str], list[str]]:
    from sklearn.feature_extraction.text import CountVectorizer

    analyzer: Callable[[str], list[str]] = CountVectorizer(ngram_range=(n, n), binary=True).build_analyzer()
    return analyzer


def ngrams(text: str, n: int, mode: Mode = "paper", lang: str = "en") -> set[str]:
    """The set of word n-grams of ``text`` (``n`` ≥ 1), tokens joined by one space."""
    if mode == "paper":
        return set(_paper_analyzer(n)(text))
    toks = native_tokens(text, lang)
    return {" ".join(toks[i : i + n]) for i in range(len(toks) - n + 1)}


def jaccard(a: set[str], b: set[str]) -> float:
    """``|a ∩ b| / |a ∪ b|``; NaN when both sets are empty (the authors' code skipped such questions)."""
    union = a | b
    return len(a & b) / len(union) if union else math.nan


def pairwise_ngram_jaccard(texts: Sequence[str], n: int, mode: Mode = "paper", lang: str = "en") -> float:
    """sim_n-gram of one question: the mean Jaccard similarity of n-gram sets over all K(K−1)/2 pairs.

    Returns NaN when K < 2 or any pair has no n-gram at all (spec §3.4a "empty vocabulary").
    """
    sets = [ngrams(t, n, mode, lang) for t in texts]
    values = [jaccard(a, b) for a, b in combinations(sets, 2)]
    if not values or any(math.isnan(v) for v in values):
        return math.nan
    return sum(values) / len(values)


@functools.lru_cache(maxsize=1)
def _word_tokenizer() -> tuple[Callable[[str], list[str]], str]:
    """NLTK ``word_tokenize`` when its punkt data is installed; else the same Treebank tokenizer over an
    untrained Punkt sentence splitter (differs only around abbreviations such as "Dr.")."""
    import nltk
    from nltk.tokenize import NLTKWordTokenizer, PunktSentenceTokenizer

    try:
        nltk.word_tokenize("probe. probe")
        return nltk.word_tokenize, "nltk.word_tokenize"
    except LookupError:
        sentences = PunktSentenceTokenizer()
        words = NLTKWordTokenizer()

        def tokenize(text: str) -> list[str]:
            return [tok for sent in sentences.tokenize(text) for tok in words.tokenize(sent)]

        return tokenize, "nltk Treebank words over untrained Punkt sentences (punkt data not installed)"


def length_tokenizer_name(mode: Mode = "paper") -> str:
    """Which tokenizer ``response_length`` uses in ``mode`` (recorded in the run summary)."""
    return _word_tokenizer()[1] if mode == "paper" else "native word tokens"


def response_length(text: str, mode: Mode = "paper", lang: str = "en") -> int:
    """Tokens in one answer: NLTK tokens incl. punctuation (``paper``) or native word tokens (``native``)."""
    if mode == "paper":
        return len(_word_tokenizer()[0](text))
    return len(native_tokens(text, lang))


def length_stats(texts: Sequence[str], mode: Mode = "paper", lang: str = "en") -> tuple[float, float]:
    """(mean, population sd with ddof=0) of ``response_length`` over one question's K answers (spec §3.4b)."""
    if not texts:
        return math.nan, math.nan
    lengths = [response_length(t, mode, lang) for t in texts]
    mean = sum(lengths) / len(lengths)
    return mean, math.sqrt(sum((x - mean) ** 2 for x in lengths) / len(lengths))


def token_f1(answer: str, reference: str, lang: str) -> float | None:
    """SQuAD's token-overlap F1 (Rajpurkar et al. 2016) on lower-cased word tokens (jieba for Chinese), × 100."""
    ref = Counter(t.lower() for t in native_tokens(reference, lang))
    if not ref:
        return None
    got = Counter(t.lower() for t in native_tokens(answer, lang))
    common = sum((ref & got).values())
    if common == 0:
        return 0.0
    precision, recall = common / sum(got.values()), common / sum(ref.values())
    return 100 * 2 * precision * recall / (precision + recall)


register_metric(AnswerMetric("token_f1", token_f1, description="SQuAD token-overlap F1 × 100 against the reference"))


# ---- the consistency set metrics this module computes (metrics/sets.py): on the cleaned answers of a question


def _ngram(groups: Sequence[Sequence[str]], c: Condition) -> list[dict[str, float | None]]:
    return [{f"sim_{n}gram": pairwise_ngram_jaccard(g, n, c.mode, c.token_language) for n in (1, 2)} for g in groups]


def _length(groups: Sequence[Sequence[str]], c: Condition) -> list[dict[str, float | None]]:
    return [dict(zip(("length_mean", "length_sd"), length_stats(g, c.mode, c.token_language), strict=True))
            for g in groups]  # fmt: skip


register_set_metric(SetMetric("ngram", "cleaned", lambda s: ["sim_1gram", "sim_2gram"], _ngram))
register_set_metric(SetMetric("length", "cleaned", lambda s: ["length_mean", "length_sd"], _length))
