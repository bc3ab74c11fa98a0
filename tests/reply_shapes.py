"""Invented multiple-choice replies in the shapes real chat models write, in many languages (no model's text).

Each language has five option texts of the same invented question (a breathless patient), a discussion line per
option in three list styles, and conclusions that commit to one option; ``long_reply`` assembles a reply of
500-2,000 characters that walks through every option and then concludes.
"""

from __future__ import annotations

import random

OPTIONS: dict[str, list[str]] = {
    "en": ["Pneumonia", "Asthma", "Pulmonary embolism", "Heart failure", "Pneumothorax"],
    "ja": ["肺炎", "気管支喘息", "肺塞栓症", "心不全", "気胸"],
    "he": ["דלקת ריאות", "אסטמה", "תסחיף ריאתי", "אי ספיקת לב", "חזה אוויר"],
    "pt": ["Pneumonia", "Asma", "Embolia pulmonar", "Insuficiência cardíaca", "Pneumotórax"],
    "es": ["Neumonía", "Asma", "Embolia pulmonar", "Insuficiencia cardíaca", "Neumotórax"],
    "ar": ["التهاب رئوي", "ربو", "انصمام رئوي", "قصور القلب", "استرواح الصدر"],
    "hi": ["निमोनिया", "अस्थमा", "फुफ्फुसीय अन्तःशल्यता", "हृदय विफलता", "न्यूमोथोरैक्स"],
    "zh": ["肺炎", "哮喘", "肺栓塞", "心力衰竭", "气胸"],
    "ko": ["폐렴", "천식", "폐색전증", "심부전", "기흉"],
    "sw": ["Nimonia", "Pumu", "Kuziba kwa mshipa wa mapafu", "Kushindwa kwa moyo", "Hewa kifuani"],
    "fr": ["Pneumonie", "Asthme", "Embolie pulmonaire", "Insuffisance cardiaque", "Pneumothorax"],
    "de": ["Lungenentzündung", "Asthma", "Lungenembolie", "Herzinsuffizienz", "Pneumothorax"],
}
LETTERS = "ABCDE"
HEBREW = "אבגדה"
ARABIC = "أبجده"

