"""Topic consistency: sim_LDA and sim_HDP, the cosine similarity of answers' topic distributions.

XLingEval paper §4 (Fig. 3, Table A9); spec ``xlingeval.md`` §3.4e–f. A topic model is fitted on a corpus (by
default one condition = language × temperature: every answer of every kept question), each answer is mapped to
its topic vector, and a question's value is the mean (and sd, ddof=1) of the cosines over its K(K−1)/2 pairs.

* LDA: scikit-learn ``LatentDirichletAllocation(n_components=T, random_state=seed)`` with its defaults
  (batch learning, 10 iterations, priors 1/T) on ``CountVectorizer()`` counts (the authors' choice).
* HDP: gensim ``HdpModel(corpus, id2word, random_state=seed)`` with its defaults on ``simple_preprocess``
  tokens; a document's vector is ``hdp[bow]`` (topics under 0.01 dropped) made dense.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

import numpy as np

from xlingmed.metrics.registry import ANSWERS, PAIRS, MetricSpec, declare_metric
from xlingmed.metrics.sets import Condition, SetMetric, register_set_metric

declare_metric(
    MetricSpec("sim_lda{k}", ANSWERS, PAIRS, group="lda", source="XLingEval §3.2: LDA topic cosine (gensim), k topics"),
    MetricSpec("sim_hdp", ANSWERS, PAIRS, group="hdp", source="XLingEval §3.2: HDP topic cosine (gensim)"),
)

# NLTK's English stopword list as shipped in the 2023 nltk_data (179 words): the authors' topic filter
# (spec §3.4e). Pinned here because nltk data cannot be fetched offline and newer releases list more words.
ENGLISH_STOPWORDS: frozenset[str] = frozenset(
    [
        "i",
        "me",
        "my",
        "myself",
        "we",
        "our",
        "ours",
        "ourselves",
        "you",
        "you're",
        "you've",
        "you'll",
        "you'd",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "he",
        "him",
        "his",
        "himself",
        "she",
        "she's",
        "her",
        "hers",
        "herself",
        "it",
        "it's",
        "its",
        "itself",
        "they",
        "them",
        "their",
        "theirs",
        "themselves",
        "what",
        "which",
        "who",
        "whom",
        "this",
        "that",
        "that'll",
        "these",
        "those",
        "am",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "have",
        "has",
        "had",
        "having",
        "do",
        "does",
        "did",
        "doing",
        "a",
        "an",
        "the",
        "and",
        "but",
        "if",
        "or",
        "because",
        "as",
        "until",
        "while",
        "of",
        "at",
        "by",
        "for",
        "with",
        "about",
        "against",
        "between",
        "into",
        "through",
        "during",
        "before",
        "after",
        "above",
        "below",
        "to",
        "from",
        "up",
        "down",
        "in",
        "out",
        "on",
        "off",
        "over",
        "under",
        "again",
        "further",
        "then",
        "once",
        "here",
        "there",
        "when",
        "where",
        "why",
        "how",
        "all",
        "any",
        "both",
        "each",
        "few",
        "more",
        "most",
        "other",
        "some",
        "such",
        "no",
        "nor",
        "not",
        "only",
        "own",
        "same",
        "so",
        "than",
        "too",
        "very",
        "s",
        "t",
        "can",
        "will",
        "just",
        "don",
        "don't",
        "should",
        "should've",
        "now",
        "d",
        "ll",
        "m",
        "o",
        "re",
        "ve",
        "y",
        "ain",
        "aren",
        "aren't",
        "couldn",
        "couldn't",
        "didn",
        "didn't",
        "doesn",
        "doesn't",
        "hadn",
        "hadn't",
        "hasn",
        "hasn't",
        "haven",
        "haven't",
        "isn",
        "isn't",
        "ma",
        "mightn",
        "mightn't",
        "mustn",
        "mustn't",
        "needn",
        "needn't",
        "shan",
        "shan't",
        "shouldn",
        "shouldn't",
        "wasn",
        "wasn't",
        "weren",
        "weren't",
        "won",
        "won't",
        "wouldn",
        "wouldn't",
    ]
)

Tokenizer = Callable[[str], list[str]]


def only_stopwords(text: str) -> bool:
    """Spec §3.4e filter: every whitespace token, lower-cased and stripped, is an English stopword (an empty
    answer counts as only stopwords)."""
    return all(tok.lower().strip() in ENGLISH_STOPWORDS for tok in text.split())


def pairwise_cosine_stats(vectors: np.ndarray) -> tuple[float, float]:
    """(mean, sd with ddof=1) of the cosines over all pairs i < j of the rows of ``vectors`` (shape (K, T)).

    A zero vector has cosine 0 with everything (torch ``cosine_similarity`` with eps 1e-8, as the authors ran);
    two equal non-zero rows (identical answers) have cosine exactly 1, not 1 ± 2e-16: those last bits differ by
    the CPU's BLAS kernels, and the tests across languages would rank them.
    """
    k = vectors.shape[0]
    if k < 2:
        return float("nan"), float("nan")
    norms = np.linalg.norm(vectors, axis=1)

    def cosine(i: int, j: int) -> float:
        if norms[i] > 0 and np.array_equal(vectors[i], vectors[j]):
            return 1.0
        return float(vectors[i] @ vectors[j] / max(norms[i] * norms[j], 1e-8))

    values = [cosine(i, j) for i, j in combinations(range(k), 2)]
    sd = float(np.std(values, ddof=1)) if len(values) > 1 else float("nan")
    return float(np.mean(values)), sd


def _group(matrix: np.ndarray, sizes: Sequence[int]) -> list[np.ndarray]:
    out, start = [], 0
    for n in sizes:
        out.append(matrix[start : start + n])
        start += n
    return out


def lda_similarity(
    questions: Sequence[Sequence[str]],
    n_topics: int,
    *,
    seed: int = 42,
    tokenizer: Tokenizer | None = None,
    fit_on: Sequence[str] | None = None,
) -> list[tuple[float, float]]:
    """sim_LDA with ``n_topics`` topics: (mean, sd) per question.

    Args:
        questions: per question, its K answers (already filtered with ``only_stopwords`` or similar).
        n_topics: T (paper: 20; the code also ran 10, 50, 100, 200, 500).
        seed: ``random_state`` of the LDA fit (paper: 42).
        tokenizer: ``None`` = ``CountVectorizer`` defaults (English); else a function text → tokens.
        fit_on: documents to fit the vocabulary and topics on; default all answers in ``questions`` (one fit
            per condition). Pass a larger corpus to share one topic space across conditions.

    Returns:
        one (mean, sd) per question; all NaN when the corpus has no token at all.
    """
    from sklearn.decomposition import LatentDirichletAllocation
    from sklearn.feature_extraction.text import CountVectorizer

    docs = [a for q in questions for a in q]
    if not docs:
        return []
    vectorizer = (
        CountVectorizer()
        if tokenizer is None
        else CountVectorizer(tokenizer=tokenizer, lowercase=False, token_pattern=None)
    )
    try:
        vectorizer.fit(list(fit_on) if fit_on is not None else docs)
    except ValueError:  # empty vocabulary
        return [(float("nan"), float("nan"))] * len(questions)
    lda = LatentDirichletAllocation(n_components=n_topics, random_state=seed)
    lda.fit(vectorizer.transform(list(fit_on) if fit_on is not None else docs))
    topics = lda.transform(vectorizer.transform(docs))
    return [pairwise_cosine_stats(block) for block in _group(topics, [len(q) for q in questions])]


def hdp_tokens(text: str) -> list[str]:
    """gensim ``simple_preprocess``: lower case, alphabetic tokens of 2–15 characters (spec §3.4f step 1)."""
    from gensim.utils import simple_preprocess

    tokens: list[str] = simple_preprocess(text)
    return tokens


def hdp_similarity(
    questions: Sequence[Sequence[str]],
    *,
    seed: int = 42,
    tokenizer: Tokenizer | None = None,
    fit_on: Sequence[str] | None = None,
) -> list[tuple[float, float]]:
    """sim_HDP: (mean, sd) per question from a gensim HDP model with its default truncation (150 topics).

    Arguments as ``lda_similarity``; ``tokenizer`` defaults to ``hdp_tokens``.
    """
    from gensim.corpora import Dictionary
    from gensim.models import HdpModel

    tok = tokenizer or hdp_tokens
    docs = [tok(a) for q in questions for a in q]
    if not docs:
        return []
    fit_docs = [tok(a) for a in fit_on] if fit_on is not None else docs
    dictionary = Dictionary(fit_docs)
    if len(dictionary) == 0:
        return [(float("nan"), float("nan"))] * len(questions)
    hdp = HdpModel([dictionary.doc2bow(d) for d in fit_docs], id2word=dictionary, random_state=seed)
    n_topics = hdp.get_topics().shape[0]
    dense = np.zeros((len(docs), n_topics))
    for row, doc in enumerate(docs):
        for topic, prob in hdp[dictionary.doc2bow(doc)]:
            dense[row, topic] = prob
    return [pairwise_cosine_stats(block) for block in _group(dense, [len(q) for q in questions])]


# ---- the consistency set metrics this module computes (metrics/sets.py): on the uncleaned answers of a question


def _tokenizer(c: Condition) -> Tokenizer | None:
    """``None`` (CountVectorizer's English defaults) in paper mode; the language's own tokens in native mode."""
    from xlingmed.metrics.lexical import native_tokens

    if c.mode == "paper":
        return None

    def tokens(text: str) -> list[str]:
        return native_tokens(text, c.lang)

    return tokens


def _lda(groups: Sequence[Sequence[str]], c: Condition) -> list[dict[str, float | None]]:
    out: list[dict[str, float | None]] = [{} for _ in groups]
    for t in c.settings.lda_topics:
        stats = lda_similarity(groups, t, seed=c.settings.topic_seed, tokenizer=_tokenizer(c), fit_on=c.fit_on)
        for cells, (m, sd) in zip(out, stats, strict=True):
            cells[f"sim_lda{t}"], cells[f"sim_lda{t}_sd"] = m, sd
    return out


def _hdp(groups: Sequence[Sequence[str]], c: Condition) -> list[dict[str, float | None]]:
    stats = hdp_similarity(groups, seed=c.settings.topic_seed, tokenizer=_tokenizer(c), fit_on=c.fit_on)
    return [{"sim_hdp": m, "sim_hdp_sd": sd} for m, sd in stats]


register_set_metric(SetMetric(
    "lda", "topic", lambda s: [c for t in s.lda_topics for c in (f"sim_lda{t}", f"sim_lda{t}_sd")], _lda,
    labels=lambda s: {f"sim_lda{t}": f"sim_LDA^{t}" for t in s.lda_topics},
))  # fmt: skip
register_set_metric(SetMetric("hdp", "topic", lambda s: ["sim_hdp", "sim_hdp_sd"], _hdp))
