"""Language registry: every per-language literal the toolkit uses, in one table.

Modelled on lighteval's ``translation_literals.py``: a language is a row of literals, and asking for a
language or literal that is not there raises an error that names it.
"""

from __future__ import annotations

from dataclasses import dataclass

from xlingmed.errors import ConfigError


@dataclass(frozen=True)
class Language:
    """Literals of one language.

    Attributes:
        code: ISO 639-1 code (``"hi"``).
        name: English name, as used in XLingEval prompts and XLingHealth column names (``"Hindi"``).
        native: the language's own name.
        script: ISO 15924 script code.
        yes_words / no_words: first-token answers accepted by the *strict* yes/no parser (lower case).
            XLingEval asks every language for the English words Yes/No, so English words are always
            accepted as well.
        rtl: written right to left.
    """

    code: str
    name: str
    native: str
    script: str
    yes_words: tuple[str, ...]
    no_words: tuple[str, ...]
    rtl: bool = False


LANGUAGES: dict[str, Language] = {
    lang.code: lang
    for lang in (
        Language("en", "English", "English", "Latn", ("yes",), ("no",)),
        Language("es", "Spanish", "Español", "Latn", ("sí", "si"), ("no",)),
        Language("zh", "Chinese", "中文", "Hans", ("是", "是的", "对", "正确"), ("否", "不是", "不", "不正确", "错误")),
        Language("hi", "Hindi", "हिन्दी", "Deva", ("हाँ", "हां", "जी हाँ"), ("नहीं", "ना")),
        Language("ar", "Arabic", "العربية", "Arab", ("نعم",), ("لا",), rtl=True),
    )
}


def get_language(code: str) -> Language:
    """Return the registry row for ``code``.

    Raises:
        ConfigError: the code is not in the registry (the message lists the known codes).
    """
    try:
        return LANGUAGES[code]
    except KeyError:
        known = ", ".join(sorted(LANGUAGES))
        raise ConfigError(f"unknown language code {code!r}; known: {known}") from None


def parse_languages(spec: str | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Parse ``"en,es,zh"`` (or a list) into validated, de-duplicated codes in the order given.

    Raises:
        ConfigError: empty list or an unknown code.
    """
    parts = spec.split(",") if isinstance(spec, str) else list(spec)
    codes: list[str] = []
    for raw in parts:
        code = raw.strip().lower()
        if not code:
            continue
        get_language(code)
        if code not in codes:
            codes.append(code)
    if not codes:
        raise ConfigError("no language given (expected e.g. --languages en,es,zh,hi)")
    return tuple(codes)


def word_count(text: str, lang: str) -> int:
    """Whitespace words (``str.split``), the rule of XLingEval Table A1.

    Chinese has no spaces, so for ``zh`` this is a count of jieba tokens that are not whitespace.
    """
    if not text:
        return 0
    if lang == "zh":
        import jieba  # imported lazily: it loads a dictionary (~1 s)

        jieba.setLogLevel(60)
        return sum(1 for tok in jieba.lcut(text) if tok.strip())
    return len(text.split())
