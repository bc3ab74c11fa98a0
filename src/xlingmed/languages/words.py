"""Words of a text in a language written without spaces between words: Chinese (jieba) and Thai (PyThaiNLP's
``newmm`` dictionary segmenter, offline). The consistency metrics' n-grams, lengths and topics and the length
tables count these words; every other language is split on spaces and punctuation by its callers.

``SEGMENTERS`` says which library segments which language; ``UNSEGMENTED`` lists the languages written without
spaces that no segmenter here covers (their n-gram and length metrics would count whole phrases as words: the
consistency task names them as not available rather than report such numbers).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

SEGMENTERS = {"zh": "jieba", "th": "pythainlp (newmm)"}
UNSEGMENTED = ("ja", "km", "lo", "my")  # no spaces between words, and no segmenter here


@functools.lru_cache(maxsize=4)
def _segmenter(lang: str) -> Callable[[str], list[str]]:
    if lang == "zh":
        import jieba  # lazily: loads a dictionary (~1 s)

        jieba.setLogLevel(60)
        return jieba.lcut  # type: ignore[no-any-return]
    if lang == "th":
        try:
            from pythainlp.tokenize import word_tokenize
        except ImportError:
            raise ImportError("Thai word segmentation needs pythainlp: pip install pythainlp") from None
        return lambda text: list(word_tokenize(text, engine="newmm", keep_whitespace=False))
    raise KeyError(lang)


def segment(text: str, lang: str) -> list[str]:
    """``text``'s pieces in ``lang`` (a language of ``SEGMENTERS``), whitespace pieces dropped; punctuation and
    Latin words are pieces too (callers keep the ones with letters or digits).

    Raises:
        KeyError: ``lang`` has no segmenter here.
    """
    return [tok for tok in _segmenter(lang)(text) if tok.strip()]
