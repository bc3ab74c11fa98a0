"""Automatic checks of machine translations, per translated text: back-translation similarity and language.

Nobody can read every translation of a benchmark in a language they do not know; these checks find the ones a
person should. Each translated text is translated back into the source language and compared with the source:

* ``chrf``: chrF (Popović 2015) of the back-translation against the source, 0–100, through ``sacrebleu``;
* ``bertscore``: BERTScore F1 (Zhang et al. 2020) of the same pair, 0–1, through ``bert-score``
  (``metrics/bertscore.py``), with the encoder the user names (its language must be the source's);
* ``comet``: reference-free COMET-QE of (source, translation), when ``unbabel-comet`` is installed and a model is
  named (``Unbabel/wmt22-cometkiwi-da`` or a local checkpoint);
* ``lang``: the language ``langid`` reads in the translation; a translation in the wrong language (an LLM that
  answered instead of translating, or copied the source) is flagged whatever its scores.

An item is flagged when its weakest text falls below a threshold; the thresholds are heuristics to sort items for
review, not a verdict on a translation, and are recorded with the file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from xlingmed.errors import ConfigError

CHECKS = ("chrf", "bertscore", "comet", "lang")
DEFAULT_CHECKS = ("chrf", "bertscore", "lang")


@dataclass(frozen=True)
class Thresholds:
    """An item is flagged when a checked text scores below one of these (``None``: that check never flags).

    Attributes:
        chrf: chrF of the back-translation, 0–100.
        bertscore: BERTScore F1 of the back-translation, 0–1.
        comet: COMET-QE score (model-specific scale; CometKiwi: 0–1).
    """

    chrf: float | None = 30.0
    bertscore: float | None = 0.80
    comet: float | None = None


@dataclass
class QualityChecker:
    """Scores (source, translation, back-translation) triples.

    Args:
        checks: a subset of ``CHECKS``.
        source_lang: ISO code of the source (the language of the back-translations).
        bertscore_model, bertscore_layer: the BERTScore encoder (hub id or folder) and its layer.
        comet_model: COMET-QE checkpoint (hub id or path); needed for ``comet``.
        device: torch device of the encoders.

    Raises:
        ConfigError: an unknown check; ``comet`` without ``unbabel-comet`` or without a model (named).
    """

    checks: Sequence[str]
    source_lang: str
    bertscore_model: str | None = None
    bertscore_layer: int | None = None
    comet_model: str | None = None
    device: str = "cpu"
    _bertscore: Any = field(default=None, repr=False)
    _comet: Any = field(default=None, repr=False)
    _langid: Any = field(default=None, repr=False)

    def __post_init__(self) -> None:
        unknown = [c for c in self.checks if c not in CHECKS]
        if unknown:
            raise ConfigError(f"--checks: unknown check(s) {unknown}; known: {', '.join(CHECKS)}")
        if "bertscore" in self.checks:
            from xlingmed.metrics.bertscore import BERTScore

            encoder = self.bertscore_model or "xlm-roberta-large"
            self._bertscore = BERTScore(encoder, self.bertscore_layer, lang=self.source_lang, device=self.device)
        if "comet" in self.checks:
            if not self.comet_model:
                raise ConfigError("--checks comet needs --comet-model (e.g. Unbabel/wmt22-cometkiwi-da)")
            try:
                from comet import download_model, load_from_checkpoint
            except ImportError as exc:  # absent, or installed and broken (what it could not import is named)
                missing = getattr(exc, "name", None)
                if missing and missing.split(".")[0] != "comet":
                    raise ConfigError(
                        f"--checks comet: unbabel-comet is installed but does not import ({exc}); reinstall the "
                        "extra: pip install -e '.[comet]' torch==2.13.0"
                    ) from None
                raise ConfigError(
                    "--checks comet needs the unbabel-comet package: pip install -e '.[comet]' torch==2.13.0"
                ) from None
            from pathlib import Path

            path = self.comet_model if Path(self.comet_model).exists() else download_model(self.comet_model)
            self._comet = load_from_checkpoint(path)
        if "lang" in self.checks:
            from langid.langid import LanguageIdentifier, model

            self._langid = LanguageIdentifier.from_modelstring(model, norm_probs=True)

    def settings(self) -> dict[str, Any]:
        out: dict[str, Any] = {"checks": list(self.checks)}
        if self._bertscore is not None:
            out["bertscore"] = self._bertscore.settings()
        if self._comet is not None:
            out["comet_model"] = self.comet_model
        return out

    def needs_back_translation(self) -> bool:
        return "chrf" in self.checks or "bertscore" in self.checks

    def score(
        self, sources: Sequence[str], translations: Sequence[str], back: Sequence[str | None]
    ) -> list[dict[str, float | str | None]]:
        """Per triple: ``chrf``, ``bertscore``, ``comet`` (``None`` where not checked or no back-translation)
        and ``lang`` (the language langid reads; ``None`` when not checked)."""
        n = len(sources)
        out: list[dict[str, float | str | None]] = [
            {"chrf": None, "bertscore": None, "comet": None, "lang": None} for _ in range(n)
        ]
        have = [i for i in range(n) if back[i]]
        if "chrf" in self.checks:
            from sacrebleu.metrics.chrf import CHRF

            chrf = CHRF()
            for i in have:
                out[i]["chrf"] = float(chrf.sentence_score(str(back[i]), [sources[i]]).score)
        if self._bertscore is not None and have:
            prf = self._bertscore.score([str(back[i]) for i in have], [sources[i] for i in have])
            for i, row in zip(have, prf, strict=True):
                out[i]["bertscore"] = float(row[2])
        if self._comet is not None and n:
            pred = self._comet.predict(
                [{"src": s, "mt": t} for s, t in zip(sources, translations, strict=True)], batch_size=16, gpus=0
            )
            for i, value in enumerate(pred.scores):
                out[i]["comet"] = float(value)
        if self._langid is not None:
            for i, text in enumerate(translations):
                out[i]["lang"] = str(self._langid.classify(text)[0]) if text.strip() else None
        return out


def flag_reasons(scores: dict[str, Any], target: str, field_name: str, thresholds: Thresholds) -> list[str]:
    """Why a translated text is flagged (empty: it is not): each score below its threshold, or the wrong
    language; ``field_name`` names the text in the reasons."""
    reasons = []
    for key, limit, unit in (("chrf", thresholds.chrf, ""), ("bertscore", thresholds.bertscore, ""),
                             ("comet", thresholds.comet, "")):  # fmt: skip
        value = scores.get(key)
        if value is not None and limit is not None and value < limit:
            reasons.append(f"{field_name}: {key} {value:.3g}{unit} < {limit:g}")
    lang = scores.get("lang")
    if lang is not None and lang != target:
        reasons.append(f"{field_name}: reads as {lang}, not {target}")
    return reasons
