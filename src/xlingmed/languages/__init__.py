"""Language registry: every per-language literal the toolkit uses, one file per language in this folder.

Modelled on lighteval's ``translation_literals.py``: a language is a row of literals (``base.Language``), and asking
for a language or literal that is not there raises an error that names it. Adding a language is adding one file
here (``xx.py`` defining ``LANGUAGE``); it is found by scanning the folder.
"""

from __future__ import annotations

import importlib
import pkgutil

from xlingmed.errors import ConfigError
from xlingmed.languages.base import CANONICAL_LETTERS, CIRCLED, HANGUL, KATAKANA, Language

__all__ = [
    "CANONICAL_LETTERS", "LANGUAGES", "Language", "get_language", "normalise_label", "option_labels",
    "parse_languages", "word_count",
]  # fmt: skip

# XLingEval's four, then MedArabiQ's Arabic, then the hub sets' languages by code: the order lists show.
_FIRST = ("en", "es", "zh", "hi", "ar")
_NOT_LANGUAGES = ("base", "codes", "words")  # the modules of this folder that define no language


def _scan() -> dict[str, Language]:
    found: dict[str, Language] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name in _NOT_LANGUAGES:
            continue
        lang = importlib.import_module(f"{__name__}.{info.name}").LANGUAGE
        if lang.code != info.name:
            raise ConfigError(f"languages/{info.name}.py defines language {lang.code!r}: the file is named by code")
        found[lang.code] = lang
    return {code: found[code] for code in (*_FIRST, *sorted(set(found) - set(_FIRST)))}


LANGUAGES: dict[str, Language] = _scan()


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


def option_labels(code: str, n: int) -> tuple[str, ...]:
    """The ``n`` labels a prompt prints before the options of a question in language ``code``.

    The language's own letters when it has ``n`` of them; Latin ``A``… otherwise, for the whole question (a
    10-option MMLU-ProX item in Arabic, whose script gives six), so one question never mixes two scripts.

    Raises:
        ConfigError: unknown language, or more options than the ten canonical letters.
    """
    own = get_language(code).option_letters
    if n <= len(own):
        return own[:n]
    if n <= len(CANONICAL_LETTERS):
        return CANONICAL_LETTERS[:n]
    raise ConfigError(f"a question with {n} options: at most {len(CANONICAL_LETTERS)} are supported")


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

    Chinese and Thai have no spaces: for ``zh`` and ``th`` this is a count of the segmenter's words
    (``languages.words``: jieba, PyThaiNLP), whitespace left out.
    """
    if not text:
        return 0
    from xlingmed.languages.words import SEGMENTERS, segment

    if lang in SEGMENTERS:
        return len(segment(text, lang))
    return len(text.split())


# Every way a label is written, to its canonical Latin letter (MedArabiQ spec §3.2). Arabic: the alif forms
# (hamza above/below, madda, bare alif, which four published questions use) are all option A; ه, the
# kashida form هـ and ة (a common slip for ه) are option E. Latin letters of either case map to themselves.
_LABEL_ALIASES: dict[str, str] = {
    "أ": "A", "ا": "A", "إ": "A", "آ": "A",
    "ب": "B",
    "ج": "C",
    "د": "D",
    "ه": "E", "ة": "E",
    "و": "F",
    **{c: c for c in CANONICAL_LETTERS},
    **{c.lower(): c for c in CANONICAL_LETTERS},
    **{x: c for labels in (CIRCLED, HANGUL, KATAKANA) for x, c in zip(labels, CANONICAL_LETTERS, strict=True)},
}  # fmt: skip
# Labels of other scripts that replies use (Hebrew א ב ג ד, Devanagari क ख ग घ, Greek α β γ δ), both cases.
_REPLY_ALIASES: dict[str, str] = {
    form: CANONICAL_LETTERS[i]
    for lang in LANGUAGES.values()
    for i, letter in enumerate(lang.reply_letters)
    for form in (letter, letter.upper())
}

# Arabic-Indic, Eastern Arabic-Indic and Devanagari digits, for answers like "١" or "१" (first option).
_DIGITS = str.maketrans("٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹०१२३४५६७८९", "012345678901234567890123456789")


def normalise_label(raw: str) -> str | None:
    """The canonical Latin letter (``"A"``…) of an option label written in any registered script.

    Accepts Arabic letters (أ/ا/إ/آ → A, ب → B, ج → C, د → D, ه/هـ/ة → E), Latin letters of either case, the
    ``reply_letters`` of every language (Hebrew ב → B, Devanagari ग → C), circled numbers (③ → C), Hangul syllables
    (다 → C) and katakana (ウ → C) as exams print them,
    and 1-based option numbers in ASCII, Arabic-Indic or Devanagari digits (``"٣"``, ``"३"`` → C). Tatweel (ـ) is
    ignored.

    Returns:
        ``None`` when ``raw`` is not a label.
    """
    text = raw.strip().replace("\u0640", "")
    if text in _LABEL_ALIASES:
        return _LABEL_ALIASES[text]
    if text in _REPLY_ALIASES:
        return _REPLY_ALIASES[text]
    digits = text.translate(_DIGITS)
    if digits.isdigit() and 1 <= int(digits) <= len(CANONICAL_LETTERS):
        return CANONICAL_LETTERS[int(digits) - 1]
    return None
