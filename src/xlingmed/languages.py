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
        option_letters: the labels this language prints before the options of a multiple-choice question, in
            order (A, B, C… in Latin script; أ ب ج د ه in Arabic). Every label maps to the canonical Latin
            letter of the same position (``normalise_label``).
        field_labels: ``question``/``answer``/``options`` field names used by prompt templates.
        answer_phrases: phrases after which a model names the option it chose ("The correct answer is",
            "الإجابة الصحيحة هي"), lower case; read by ``parsing.choice`` (longest first, any run language).
        option_words: words that stand before an option label ("option C", "الخيار ج"), lower case.
    """

    code: str
    name: str
    native: str
    script: str
    yes_words: tuple[str, ...]
    no_words: tuple[str, ...]
    rtl: bool = False
    option_letters: tuple[str, ...] = ("A", "B", "C", "D", "E", "F", "G", "H")
    field_labels: tuple[tuple[str, str], ...] = (
        ("question", "Question:"),
        ("answer", "Answer:"),
        ("options", "Options:"),
    )
    answer_phrases: tuple[str, ...] = ()
    option_words: tuple[str, ...] = ()

    def field_label(self, name: str) -> str:
        """The prompt label ``name`` (``question``, ``answer``, ``options``) in this language.

        Raises:
            ConfigError: no such label for this language.
        """
        for key, value in self.field_labels:
            if key == name:
                return value
        raise ConfigError(f"language {self.code!r} has no field label {name!r}")


LANGUAGES: dict[str, Language] = {
    lang.code: lang
    for lang in (
        Language(
            "en", "English", "English", "Latn", ("yes",), ("no",),
            answer_phrases=(
                "the correct answer is", "the correct answer would be", "the right answer is", "the best answer is",
                "the answer is", "the correct option is", "the correct choice is", "the best option is",
                "correct answer:", "correct option:", "final answer:", "my answer:", "answer:", "answer is",
            ),
            option_words=("option", "choice", "letter", "answer"),
        ),
        Language(
            "es", "Spanish", "Español", "Latn", ("sí", "si"), ("no",),
            answer_phrases=(
                "la respuesta correcta es", "la opción correcta es", "la respuesta es", "respuesta correcta:",
                "respuesta:", "la alternativa correcta es",
            ),
            option_words=("opción", "opcion", "alternativa", "letra", "inciso"),
        ),
        Language(
            "zh", "Chinese", "中文", "Hans", ("是", "是的", "对", "正确"), ("否", "不是", "不", "不正确", "错误"),
            answer_phrases=(
                "正确答案是", "正确答案为", "正确答案", "正确选项是", "正确选项为",
                "答案是", "答案为", "答案", "应选", "选",
            ),
            option_words=("选项",),
        ),
        Language(
            "hi", "Hindi", "हिन्दी", "Deva", ("हाँ", "हां", "जी हाँ"), ("नहीं", "ना"),
            answer_phrases=("सही उत्तर है", "सही उत्तर", "सही विकल्प है", "सही विकल्प", "उत्तर है", "उत्तर"),
            option_words=("विकल्प",),
        ),
        Language(
            "ar",
            "Arabic",
            "العربية",
            "Arab",
            ("نعم",),
            ("لا",),
            rtl=True,
            option_letters=("أ", "ب", "ج", "د", "ه", "و"),
            field_labels=(("question", "السؤال:"), ("answer", "الإجابة:"), ("options", "الخيارات:")),
            answer_phrases=(
                "الحرف الصحيح هو", "الإجابة الصحيحة هي", "الاجابة الصحيحة هي", "الإجابة الصحيحة", "الاجابة الصحيحة",
                "الخيار الصحيح هو", "الخيار الصحيح", "الجواب الصحيح هو", "الجواب الصحيح", "الإجابة هي", "الاجابة هي",
                "الإجابة", "الاجابة", "الجواب هو", "الجواب",
            ),
            option_words=("الخيار", "الاختيار", "الحرف", "خيار"),
        ),
    )
}  # fmt: skip


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


CANONICAL_LETTERS = ("A", "B", "C", "D", "E", "F", "G", "H")

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
}  # fmt: skip

# Arabic-Indic, Eastern Arabic-Indic and Devanagari digits, for answers like "١" or "१" (first option).
_DIGITS = str.maketrans("٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹०१२३४५६७८९", "012345678901234567890123456789")


def normalise_label(raw: str) -> str | None:
    """The canonical Latin letter (``"A"``…) of an option label written in any registered script.

    Accepts Arabic letters (أ/ا/إ/آ → A, ب → B, ج → C, د → D, ه/هـ/ة → E), Latin letters of either case,
    and 1-based option numbers in ASCII, Arabic-Indic or Devanagari digits (``"٣"``, ``"३"`` → C). Tatweel (ـ) is
    ignored.

    Returns:
        ``None`` when ``raw`` is not a label.
    """
    text = raw.strip().replace("\u0640", "")
    if text in _LABEL_ALIASES:
        return _LABEL_ALIASES[text]
    digits = text.translate(_DIGITS)
    if digits.isdigit() and 1 <= int(digits) <= len(CANONICAL_LETTERS):
        return CANONICAL_LETTERS[int(digits) - 1]
    return None
