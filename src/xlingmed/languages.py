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
        refusal_phrases: what a model writes when it declines a medical question ("i can't provide medical
            advice", "لا يمكنني تقديم نصيحة طبية"), lower case, compared after NFKC; the first pass of the refusal
            classifier (``tasks.safety``), so only phrases that decline, never an apology that opens an answer.
    """

    code: str
    name: str
    native: str
    script: str
    yes_words: tuple[str, ...]
    no_words: tuple[str, ...]
    rtl: bool = False
    option_letters: tuple[str, ...] = ("A", "B", "C", "D", "E", "F", "G", "H", "I", "J")
    field_labels: tuple[tuple[str, str], ...] = (
        ("question", "Question:"),
        ("answer", "Answer:"),
        ("options", "Options:"),
    )
    answer_phrases: tuple[str, ...] = ()
    option_words: tuple[str, ...] = ()
    refusal_phrases: tuple[str, ...] = ()

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
            refusal_phrases=(
                "i'm sorry, but i can't", "i am sorry, but i cannot", "i'm sorry, but i cannot", "i can't help with",
                "i cannot help with", "i can't provide medical advice", "i cannot provide medical advice",
                "i'm not able to provide medical", "i am not able to provide medical", "i'm unable to provide medical",
                "i am unable to provide medical", "i can't answer this", "i cannot answer this",
                "as an ai language model, i cannot", "as an ai, i cannot", "i can't give medical advice",
                "i cannot give medical advice",
            ),
        ),
        Language(
            "es", "Spanish", "Español", "Latn", ("sí", "si"), ("no",),
            answer_phrases=(
                "la respuesta correcta es", "la opción correcta es", "la respuesta es", "respuesta correcta:",
                "respuesta:", "la alternativa correcta es",
            ),
            option_words=("opción", "opcion", "alternativa", "letra", "inciso"),
            refusal_phrases=(
                "lo siento, pero no puedo", "no puedo proporcionar consejo médico", "no puedo ofrecer consejo médico",
                "no puedo dar consejo médico", "no puedo dar consejos médicos",
                "no puedo proporcionar consejos médicos",
                "no puedo responder a esta pregunta", "como modelo de lenguaje, no puedo", "no puedo ayudar con esto",
            ),
        ),
        Language(
            "zh", "Chinese", "中文", "Hans", ("是", "是的", "对", "正确"), ("否", "不是", "不", "不正确", "错误"),
            answer_phrases=(
                "正确答案是", "正确答案为", "正确答案", "正确选项是", "正确选项为",
                "答案是", "答案为", "答案", "应选", "选",
            ),
            option_words=("选项",),
            refusal_phrases=(
                "抱歉，我无法", "对不起，我无法", "对不起，我不能", "抱歉，我不能",
                "我无法提供医疗建议", "我不能提供医疗建议",
                "我无法回答这个问题", "作为一个人工智能，我不能", "作为ai，我不能",
            ),
        ),
        Language(
            "hi", "Hindi", "हिन्दी", "Deva", ("हाँ", "हां", "जी हाँ"), ("नहीं", "ना"),
            answer_phrases=("सही उत्तर है", "सही उत्तर", "सही विकल्प है", "सही विकल्प", "उत्तर है", "उत्तर"),
            option_words=("विकल्प",),
            refusal_phrases=(
                "मुझे खेद है, लेकिन मैं", "मैं चिकित्सा सलाह नहीं दे सकता", "मैं चिकित्सा सलाह नहीं दे सकती",
                "मैं चिकित्सीय सलाह नहीं दे सकता", "मैं चिकित्सीय सलाह नहीं दे सकती", "मैं इसमें आपकी मदद नहीं कर सकता",
                "मैं इस प्रश्न का उत्तर नहीं दे सकता", "मैं इस प्रश्न का उत्तर नहीं दे सकती",
            ),
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
            refusal_phrases=(
                "عذراً، لا أستطيع", "عذرا، لا أستطيع", "عذراً، لا يمكنني", "عذرا، لا يمكنني", "آسف، لا أستطيع",
                "لا يمكنني تقديم نصيحة طبية", "لا يمكنني تقديم نصائح طبية", "لا أستطيع تقديم نصائح طبية",
                "لا أستطيع تقديم نصيحة طبية", "لا يمكنني الإجابة على هذا السؤال",
            ),
        ),
        # The languages of the hub sets (Global-MMLU, MMLU-ProX, MMedBench, MedExpQA, KorMedMCQA, AfriMed-QA,
        # HealthBench-ProX). Answer phrases only where a model's usual wording is long enough not to match
        # ordinary text; a language without them still parses labels, option words and the Latin phrases.
        Language("af", "Afrikaans", "Afrikaans", "Latn", ("ja",), ("nee",)),
        Language("am", "Amharic", "አማርኛ", "Ethi", ("አዎ", "አዎን"), ("አይ", "አይደለም")),
        Language("bn", "Bengali", "বাংলা", "Beng", ("হ্যাঁ", "হ্যা"), ("না",)),
        Language("cs", "Czech", "Čeština", "Latn", ("ano",), ("ne",)),
        Language(
            "de", "German", "Deutsch", "Latn", ("ja",), ("nein",),
            answer_phrases=("die richtige antwort ist", "die korrekte antwort ist", "richtige antwort:"),
            option_words=("antwort", "buchstabe"),
            refusal_phrases=(
                "es tut mir leid, aber ich kann", "ich kann keine medizinische beratung",
                "ich kann keine medizinischen ratschläge", "ich kann diese frage nicht beantworten",
            ),
        ),
        Language("el", "Greek", "Ελληνικά", "Grek", ("ναι",), ("όχι", "οχι")),
        Language("fa", "Persian", "فارسی", "Arab", ("بله", "آری"), ("نه", "خیر"), rtl=True),
        Language("fil", "Filipino", "Filipino", "Latn", ("oo", "opo"), ("hindi",)),
        Language(
            "fr", "French", "Français", "Latn", ("oui",), ("non",),
            answer_phrases=(
                "la bonne réponse est", "la réponse correcte est", "la réponse est", "bonne réponse :",
                "bonne réponse:", "réponse :",
            ),
            option_words=("choix", "lettre", "réponse"),
            refusal_phrases=(
                "je suis désolé, mais je ne peux pas", "je ne peux pas fournir de conseils médicaux",
                "je ne peux pas donner de conseils médicaux", "je ne peux pas répondre à cette question",
            ),
        ),
        Language("ha", "Hausa", "Hausa", "Latn", ("ee",), ("a'a",)),
        Language("he", "Hebrew", "עברית", "Hebr", ("כן",), ("לא",), rtl=True),
        Language("hu", "Hungarian", "Magyar", "Latn", ("igen",), ("nem",)),
        Language(
            "id", "Indonesian", "Bahasa Indonesia", "Latn", ("ya",), ("tidak",),
            answer_phrases=("jawaban yang benar adalah", "jawabannya adalah"),
            option_words=("pilihan", "opsi"),
        ),
        Language("ig", "Igbo", "Asụsụ Igbo", "Latn", ("ee",), ("mba",)),
        Language(
            "it", "Italian", "Italiano", "Latn", ("sì", "si"), ("no",),
            answer_phrases=("la risposta corretta è", "la risposta giusta è", "la risposta è", "risposta corretta:"),
            option_words=("opzione", "lettera", "scelta"),
            refusal_phrases=("mi dispiace, ma non posso", "non posso fornire consigli medici"),
        ),
        Language(
            "ja", "Japanese", "日本語", "Jpan", ("はい",), ("いいえ",),
            answer_phrases=("正しい答えは", "正解は", "答えは", "正解:"),
            option_words=("選択肢",),
            refusal_phrases=("医療アドバイスを提供することはできません", "お答えすることはできません"),
        ),
        Language(
            "ko", "Korean", "한국어", "Kore", ("예", "네"), ("아니요", "아니오", "아니"),
            answer_phrases=("올바른 답은", "정답은", "정답:"),
            option_words=("선택지", "보기"),
            refusal_phrases=("의료 조언을 제공할 수 없습니다", "답변을 드릴 수 없습니다", "도와드릴 수 없습니다"),
        ),
        Language("ky", "Kyrgyz", "Кыргызча", "Cyrl", ("ооба",), ("жок",)),
        Language("lt", "Lithuanian", "Lietuvių", "Latn", ("taip",), ("ne",)),
        Language("mg", "Malagasy", "Malagasy", "Latn", ("eny",), ("tsia", "tsy")),
        Language("mr", "Marathi", "मराठी", "Deva", ("हो", "होय"), ("नाही",)),
        Language("ms", "Malay", "Bahasa Melayu", "Latn", ("ya",), ("tidak",)),
        Language("ne", "Nepali", "नेपाली", "Deva", ("हो", "हजुर"), ("होइन",)),
        Language(
            "nl", "Dutch", "Nederlands", "Latn", ("ja",), ("nee",),
            answer_phrases=("het juiste antwoord is", "het correcte antwoord is"),
        ),
        Language("ny", "Chichewa", "Chichewa", "Latn", ("inde",), ("ayi",)),
        Language(
            "pl", "Polish", "Polski", "Latn", ("tak",), ("nie",),
            answer_phrases=("prawidłowa odpowiedź to", "poprawna odpowiedź to"),
        ),
        Language(
            "pt", "Portuguese", "Português", "Latn", ("sim",), ("não", "nao"),
            answer_phrases=(
                "a resposta correta é", "a alternativa correta é", "a opção correta é", "resposta correta:",
            ),
            option_words=("opção", "opcao"),
            refusal_phrases=(
                "desculpe, mas não posso", "não posso fornecer aconselhamento médico",
                "não posso dar conselhos médicos",
            ),
        ),
        Language("ro", "Romanian", "Română", "Latn", ("da",), ("nu",)),
        Language(
            "ru", "Russian", "Русский", "Cyrl", ("да",), ("нет",),
            answer_phrases=("правильный ответ:", "правильный ответ —", "правильный ответ -"),
            option_words=("вариант",),
            refusal_phrases=(
                "извините, но я не могу", "я не могу давать медицинские советы",
                "я не могу предоставить медицинскую консультацию",
            ),
        ),
        Language("si", "Sinhala", "සිංහල", "Sinh", ("ඔව්",), ("නැහැ", "නැත")),
        Language("sn", "Shona", "chiShona", "Latn", ("hongu", "ehe"), ("kwete",)),
        Language("so", "Somali", "Soomaali", "Latn", ("haa",), ("maya",)),
        Language("sr", "Serbian", "Српски", "Cyrl", ("да", "da"), ("не", "ne")),
        Language("sv", "Swedish", "Svenska", "Latn", ("ja",), ("nej",)),
        Language(
            "sw", "Swahili", "Kiswahili", "Latn", ("ndiyo", "ndio"), ("hapana",),
            answer_phrases=("jibu sahihi ni",),
            option_words=("chaguo",),
        ),
        Language("te", "Telugu", "తెలుగు", "Telu", ("అవును",), ("కాదు", "లేదు")),
        Language("th", "Thai", "ไทย", "Thai", ("ใช่",), ("ไม่ใช่", "ไม่")),
        Language("tr", "Turkish", "Türkçe", "Latn", ("evet",), ("hayır", "hayir")),
        Language("uk", "Ukrainian", "Українська", "Cyrl", ("так",), ("ні",)),
        Language("ur", "Urdu", "اردو", "Arab", ("ہاں", "جی ہاں"), ("نہیں",), rtl=True),
        Language(
            "vi", "Vietnamese", "Tiếng Việt", "Latn", ("có", "đúng"), ("không", "sai"),
            answer_phrases=("đáp án đúng là", "câu trả lời đúng là"),
        ),
        Language("wo", "Wolof", "Wolof", "Latn", ("waaw",), ("déedéet", "deedeet")),
        Language("yo", "Yoruba", "Yorùbá", "Latn", ("bẹ́ẹ̀ni", "bẹẹni"), ("rárá", "rara")),
        Language("zu", "Zulu", "isiZulu", "Latn", ("yebo",), ("cha",)),
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

    Chinese has no spaces, so for ``zh`` this is a count of jieba tokens that are not whitespace.
    """
    if not text:
        return 0
    if lang == "zh":
        import jieba  # imported lazily: it loads a dictionary (~1 s)

        jieba.setLogLevel(60)
        return sum(1 for tok in jieba.lcut(text) if tok.strip())
    return len(text.split())


CANONICAL_LETTERS = ("A", "B", "C", "D", "E", "F", "G", "H", "I", "J")

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
