"""Does the model give the same clinical answer to the same question in every language?

Accuracy per language can be equal while the answers differ: 70 % right in English and 70 % right in Hindi, on
different questions. On parallel items (the same ``item_id`` in every language) this compares what was read from
each reply (``Score.answer``: the chosen option, the judge's label, a claim's yes/no) with the reference
language's reading, item by item:

* per language: the share of items whose reading equals the reference's, and Cohen's κ between the two readings
  (agreement beyond chance; scikit-learn);
* across all languages: the share of items read alike in every language, and Fleiss' κ (statsmodels), on the
  items read in every language.

Each (task, temperature) is one comparison, on the plain question (no prompt condition); a reply that was not read
(no ``answer``) leaves its item out of the comparisons that need it, counted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from xlingmed.analysis.agreement import cohen_kappa, fleiss_kappa_of_labels
from xlingmed.analysis.records import Record
from xlingmed.outcomes import TaskOutcome, apart


@dataclass(frozen=True, eq=False, kw_only=True)
class AnswerAgreement(Record):
    """One language's readings against the reference's (``lang`` ``all``: across every language), on one task and
    temperature (``None`` for a task without one): items read in both (or in all), those scored but not read,
    the share alike (0–1) and κ (``kappa_kind``: ``cohen`` / ``fleiss``)."""

    task: str
    temperature: float | None
    reference: str
    lang: str
    n_items: int
    n_unread: int
    agreement: float | None
    kappa: float | None
    kappa_kind: str


@dataclass(frozen=True, eq=False, kw_only=True)
class AnswerSimilarity(Record):
    """The cosine similarity of one language's replies with the reference's, per item, on one task and temperature:
    items replied in both, mean, sd (ddof 1) and min, and the encoder's name."""

    task: str
    temperature: float | None
    lang: str
    reference: str
    n_items: int
    mean: float | None
    sd: float | None
    min: float | None
    encoder: str | None


def _readings(scores: pd.DataFrame, tasks: Mapping[str, TaskOutcome]) -> pd.DataFrame:
    """One reading per (task, temperature, unit, item, language): the primary outcome's Scores that carry one."""
    # tasks that read a category from each reply (an option, a label, yes/no); not rubric scores or open answers
    primary = {name: o.primary.metric for name, o in apart(tasks, scores["task"]).items()
               if o.primary is not None and o.parses}  # fmt: skip
    plain = scores[scores["condition"].isna()] if "condition" in scores else scores
    chosen = np.array([primary.get(t) == m for t, m in zip(plain["task"], plain["metric"], strict=True)], dtype=bool)
    keep = plain[chosen & (plain["kind"] == "binary").to_numpy()]
    units = [u if isinstance(u, str) else "" for u in keep["unit"]]
    keep = keep.assign(temp=keep["temperature"].fillna(-1.0), unit=units)
    return keep[["task", "temp", "unit", "item_id", "lang", "answer"]]


def answer_agreement(
    scores: pd.DataFrame, languages: Sequence[str], reference: str = "en", *, tasks: Mapping[str, TaskOutcome]
) -> list[AnswerAgreement]:
    """Agreement of each language's readings with the reference's, and across all languages.

    Returns:
        ``AnswerAgreement`` rows: task, temperature (``None`` for a task without one), reference, lang (a language,
        or ``all``), n_items (items read in both, or in every language for ``all``), n_unread (items scored but not
        read in that language or the reference), agreement (share, 0–1), kappa, kappa_kind (``cohen`` /
        ``fleiss``).
    """
    readings = _readings(scores, tasks)
    rows: list[AnswerAgreement] = []
    for (task, temp), sub in readings.groupby(["task", "temp"], sort=False):
        sub = sub.assign(key=sub["item_id"].astype(str) + "#" + sub["unit"].astype(str))
        wide = sub.drop_duplicates(["key", "lang"]).pivot(index="key", columns="lang", values="answer")
        langs = [lg for lg in languages if lg in wide.columns]
        if reference not in langs or len(langs) < 2:
            continue
        temperature = None if temp == -1.0 else float(str(temp))
        scored = sub.groupby("lang")["key"].apply(set)
        for lang in langs:
            if lang == reference:
                continue
            both = wide[[reference, lang]].dropna()
            in_both = scored.get(reference, set()) & scored.get(lang, set())
            rows.append(AnswerAgreement(
                task=str(task), temperature=temperature, reference=reference, lang=lang, n_items=len(both),
                n_unread=len(in_both) - len(both),
                agreement=float((both[reference] == both[lang]).mean()) if len(both) else None,
                kappa=cohen_kappa(list(both[reference]), list(both[lang])) if len(both) else None, kappa_kind="cohen",
            ))  # fmt: skip
        every = wide[langs].dropna()
        in_all = set.intersection(*(scored.get(lg, set()) for lg in langs))
        rows.append(AnswerAgreement(
            task=str(task), temperature=temperature, reference=reference, lang="all", n_items=len(every),
            n_unread=len(in_all) - len(every),
            agreement=float((every.nunique(axis=1) == 1).mean()) if len(every) else None,
            kappa=fleiss_kappa_of_labels(every.to_numpy().tolist()), kappa_kind="fleiss",
        ))  # fmt: skip
    return rows


def answer_similarity(
    texts: pd.DataFrame, languages: Sequence[str], encoder: Any, reference: str = "en"
) -> list[AnswerSimilarity]:
    """How alike the answers themselves are across languages: per item, the cosine similarity of the reply in
    each language with the reply in ``reference``, embedded by ``encoder`` (``metrics.embedding.
    SentenceSimilarity``; a multilingual sentence encoder the user names, so that the same meaning in two
    languages lands close).

    Args:
        texts: one row per reply: task, item_id, lang, temperature, text (empty or missing = no reply).

    Returns:
        ``AnswerSimilarity`` rows per (task, temperature, language): n_items (replied in both), mean, sd (ddof 1),
        min of the per-item cosine, and the encoder's name.
    """
    from xlingmed.metrics.embedding import cosine_matrix

    rows: list[AnswerSimilarity] = []
    usable = texts[texts["text"].map(lambda t: isinstance(t, str) and bool(t.strip()))]
    if usable.empty:
        return rows
    vectors = encoder.encode(list(usable["text"]))
    for (task, temp), sub in usable.assign(temp=usable["temperature"].fillna(-1.0)).groupby(["task", "temp"]):
        by_lang = {lg: dict(zip(g["item_id"], g["text"], strict=True)) for lg, g in sub.groupby("lang")}
        ref = by_lang.get(reference, {})
        for lang in languages:
            if lang == reference or lang not in by_lang:
                continue
            items = [i for i in by_lang[lang] if i in ref]
            sims = np.array(
                [cosine_matrix(np.stack([vectors[ref[i]], vectors[by_lang[lang][i]]]))[0, 1] for i in items]
            )
            rows.append(AnswerSimilarity(
                task=str(task), temperature=None if temp == -1.0 else float(str(temp)), lang=lang,
                reference=reference, n_items=len(items), mean=float(sims.mean()) if len(sims) else None,
                sd=float(sims.std(ddof=1)) if len(sims) > 1 else None, min=float(sims.min()) if len(sims) else None,
                encoder=getattr(encoder, "model", None),
            ))  # fmt: skip
    return rows
