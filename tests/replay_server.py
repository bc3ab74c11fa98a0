"""A scripted OpenAI-compatible server that answers every multiple-choice item correctly, in one phrasing.

Real models rarely answer with a bare letter: they write "The correct answer is (C).", answer in the question's
language ("الإجابة الصحيحة هي: ب"), repeat the option's text, or name no option at all. ``ReplayPolicy`` finds
which item a prompt asks about (the longest item text the prompt contains: the question cell, a bias variant, or
the stem of a structured prompt) and replies with that item's gold option written the way ``PHRASINGS`` says,
so a run's accuracy says what the parser made of correct answers (100 % is right) and of answers that name no
option (``NO_OPTION``: 0 %, all invalid). Used by tests/test_replay.py and bench/parser_replay.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pandas as pd
import reply_shapes as rs
from fault_server import Reply, ok

from xlingmed.languages import LANGUAGES
from xlingmed.prompts import shown_labels
from xlingmed.types import Item

Phrasing = Callable[[str, str, str], str]  # (gold label in the item's script, Latin gold label, option text, lang)

NATIVE_PHRASE = {
    "en": "Answer: {label}",
    "es": "La respuesta correcta es la {label}.",
    "zh": "答案是{label}。",
    "hi": "सही उत्तर है: {label}",
    "ar": "الإجابة الصحيحة هي: {label}",
}

# How real chat models conclude after reasoning, in each language of the replay (label only: the fixture's
# duplicate option texts would make a text ambiguous).
CONCLUDE = {
    "en": "So, considering everything above, I would choose {x}.",
    "es": "Por lo tanto, la respuesta es {x}.",
    "zh": "综上所述，答案是{x}。",
    "hi": "अतः सही उत्तर: {x}",
    "ar": "لذلك فإن الإجابة الصحيحة هي {x}",
}
NEGATION_THEN_ANSWER = {
    "en": "It is not {o}; the correct answer is {x}.",
    "es": "No es la {o}; la respuesta correcta es la {x}.",
    "zh": "不是{o}，答案是{x}。",
    "hi": "{o} नहीं है। सही उत्तर है: {x}",
    "ar": "الإجابة ليست {o}، الإجابة الصحيحة هي: {x}",
}
RATIONALE = {"en": "Rationale:", "es": "**Explicación:**", "zh": "解析：", "hi": "व्याख्या:", "ar": "التفسير:"}
REFUSAL_QUOTING = {
    "en": "I cannot answer without the image, although {t} is often the case.",
    "es": "Sin la imagen no puedo determinar si se trata de {t}.",
    "zh": "没有提供图片，无法确定是否为{t}。",
    "hi": "छवि के बिना मैं निर्धारित नहीं कर सकता कि यह {t} है या नहीं।",
    "ar": "لا يمكنني تحديد الإجابة بدون الصورة، رغم أن {t} شائع",
}


def discussion(lang: str, reason_lang: str) -> str:
    """A walk through options A–D in the item's script, one per line, none chosen (``reply_shapes.REASON``)."""
    letters = LANGUAGES[lang].option_letters[:4]
    return "\n".join([rs.INTRO[reason_lang], "", *(f"{x}. {rs.REASON[reason_lang]}." for x in letters), ""])


def _other(lang: str, latin: str) -> str:
    return LANGUAGES[lang].option_letters[1 if latin == "A" else 0]


