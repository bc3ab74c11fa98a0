"""Language consistency: the share of an answer's sentences written in the language it was asked in.

XLingEval paper App. D.3; spec ``xlingeval.md`` §3.6. Sentences are split after ``. ! ? । 。 ！ ？`` (so
"2.5 mg" splits, as the authors' regex did) and identified with ``langid``'s full 97-language model; only
sentences labelled with one of the run's languages are counted, the others ignored, as the authors did
(``scope="paper"``, the default). ``scope="restricted"`` limits langid to the run's languages instead, which
gives every sentence a label among the languages compared. Always computed on the original answers.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

from xlingmed.metrics.registry import ANSWERS, MetricSpec, declare_metric
from xlingmed.metrics.sets import Condition, SetMetric, register_set_metric

declare_metric(MetricSpec("lang_consistency", ANSWERS, "mean over questions", group="lang_consistency",
                            source="XLingEval §3.2: share of sentences in the question's language (langid)"))

_SPLIT = re.compile(r"(?<=[.!?।。！？])\s*")


def split_sentences(text: str) -> list[str]:
    """Spec §3.6 step 1: split after ``.!?।。！？`` plus optional whitespace; strip; drop empty pieces."""
    return [s.strip() for s in _SPLIT.split(text) if s.strip()]


SCOPES = ("paper", "restricted")


@functools.lru_cache(maxsize=1)
def langid_codes() -> frozenset[str]:
    """The ISO 639-1 codes langid's shipped model knows (97)."""
    from langid.langid import LanguageIdentifier as _LangId
    from langid.langid import model

    return frozenset(_LangId.from_modelstring(model).nb_classes)


class LanguageIdentifier:
    """``langid`` with its shipped model over ``languages`` (ISO 639-1 codes).

    Args:
        languages: the run's languages: the only labels that are counted. A code langid has no model of (Yoruba,
            Amharic…) is kept in ``unknown``: its answers get no language consistency (NaN, named in the task's
            ``not_available``), never a share of 0.
        scope: ``paper`` (all 97 languages; sentences labelled with another language are ignored) or
            ``restricted`` (langid chooses among the known ``languages`` only).

    Raises:
        ValueError: an unknown scope.
    """

    def __init__(self, languages: Sequence[str], *, scope: str = "paper") -> None:
        from langid.langid import LanguageIdentifier as _LangId
        from langid.langid import model

        if scope not in SCOPES:
            raise ValueError(f"unknown language-ID scope {scope!r}; known: {', '.join(SCOPES)}")
        self._identifier: Any = _LangId.from_modelstring(model, norm_probs=True)
        known = set(self._identifier.nb_classes)
        self.unknown = tuple(code for code in languages if code not in known)
        kept = [code for code in languages if code in known]
        if scope == "restricted" and kept:
            self._identifier.set_languages(kept)
        self.languages = tuple(kept)
        self.scope = scope

    def classify(self, text: str) -> str:
        label: str = self._identifier.classify(text)[0]
        return label

    def target_share(self, answer: str, target: str) -> float | None:
        """Share of ``target`` among ``answer``'s sentences labelled with one of the run's languages (spec §3.6
        steps 2–3); ``None`` when no sentence is."""
        labels = [label for s in split_sentences(answer) if (label := self.classify(s)) in self.languages]
        if not labels:
            return None
        return sum(label == target for label in labels) / len(labels)

    def consistency(self, answers: Sequence[str], target: str) -> float:
        """Spec §3.6 steps 3–4 for one question: the mean over answers (with at least one counted sentence) of
        the share of sentences in ``target``; NaN when no answer has one, or langid does not know ``target``."""
        if target in self.unknown:
            return float("nan")
        shares = [s for a in answers if (s := self.target_share(a, target)) is not None]
        return sum(shares) / len(shares) if shares else float("nan")


def _lang_consistency(groups: Sequence[Sequence[str]], c: Condition) -> list[dict[str, float | None]]:
    """On the answers as written (never their back-translations): the share of sentences in the question's
    language (spec §3.6)."""
    identifier: LanguageIdentifier = c.encoders["langid"]
    return [{"lang_consistency": identifier.consistency(g, c.lang)} for g in groups]


register_set_metric(SetMetric("lang_consistency", "original", lambda s: ["lang_consistency"], _lang_consistency,
                              needs=("langid",), labels=lambda s: {"lang_consistency": "LangCons"}))  # fmt: skip