# A sentence of reasoning about an option that does not choose it (no negation word: the list is discussion).
REASON: dict[str, str] = {
    "en": "this would explain the fever, but the onset here was sudden and the chest film shows something else",
    "ja": "発熱と咳の説明にはなるが、今回の発症は急激で、先行する上気道症状もなく、胸部写真の所見は別の病態を示唆する",
    "he": "זה היה מסביר את החום, אך ההופעה כאן הייתה פתאומית וצילום החזה מראה ממצא אחר",
    "pt": "isso explicaria a febre, mas o início aqui foi súbito e a radiografia mostra outro achado",
    "es": "esto explicaría la fiebre, pero el inicio aquí fue súbito y la radiografía muestra otro hallazgo",
    "ar": "قد يفسر هذا الحمى، لكن البداية هنا كانت مفاجئة وتظهر صورة الصدر شيئا آخر",
    "hi": "यह बुखार को समझा सकता है, पर यहाँ शुरुआत अचानक हुई और छाती का एक्स-रे कुछ और दिखाता है",
    "zh": "这可以解释发热和咳嗽，但本例起病急骤，没有前驱的上呼吸道感染症状，"
    "而且胸片显示的是另一种表现，与该诊断并不完全吻合",
    "ko": "발열과 기침은 설명할 수 있지만 이번에는 갑자기 시작되었고 "
    "선행하는 상기도 증상도 없으며 흉부 사진은 다른 소견을 보인다",
    "sw": "hii ingeeleza homa, lakini mwanzo hapa ulikuwa wa ghafla na picha ya kifua inaonyesha kitu kingine",
    "fr": "cela expliquerait la fièvre, mais le début ici a été brutal et la radiographie montre autre chose",
    "de": "das würde das Fieber erklären, aber der Beginn war hier plötzlich und das Röntgenbild zeigt etwas anderes",
}
INTRO: dict[str, str] = {
    "en": "Let us go through the findings step by step before choosing. The patient is breathless, with pleuritic "
    "pain and a fast heart rate after a long flight.",
    "ja": "選択する前に所見を順に検討します。患者は長時間のフライト後に呼吸困難、胸膜痛、頻脈を呈しています。",
    "he": "נעבור על הממצאים שלב אחר שלב לפני הבחירה. המטופל קוצר נשימה, עם כאב פלאוריטי ודופק מהיר לאחר טיסה ארוכה.",
    "pt": "Vamos analisar os achados passo a passo antes de escolher. O paciente está dispneico, com dor pleurítica e "
    "taquicardia após um voo longo.",
    "es": "Analicemos los hallazgos paso a paso antes de elegir. El paciente presenta disnea, dolor pleurítico y "
    "taquicardia tras un vuelo largo.",
    "ar": "لنراجع النتائج خطوة بخطوة قبل الاختيار. يعاني المريض من ضيق التنفس وألم جنبي وتسرع القلب بعد رحلة طويلة.",
    "hi": "चुनने से पहले आइए निष्कर्षों को क्रम से देखें। लंबी उड़ान के बाद रोगी को सांस फूलना, सीने में दर्द और तेज़ धड़कन है।",
    "zh": "在选择之前，我们逐步分析这些表现。患者长途飞行后出现呼吸困难、胸膜性胸痛和心动过速。",
    "ko": "선택하기 전에 소견을 단계적으로 검토하겠습니다. "
    "환자는 장거리 비행 후 호흡곤란, 흉막성 통증, 빈맥을 보입니다.",
    "sw": "Tuchambue matokeo hatua kwa hatua kabla ya kuchagua. Mgonjwa ana shida ya kupumua, maumivu ya kifua na "
    "mapigo ya moyo ya haraka baada ya safari ndefu ya ndege.",
    "fr": "Analysons les éléments étape par étape avant de choisir. Le patient est dyspnéique, avec une douleur "
    "pleurale et une tachycardie après un long vol.",
    "de": "Gehen wir die Befunde Schritt für Schritt durch, bevor wir wählen. Der Patient ist kurzatmig, mit "
    "pleuritischem Schmerz und Tachykardie nach einem Langstreckenflug.",
}
# Conclusions: {x} the label (Latin, or the script's own for he/ar where noted), {t} the option's text.
CONCLUSIONS: dict[str, list[str]] = {
    "en": ["Therefore, the most likely diagnosis is {t} ({x}).", "**Answer: {x}**",
           "In conclusion, the best answer is {x}. {t}.", "So, considering everything above, I would choose {x}."],
    "ja": ["したがって、最も適切な診断は{t}（{x}）です。", "**{x}. {t}** が最も可能性の高い診断です。",
           "以上より、正解は{x}です。", "結論：{x}"],
    "he": ["לכן התשובה הנכונה היא {h}", "לכן, האבחנה הסבירה ביותר היא {t} ({x}).", "**תשובה: {x}**"],
    "pt": ["Portanto, a resposta correta é: {x}.", "**Conclusão:** a alternativa {x} ({t}) é a mais provável.",
           "Logo, a opção {x} é a mais adequada."],
    "es": ["**Conclusión:** el diagnóstico más probable es {t}, la opción {x}.", "Por lo tanto, la respuesta es {x}.",
           "En conclusión, la opción correcta es la {x}."],
    "ar": ["لذلك فإن الإجابة الصحيحة هي {a}", "الخلاصة: {t} هو التشخيص الأرجح ({a}).", "الإجابة: {x}"],
    "hi": ["इसलिए, सबसे संभावित निदान {t} ({x}) है।", "सही उत्तर: {x}", "अतः विकल्प {x} सबसे उपयुक्त है।"],
    "zh": ["因此，最可能的诊断是{t}（{x}）。", "综上所述，答案是{x}。", "**正确答案：{x}. {t}**"],
    "ko": ["따라서 정답은 {x}입니다.", "결론적으로 가장 가능성이 높은 진단은 {t}({x})입니다.", "**정답: {x}**"],
    "sw": ["Kwa hiyo, jibu sahihi ni {x}.", "Hitimisho: {t} ({x}) ndilo jibu.", "Jibu: {x}"],
    "fr": ["Donc, la bonne réponse est {x}.", "En conclusion, le diagnostic le plus probable est {t} ({x})."],
    "de": ["Daher ist die richtige Antwort {x}.", "Fazit: Am wahrscheinlichsten ist {t} ({x})."],
}  # fmt: skip
ENTRY_STYLES = (
    "{x}. {t}: {r}; {r}.", "**{x}. {t}:** {r}. {r}.", "- ({x}) {t} – {r}; {r}.", "{x}) {t}\n   - {r}.\n   - {r}.",
)


def options(lang: str) -> dict[str, str]:
    return dict(zip(LETTERS, OPTIONS[lang], strict=True))


def conclusion(lang: str, k: int, label: str) -> str:
    i = LETTERS.index(label)
    template = CONCLUSIONS[lang][k % len(CONCLUSIONS[lang])]
    return template.format(x=label, t=OPTIONS[lang][i], h=HEBREW[i], a=ARABIC[i])


def long_reply(lang: str, label: str, *, style: int = 0, k: int = 0, seed: int = 0, conclude: bool = True,
               reason_lang: str | None = None) -> str:
    """A reply that reasons, walks through every option in list style ``style``, then (``conclude``) concludes
    with conclusion ``k`` on ``label``; 500-2,000 characters. ``reason_lang``: write the reasoning and conclusion
    in this language (an English reply to a Japanese question) while the options stay in ``lang``'s words."""
    rng = random.Random(seed)
    rl = reason_lang or lang
    parts = [INTRO[rl], "", INTRO[rl], ""]
    for i, text in enumerate(OPTIONS[lang]):
        entry = ENTRY_STYLES[style % len(ENTRY_STYLES)].format(x=LETTERS[i], t=text, r=REASON[rl])
        parts.append(entry)
        if rng.random() < 0.3:
            parts.append("")
    if conclude:
        parts += ["", INTRO[rl].split(".")[0].split("。")[0] + ".", "", _conclusion_mixed(lang, rl, k, label)]
    return "\n".join(parts)


def _conclusion_mixed(lang: str, rl: str, k: int, label: str) -> str:
    i = LETTERS.index(label)
    template = CONCLUSIONS[rl][k % len(CONCLUSIONS[rl])]
    return template.format(x=label, t=OPTIONS[lang][i], h=HEBREW[i], a=ARABIC[i])