# name -> reply(label as printed in the item's script, Latin label, option text, language)
PHRASINGS: dict[str, Callable[[str, str, str, str], str]] = {
    "bare letter": lambda shown, latin, text, lang: latin,
    "bare letter, item's script": lambda shown, latin, text, lang: shown,
    "paper marker": lambda shown, latin, text, lang: f"The correct letter is: {latin}",
    "answer phrase (en)": lambda shown, latin, text, lang: f"The correct answer is {latin}.",
    "answer phrase (item's language)": lambda shown, latin, text, lang: NATIVE_PHRASE[lang].format(label=shown),
    "parentheses": lambda shown, latin, text, lang: f"The correct answer is ({latin}).",
    "bold": lambda shown, latin, text, lang: f"**{shown}**",
    "sentence ending in the letter": lambda shown, latin, text, lang: f"After weighing every option I choose {latin}.",
    "label and text, then reasoning": lambda shown, latin, text, lang: (
        f"{shown}. {text}\n\nThe other options do not fit this presentation."
    ),
    "option text only": lambda shown, latin, text, lang: text,
    "reasoning through every option, then a conclusion (item's language)": lambda shown, latin, text, lang: (
        discussion(lang, lang) + "\n" + CONCLUDE[lang].format(x=shown)
    ),
    "reasoning through every option in English, then a conclusion": lambda shown, latin, text, lang: (
        discussion(lang, "en") + "\n" + CONCLUDE["en"].format(x=latin)
    ),
    "a negated option, then the answer (item's language)": lambda shown, latin, text, lang: (
        NEGATION_THEN_ANSWER[lang].format(o=_other(lang, latin), x=shown)
    ),
    "the answer, then a rationale that discusses every option (item's language)": lambda shown, latin, text, lang: (
        f"{shown}. {text}\n\n{RATIONALE[lang]}\n" + discussion(lang, lang)
    ),
}
NO_OPTION: dict[str, Callable[[str, str, str, str], str]] = {
    "cannot choose (en)": lambda shown, latin, text, lang: "Doctors usually weigh every option; I cannot choose.",
    "cannot choose (item's language)": lambda shown, latin, text, lang: {
        "en": "I would need to examine the patient before choosing anything.",
        "es": "No puedo elegir sin examinar al paciente.",
        "zh": "没有检查病人，我无法选择。",
        "hi": "मरीज़ की जाँच किए बिना मैं चुन नहीं सकता।",
        "ar": "لا أستطيع اختيار إجابة واحدة دون فحص المريض.",
    }[lang],
    "refusal that quotes the answer's text (item's language)": lambda shown, latin, text, lang: (
        REFUSAL_QUOTING[lang].format(t=text)
    ),
    "reasoning through every option, no conclusion": lambda shown, latin, text, lang: discussion(lang, lang),
    "the answer negated (en)": lambda shown, latin, text, lang: f"It is definitely not {latin}.",
}
ALL_PHRASINGS = {**PHRASINGS, **NO_OPTION}


def _texts(item: Item) -> list[str]:
    texts = [item.question.strip(), str(item.meta.get("stem", "")).strip()]
    texts += [v.strip() for v in item.meta.get("variants", {}).values()]
    return [t for t in texts if t]


class ReplayPolicy:
    """``policy(prompt, attempt)`` for ``FaultServer``: the gold option of the prompt's item, in ``phrasing``."""

    def __init__(self, items: Sequence[Item], phrasing: str) -> None:
        self.reply = ALL_PHRASINGS[phrasing]
        self.index = sorted(((t, it) for it in items for t in _texts(it)), key=lambda ti: -len(ti[0]))
        self.unmatched = 0

    def __call__(self, prompt: str, attempt: int) -> Reply:
        item = next((it for t, it in self.index if t in prompt), None)
        if item is None or item.gold_label is None:
            self.unmatched += 1
            return ok("?")
        k = ord(item.gold_label) - ord("A")
        printed = shown_labels(item)  # a numbered exam (MedExpQA's "1. …"): the reply names the number it saw
        shown = printed[k] if printed else LANGUAGES[item.lang].option_letters[k]
        text = next(c.text for c in item.choices if c.label == item.gold_label)
        return ok(self.reply(shown, printed[k] if printed else item.gold_label, text, item.lang))


# Invented questions of a user's own mcq:FILE in every language the project knows: (stem, options), gold is
# the letter at the same index of GOLD.
MCQ_FILE_GOLD = ["A", "B", "C", "D"]
MCQ_FILE = {
    "en": [
        ("Which drug lowers fever?", ["Paracetamol", "Insulin", "Warfarin", "Heparin"]),
        ("Which organ makes insulin?", ["Liver", "Pancreas", "Kidney", "Spleen"]),
        ("Which vitamin deficiency causes scurvy?", ["Vitamin A", "Vitamin D", "Vitamin C", "Vitamin K"]),
        ("A child has a barking cough. Likely diagnosis?", ["Asthma", "Pneumonia", "Otitis", "Croup"]),
    ],
    "es": [
        ("¿Qué fármaco baja la fiebre?", ["Paracetamol", "Insulina", "Warfarina", "Heparina"]),
        ("¿Qué órgano produce insulina?", ["Hígado", "Páncreas", "Riñón", "Bazo"]),
        ("¿Qué carencia vitamínica causa escorbuto?", ["Vitamina A", "Vitamina D", "Vitamina C", "Vitamina K"]),
        ("Un niño tiene tos perruna. ¿Diagnóstico probable?", ["Asma", "Neumonía", "Otitis", "Crup"]),
    ],
    "zh": [
        ("哪种药能退烧？", ["对乙酰氨基酚", "胰岛素", "华法林", "肝素"]),
        ("哪个器官产生胰岛素？", ["肝脏", "胰腺", "肾脏", "脾脏"]),
        ("缺乏哪种维生素会导致坏血病？", ["维生素A", "维生素D", "维生素C", "维生素K"]),
        ("孩子有犬吠样咳嗽。最可能的诊断？", ["哮喘", "肺炎", "中耳炎", "哮吼"]),
    ],
    "hi": [
        ("कौन सी दवा बुखार कम करती है?", ["पैरासिटामोल", "इंसुलिन", "वारफारिन", "हेपरिन"]),
        ("कौन सा अंग इंसुलिन बनाता है?", ["यकृत", "अग्न्याशय", "गुर्दा", "प्लीहा"]),
        ("किस विटामिन की कमी से स्कर्वी होता है?", ["विटामिन ए", "विटामिन डी", "विटामिन सी", "विटामिन के"]),
        ("बच्चे को भौंकने वाली खांसी है। संभावित निदान?", ["दमा", "निमोनिया", "कान का संक्रमण", "क्रुप"]),
    ],
    "ar": [
        ("أي دواء يخفض الحرارة؟", ["باراسيتامول", "إنسولين", "وارفارين", "هيبارين"]),
        ("أي عضو يصنع الإنسولين؟", ["الكبد", "البنكرياس", "الكلية", "الطحال"]),
        ("نقص أي فيتامين يسبب الإسقربوط؟", ["فيتامين أ", "فيتامين د", "فيتامين ج", "فيتامين ك"]),
        ("طفل يعاني من سعال نباحي. ما التشخيص المرجح؟", ["الربو", "الالتهاب الرئوي", "التهاب الأذن", "الخانوق"]),
    ],
}


