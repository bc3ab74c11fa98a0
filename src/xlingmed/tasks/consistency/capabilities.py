"""What the consistency metrics cannot measure in a language, named rather than reported as a number.

* Language consistency needs langid to know the language: Yoruba, Amharic, Hausa… are not among its 97; their
  ``lang_consistency`` is NaN (never 0 %), and this says why.
* In ``native`` mode the n-gram, length and topic metrics count words: a language written without spaces needs
  a segmenter (``languages.words``: Chinese, Thai); Japanese, Khmer, Lao and Burmese have none here, so these
  metrics would compare whole phrases. ``paper`` mode reads the English back-translation and is not affected.
* BERTScore and sentence similarity take the encoder the user names (``-T bertscore_model=…``,
  ``-T embedding_model=…``): a multilingual one is the user's choice, so nothing is withheld there.
"""

from __future__ import annotations

from collections.abc import Sequence

WORD_METRICS = ("ngram", "length", "lda", "hdp")


def not_available(metrics: Sequence[str], languages: Sequence[str], mode: str) -> dict[str, dict[str, str]]:
    """Metric group → language → why it is not measured there (empty when everything is)."""
    from xlingmed.languages import LANGUAGES
    from xlingmed.languages.words import UNSEGMENTED
    from xlingmed.metrics.language_id import langid_codes

    def name(lang: str) -> str:
        return LANGUAGES[lang].name if lang in LANGUAGES else lang

    out: dict[str, dict[str, str]] = {}
    if "lang_consistency" in metrics:
        known = langid_codes()
        missing = {lang: f"langid has no model of {name(lang)}" for lang in languages if lang not in known}
        if missing:
            out["lang_consistency"] = missing
    if mode == "native":
        for group in (g for g in WORD_METRICS if g in metrics):
            gaps = {lang: f"no word segmenter for {name(lang)}, written without spaces" for lang in languages
                    if lang in UNSEGMENTED}  # fmt: skip
            if gaps:
                out[group] = gaps
    return out
