"""What a language is: one row of literals (``Language``), one file per language in this folder."""

from __future__ import annotations

from dataclasses import dataclass

from xlingmed.errors import ConfigError

CANONICAL_LETTERS = ("A", "B", "C", "D", "E", "F", "G", "H", "I", "J")
# Labels some exams print instead of letters, in order (the first is option A): circled numbers (Korean, Japanese
# exams), Hangul syllables (Korean), katakana (Japanese).
CIRCLED = tuple("①②③④⑤⑥⑦⑧⑨⑩")
HANGUL = tuple("가나다라마바사아자차")
KATAKANA = tuple("アイウエオカキクケコ")


@dataclass(frozen=True)
class Language:
    """Literals of one language.

    Attributes:
        code: ISO 639-1 code (``"hi"``; ``"fil"`` for Filipino, which has none).
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
        answer_label: the word "Answer" in this language, for the last line the ``answer_line`` prompt asks for
            ("Respuesta: C", "答え: C"); read back as an answer phrase (``answer_label:``).

    What ``parsing.choice`` reads (lower case, compared after NFKC; every language's words are read in every
    reply, since models often answer in English or in the question's language regardless of the prompt):
        answer_phrases: phrases after which a model names the option it chose ("The correct answer is",
            "الإجابة الصحيحة هي").
        option_words: words that stand before an option label ("option C", "الخيار ج").
        counting_words: the option words that also count things ("the answer 2 days later", "número 5 pacientes"):
            a number after one is a label only where no word follows it.
        option_ordinals: an option named by its place, one tuple per place from the first ("the third option",
            "la tercera opción", "第三个选项", "세 번째 선택지"): read as that option's label.
        conclusion_cues: words that open or mark a reply's conclusion ("therefore", "in conclusion", "the most
            likely", したがって, לכן); the sentence holding the last one is read as the reply's choice.
        negations_before / negations_after: words that say an option is *not* the answer when they stand just
            before its label ("not C", "ليست ج", "不是C") or just after it ("C is incorrect", "Cではない").
        no_choice_phrases: what a reply writes when it chooses nothing: it refuses, or asks for what it lacks
            ("without the image", "画像が提示されていない"); such a reply is ``refused`` even when it quotes an option.
        none_phrases: what a reply writes when it finds no option right ("none of the options", "ninguna de las
            opciones", "هیچ‌کدام از گزینه‌ها"); read as ``no_choice_phrases`` are.
        refusal_phrases: what a model writes when it declines a medical question ("i can't provide medical
            advice"); the first pass of the refusal classifier (``tasks.safety``), so only phrases that decline,
            never an apology that opens an answer.
        term_words: words a letter completes into a term rather than a label ("vitamin D", "hepatitis B",
            "type A", "ビタミンD").
        term_suffixes: words after a letter that make it a term ("B cells", "B型", "A형").
        reply_letters: option labels of this script that replies may use (Hebrew א ב ג ד, Devanagari क ख ग घ),
            in order; read as A, B, C… in replies only.
        rationale_headings: the heading of the explanation a reply gives after its answer ("Rationale:",
            "Explicación:", "解説："): the answer stated before such a heading is the reply's answer, whatever
            options the explanation goes on to discuss.
        reference_headings: the heading of a reply's reference list ("References", "Referencias", "参考文献"):
            what follows it is cited, never an answer (``parsing.citations``).
        field_words: names of a reply's fields that hold a number, a grade or a letter of another kind
            ("Confidence: 4", "Grade: A", "Pregunta 12: B", "問題"): a line they head is no answer line
            (``parsing.answer_line``).
        copulas: the verbs that link a reply's closing sentence to the option it names last ("…the factor that
            has received the least support is (F).", "…la respuesta más adecuada es la (C)."): such a sentence
            states that option.
        reported_words: what makes an answer phrase someone else's or a supposition, before it in its clause ("the
            user's note claims the correct answer is (A)", "if the intended answer is (A)", "如果答案是A"): such a
            phrase is not the reply's own answer.
        doubt_words: what a reasoning trace writes when it doubts the answer it just gave ("wait", "I'm not
            sure"): a reply whose last answer is followed by one and no option named again never concluded.
        affirmations: what may follow the label on an answer line and only affirm it ("Answer: A is correct",
            "Respuesta: B es la correcta"); anything else after the label leaves the line unread.
    """

    code: str
    name: str
    native: str
    script: str
    yes_words: tuple[str, ...]
    no_words: tuple[str, ...]
    rtl: bool = False
    option_letters: tuple[str, ...] = CANONICAL_LETTERS
    field_labels: tuple[tuple[str, str], ...] = (
        ("question", "Question:"),
        ("answer", "Answer:"),
        ("options", "Options:"),
    )
    answer_label: str = "Answer"
    answer_phrases: tuple[str, ...] = ()
    option_words: tuple[str, ...] = ()
    counting_words: tuple[str, ...] = ()
    option_ordinals: tuple[tuple[str, ...], ...] = ()
    conclusion_cues: tuple[str, ...] = ()
    negations_before: tuple[str, ...] = ()
    negations_after: tuple[str, ...] = ()
    no_choice_phrases: tuple[str, ...] = ()
    none_phrases: tuple[str, ...] = ()
    refusal_phrases: tuple[str, ...] = ()
    term_words: tuple[str, ...] = ()
    term_suffixes: tuple[str, ...] = ()
    reply_letters: tuple[str, ...] = ()
    rationale_headings: tuple[str, ...] = ()
    reference_headings: tuple[str, ...] = ()
    field_words: tuple[str, ...] = ()
    affirmations: tuple[str, ...] = ()
    copulas: tuple[str, ...] = ()
    reported_words: tuple[str, ...] = ()
    doubt_words: tuple[str, ...] = ()

    def field_label(self, name: str) -> str:
        """The prompt label ``name`` (``question``, ``answer``, ``options``) in this language.

        Raises:
            ConfigError: no such label for this language.
        """
        for key, value in self.field_labels:
            if key == name:
                return value
        raise ConfigError(f"language {self.code!r} has no field label {name!r}")