def write_mcq_file(path: Path) -> Path:
    """The questions above as a user's CSV (id, language, question, A–D, answer letter)."""
    rows = [
        {
            "id": f"q{k}",
            "language": lang,
            "question": stem,
            **dict(zip("ABCD", opts, strict=True)),
            "answer": MCQ_FILE_GOLD[k],
        }
        for lang, questions in MCQ_FILE.items()
        for k, (stem, opts) in enumerate(questions)
    ]
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


# What the scripted extractor (``ExtractorScript``) says about a reply, per item language: a label as the item
# shows it, a Latin label in markdown, each with a quote of the reply; a label with a quote that is not in the reply
# (which must be counted as unverified); "none"; or an explanation (which must be counted as unparsed).
EXTRACTOR_SAYS = {"en": "**gold-latin**", "es": "unquoted", "zh": "none", "hi": "explain", "ar": "gold"}


def quoted_line(reply: str, shown: str) -> str:
    """The reply's line that opens with the option's label (``C. …``), else its last line: what an extractor that
    reads well quotes."""
    lines = [line for line in reply.splitlines() if line.strip()]
    return next((line for line in lines if line.startswith(f"{shown}. ")), lines[-1] if lines else "")


class ExtractorScript:
    """``policy(prompt, attempt, payload)``: the model under test replies as ``ReplayPolicy`` does; requests with
    the extractor's prompt for the model named ``extractor`` (``--extractor openai/<extractor>``) are answered by
    ``says[item language]`` (``EXTRACTOR_SAYS``), and counted in ``extractor_calls``."""

    with_payload = True

    def __init__(self, replay: ReplayPolicy, extractor: str = "ext", says: dict[str, str] | None = None) -> None:
        self.replay, self.extractor, self.says = replay, extractor, says or EXTRACTOR_SAYS
        self.extractor_calls = 0

    def __call__(self, prompt: str, attempt: int, payload: dict[str, object]) -> Reply:
        if payload.get("model") != self.extractor or "Reply:\n<<<" not in prompt:  # the model under test's
            return self.replay(prompt, attempt)
        self.extractor_calls += 1
        question, rest = prompt.split("Reply:\n<<<", 1)  # the item is found from the question, never the reply
        reply = rest.split("\n>>>", 1)[0].strip("\n")
        item = next((it for t, it in self.replay.index if t in question), None)
        assert item is not None and item.gold_label is not None, "extractor prompt names no known item"
        k = ord(item.gold_label) - ord("A")
        shown = LANGUAGES[item.lang].option_letters[k]
        quote = quoted_line(reply, shown)
        return ok({
            "gold": f"Answer: {shown}\nQuote: {quote}",
            "**gold-latin**": f"Answer: **{item.gold_label}**\nQuote: \"{quote}\"",
            "unquoted": f"Answer: {shown}\nQuote: The answer is clearly {shown}, as the reply says.",
            "none": "Answer: none\nQuote:",
            "explain": f"The reply seems to lean towards {item.gold_label}, but it never commits.",
        }[self.says[item.lang]])  # fmt: skip
