"""Language consistency: the share of an answer's sentences written in the language it was asked in.

XLingEval paper App. D.3; spec ``xlingeval.md`` §3.6. Sentences are split after ``. ! ? । 。 ！ ？`` (so
"2.5 mg" splits, as the authors' regex did) and identified with ``langid``, restricted to the run's languages
(the authors ran the full 97-language model and ignored other labels; restricting gives every sentence a label
among the languages being compared). Always computed on the original, untranslated answers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

_SPLIT = re.compile(r"(?<=[.!?।。！？])\s*")


def split_sentences(text: str) -> list[str]:
    """Spec §3.6 step 1: split after ``.!?।。！？`` plus optional whitespace; strip; drop empty pieces."""
    return [s.strip() for s in _SPLIT.split(text) if s.strip()]


class LanguageIdentifier:
    """``langid`` with its shipped model, limited to ``languages`` (ISO 639-1 codes langid knows).

    Raises:
        ValueError: a code that langid does not know.
    """

    def __init__(self, languages: Sequence[str]) -> None:
        from langid.langid import LanguageIdentifier as _LangId
        from langid.langid import model

        self._identifier: Any = _LangId.from_modelstring(model, norm_probs=True)
        self._identifier.set_languages(list(languages))
        self.languages = tuple(languages)

    def classify(self, text: str) -> str:
        label: str = self._identifier.classify(text)[0]
        return label

    def target_share(self, answer: str, target: str) -> float | None:
        """Share of ``answer``'s sentences identified as ``target``; ``None`` when it has no sentence."""
        sentences = split_sentences(answer)
        if not sentences:
            return None
        return sum(self.classify(s) == target for s in sentences) / len(sentences)

    def consistency(self, answers: Sequence[str], target: str) -> float:
        """Spec §3.6 steps 3–4 for one question: the mean over answers (with at least one sentence) of the
        share of sentences in ``target``; NaN when no answer has a sentence."""
        shares = [s for a in answers if (s := self.target_share(a, target)) is not None]
        return sum(shares) / len(shares) if shares else float("nan")
