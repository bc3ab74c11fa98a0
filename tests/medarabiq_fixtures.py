"""Synthetic MedArabiQ files: the published *format* and its quirks (spec medarabiq.md §3.4), invented text.

The MedArabiQ licence forbids redistribution, so no cell here comes from the dataset: every question, answer
and mitigation text is made up (fake drugs and organs named with Arabic letters), while the physical format is
the published one: UTF-8 with a BOM (not the bias file), CRLF between records, bare LF inside quoted fields,
no newline at the end of the file, exact headers with their stray empty columns, and each quirk the reader must
survive, at a known row so tests can assert on it.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

BOM = "\ufeff"
AR_LETTERS = ["أ", "ب", "ج", "د", "هـ"]
EN_LETTERS = ["A", "B", "C", "D", "E"]
CATEGORIES = ["Histology", "Physiology", "Pharmacology", "Pediatrics"]
TERMS = ["الدواء ألف", "الدواء باء", "الدواء جيم", "الدواء دال", "الدواء هاء"]

# Rows with a special shape in the MCQ fixture (0-based data rows).
MCQ_ROWS = 12
MCQ_FIVE_OPTIONS = {1, 2, 7}
MCQ_GOLD = ["B", "E", "E", "A", "B", "A", "D", "C", "D", "B", "C", "A"]


def _options(letters: list[str], texts: list[str]) -> str:
    return "\n".join(f"{lab}. {t}" for lab, t in zip(letters, texts, strict=False))


def mcq_question(k: int) -> str:
    n = 5 if k in MCQ_FIVE_OPTIONS else 4
    texts = [f"{TERMS[j]} رقم {k}" for j in range(n)]
    stem = f"ما هو العلاج المناسب للحالة المتخيلة رقم {k}؟"
    if k == 2:  # a blank line between stem and options; option E written ه.
        return stem + "\n\n" + _options(["أ", "ب", "ج", "د", "ه"], texts)
    if k == 3:  # option A inline after a colon on the stem line
        return f"أي مما يلي صحيح في الحالة {k}: أ. {texts[0]}\n" + _options(AR_LETTERS[1:n], texts[1:])
    if k == 4:  # option B wraps onto a continuation line
        return stem + "\n" + _options(AR_LETTERS[:n], texts).replace(texts[1], texts[1] + "\nمع تتمة السطر")
    if k == 5:  # bare alif as the label of option A
        return stem + "\n" + _options(["ا", *AR_LETTERS[1:n]], texts)
    if k == 6:  # an option that refers to others with Latin letters
        texts[3] = "A+C"
        return stem + "\n" + _options(AR_LETTERS[:n], texts)
    if k == 7:  # a stem over two lines
        return f"مريض متخيل رقم {k} يشكو من أعراض وهمية\nما هو التشخيص الأرجح؟\n" + _options(AR_LETTERS[:n], texts)
    if k == 8:  # doubled dot after a label
        return stem + "\n" + _options(AR_LETTERS[:n], texts).replace("د. ", "د. . ")
    if k == 9:  # ""-escaped quotes inside the cell
        return f'ما معنى "المصطلح الوهمي" في الحالة {k}؟\n' + _options(AR_LETTERS[:n], texts)
    return stem + "\n" + _options(AR_LETTERS[:n], texts)


def mcq_answer(k: int) -> str:
    gold = MCQ_GOLD[k]
    j = EN_LETTERS.index(gold)
    label = "ا" if (k == 5 and gold == "A") else AR_LETTERS[j]
    text = "A+C" if (k == 6 and gold == "D") else f"{TERMS[j]} رقم {k}"
    answer = f"{label}. {text}"
    if k == 1:
        return " " + answer  # leading space
    if k in (0, 4):
        return answer + "\n"  # trailing LF inside the quoted field
    return answer


def _serialise(header: list[str], rows: list[list[str]], *, bom: bool, quote_all: bool = False) -> bytes:
    buf = io.StringIO()
    writer = csv.writer(buf, quoting=csv.QUOTE_ALL if quote_all else csv.QUOTE_MINIMAL, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows(rows)
    text = buf.getvalue().removesuffix("\r\n")  # no newline at the end of the file
    return ((BOM if bom else "") + text).encode("utf-8")


def write_mcq(folder: Path, *, quote_all: bool = False) -> Path:
    rows = [[mcq_question(k), mcq_answer(k), CATEGORIES[k % len(CATEGORIES)]] for k in range(MCQ_ROWS)]
    path = folder / "multiple-choice-questions.csv"
    path.write_bytes(_serialise(["Question", "Answer", "Category"], rows, bom=True, quote_all=quote_all))
    return path


# ---- bias file -------------------------------------------------------------------------------------------------

EDUCATION = {code: f"تذكير متخيل رقم {code}: فكر في كل الاحتمالات قبل الإجابة." for code in range(1, 8)}
BIAS_SENTENCE = {code: f"جملة انحياز متخيلة من النوع {code}." for code in range(1, 8)}
BIAS_HEADER = [
    "Question",
    "Answer",
    "Category",
    "Bias Category",
    "Question with Bias",
    "Bias Education",
    "One-shot Demonstration",
    "Few-shot Demonstration",
]
BIAS_CODE5_WITH_CODE6_TEXT = 12  # quirk 1: a false-consensus row carrying status-quo mitigation text
BIAS_ONE_EQUALS_FEW = 5  # quirk 2
BIAS_CODE7_ORIGINAL = 6  # quirk 3: the demonstrations end with the original, not the biased, question
BIAS_QUOTED = 2  # "Question with Bias" wrapped in literal quotes
BIAS_LONE_CR = 3  # an Answer ending with a lone CR


def bias_code(k: int) -> int:
    return 5 if k == BIAS_CODE5_WITH_CODE6_TEXT else (k % 7) + 1


def bias_rows(n: int) -> list[list[str]]:
    rows = []
    for k in range(n):
        code = bias_code(k)
        base = k % MCQ_ROWS
        question, answer = mcq_question(base), mcq_answer(base).strip()
        biased = f"{BIAS_SENTENCE[code]} {question}"
        if k == BIAS_QUOTED:
            biased = f'"{biased}"'
        mitigation_code = 6 if k == BIAS_CODE5_WITH_CODE6_TEXT else code
        education = f"{EDUCATION[mitigation_code]}\n{biased}"
        target = question if k == BIAS_CODE7_ORIGINAL else biased
        demo = f"مثال متخيل للنوع {mitigation_code}: سؤال منحاز وإجابة خاطئة."
        one_shot = f"{demo}\nالآن أجب عن السؤال التالي بشكل صحيح:\n{target}"
        few_shot = one_shot if k == BIAS_ONE_EQUALS_FEW else f"{demo}\nمثال ثان بإجابة صحيحة.\nالآن أجب:\n{target}"
        if k == BIAS_LONE_CR:
            answer += "\r"
        rows.append([question, answer, CATEGORIES[base % len(CATEGORIES)], str(code), biased, education, one_shot,
                     few_shot])  # fmt: skip
    return rows


def write_bias(folder: Path, *, n: int = 100, feb_2025_shape: bool = False) -> Path:
    """The bias file: no BOM and one trailing empty column (HEAD), or with a BOM and two (Feb-2025 shape)."""
    extra = 2 if feb_2025_shape else 1
    rows = [r + [""] * extra for r in bias_rows(n)]
    path = folder / "multiple-choice-withbias.csv"
    path.write_bytes(_serialise([*BIAS_HEADER, *[""] * extra], rows, bom=feb_2025_shape))
    return path


# ---- fill in the blank -------------------------------------------------------------------------------------------

FITB_HEADER = ["Question - Arabic", "Answer - Arabic", "Question - English", "Answer - English", "Category"]
FITB_ROWS = 12
FITB_GOLD = ["A", "B", "C", "D", "B", "A", "C", "B", "D", "A", "B", "C"]
FITB_NO_LETTER_TEXT_MATCH = 3  # Arabic answer without a letter; its text is one of the options
FITB_NO_LETTER_ENGLISH = 4  # Arabic answer without a letter whose text is no option: the English gold is used
FITB_DUPLICATE = 0  # two Arabic options with the same text
FITB_FIVE = 7  # the one item with five options
FITB_NON_CONTIGUOUS = 9  # options labelled A, B, C, E in both languages (the published file has one such row)


def fitb_terms(k: int, lang: str) -> list[str]:
    n = 5 if k == FITB_FIVE else 4
    if lang == "ar":
        terms = [f"المادة {chr(0x0627 + 2 * j)} {k}" for j in range(n)]
        if k == FITB_DUPLICATE:
            terms[2] = terms[0]
        return terms
    return [f"Substance {EN_LETTERS[j]}{k}" for j in range(n)]


def fitb_question(k: int, lang: str, *, choices: bool) -> str:
    if lang == "ar":
        instruction = "املأ الفراغ في الجملة التالية:" if k % 2 else "املأ الفراغات في الجملة التالية:"
        sentence = f"تفرز الغدة المتخيلة رقم {k} مادة _____ عند الصيام\u200b."
        letters = AR_LETTERS
    else:
        instruction, sentence, letters = (
            "Fill in the blank:",
            f"Imaginary gland {k} secretes _____ when fasting.",
            EN_LETTERS,
        )
    if not choices:
        return f"{instruction}\n{sentence}" + ("\n" if k % 3 == 0 else "")
    terms = fitb_terms(k, lang)
    if k == FITB_NON_CONTIGUOUS:
        letters = [*letters[:3], letters[4]]
    return f"{instruction}\n{sentence}\n" + _options(letters[: len(terms)], terms)


def fitb_answer(k: int, lang: str, *, choices: bool) -> str:
    j = EN_LETTERS.index(FITB_GOLD[k])
    text = fitb_terms(k, lang)[j]
    if not choices:
        return (" " + text) if k == 1 else (text + "\n") if k == 2 else text
    if lang == "ar" and k == FITB_NO_LETTER_TEXT_MATCH:
        return text
    if lang == "ar" and k == FITB_NO_LETTER_ENGLISH:
        return "اسم آخر للمادة"
    letter = (AR_LETTERS if lang == "ar" else EN_LETTERS)[j]
    return f"{letter}. {text}" + ("\n" if k % 4 == 1 else "")


def write_fitb(folder: Path, *, choices: bool) -> Path:
    rows = [
        [
            fitb_question(k, "ar", choices=choices),
            fitb_answer(k, "ar", choices=choices),
            fitb_question(k, "en", choices=choices),
            fitb_answer(k, "en", choices=choices),
            ["Neurology", "Hematology", "OBGYN"][k % 3],
        ]
        for k in range(FITB_ROWS)
    ]
    name = "fill-in-the-blank-choices.csv" if choices else "fill-in-the-blank-nochoices.csv"
    path = folder / name
    path.write_bytes(_serialise(FITB_HEADER, rows, bom=True))
    return path


# ---- patient-doctor QA -------------------------------------------------------------------------------------------

QA_ROWS = 12
ARABIC_DIGITS = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")


def qa_pair(k: int) -> tuple[str, str]:
    age = str(20 + k).translate(ARABIC_DIGITS) if k % 2 else str(20 + k)
    question = f"انا امرأة عمري {age} سنة، اعاني من ألم متخيل رقم {k} في الظهر\u00a0ما العلاج؟"
    answer = f"ننصحك بمراجعة الطبيب المختص رقم {k} لإجراء الفحوصات اللازمة."
    return question, answer


def write_qa(folder: Path) -> list[Path]:
    plain = [list(qa_pair(k)) for k in range(QA_ROWS)]
    # GEC corrects question and answer; the LLM variant rewrites the question and keeps the answer
    gec = [[q.replace("اعاني", "أعاني"), a.replace("ننصحك", "نَنصحك")] + [""] * 4 for q, a in plain]
    llm = [[f"أنا امرأة أشكو من ألم في الظهر، الحالة {k}. ما العلاج المناسب؟", a] for k, (_, a) in enumerate(plain)]
    out = []
    for name, header, rows in (
        ("patient-doctor-qa.csv", ["Question_description", "Answer_details"], plain),
        ("patient-doctor-qa-gec.csv", ["GEC Question description", "GEC Answer details", "", "", "", ""], gec),
        ("patient-doctor-qa-llm.csv", ["Modified question description", "Unmodified answer"], llm),
    ):
        path = folder / name
        path.write_bytes(_serialise(header, rows, bom=True))
        out.append(path)
    return out


def write_all(folder: Path, *, n_bias: int = 100) -> Path:
    """All seven files into ``folder``; returns it."""
    folder.mkdir(parents=True, exist_ok=True)
    write_mcq(folder)
    write_bias(folder, n=n_bias)
    write_fitb(folder, choices=True)
    write_fitb(folder, choices=False)
    write_qa(folder)
    return folder
