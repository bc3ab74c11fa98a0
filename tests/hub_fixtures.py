"""Tiny copies of the published hub benchmarks in their real layouts, file formats and column names (as the
dataset cards and the peers' loaders give them: lm-evaluation-harness task YAMLs, simple-evals'
``healthbench_eval.py``, the sets' own code), with invented medical content. Never a copy of the data.

Each writer takes a root folder (what ``--data-dir`` points at) and returns it.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import pandas as pd

# The same three questions in each language; option texts stay short so a toy model's reply is parseable.
STEMS = {
    "en": ["Which organ makes insulin?", "Which vitamin prevents scurvy?", "Which bone is in the thigh?"],
    "es": ["¿Qué órgano produce insulina?", "¿Qué vitamina previene el escorbuto?", "¿Qué hueso está en el muslo?"],
    "fr": ["Quel organe produit l'insuline ?", "Quelle vitamine prévient le scorbut ?", "Quel os est dans la cuisse ?"],
    "it": ["Quale organo produce insulina?", "Quale vitamina previene lo scorbuto?", "Quale osso è nella coscia?"],
    "zh": ["哪个器官产生胰岛素？", "哪种维生素预防坏血病？", "大腿里是哪块骨头？"],
    "hi": ["कौन सा अंग इंसुलिन बनाता है?", "कौन सा विटामिन स्कर्वी रोकता है?", "जांघ में कौन सी हड्डी है?"],
    "ja": ["インスリンを作る臓器は？", "壊血病を防ぐビタミンは？", "太ももの骨は？"],
    "ko": ["인슐린을 만드는 장기는?", "괴혈병을 예방하는 비타민은?", "허벅지에 있는 뼈는?"],
    "sw": ["Kiungo gani hutengeneza insulini?", "Vitamini gani huzuia kiseyeye?", "Mfupa gani uko pajani?"],
    "ar": ["ما العضو الذي ينتج الأنسولين؟", "ما الفيتامين الذي يمنع الإسقربوط؟", "ما العظم الموجود في الفخذ؟"],
    "am": ["ኢንሱሊን የሚያመነጨው የትኛው አካል ነው?", "ስከርቪን የሚከላከለው የትኛው ቫይታሚን ነው?", "በጭን ውስጥ ያለው አጥንት የትኛው ነው?"],
    "ru": ["Какой орган вырабатывает инсулин?", "Какой витамин предотвращает цингу?", "Какая кость в бедре?"],
    "gl": ["Que órgano produce insulina?", "Que vitamina prevén o escorbuto?", "Que óso está na coxa?"],
    "fa": ["کدام اندام انسولین می‌سازد؟", "کدام ویتامین از اسکوربوت پیشگیری می‌کند؟", "کدام استخوان در ران است؟"],
}
OPTIONS = [["Pancreas", "Liver", "Kidney", "Spleen"], ["Vitamin C", "Vitamin D", "Vitamin K", "Vitamin A"],
           ["Femur", "Tibia", "Radius", "Ulna"]]  # fmt: skip
GOLD = [0, 0, 0]


def _configs_readme(folder: Path, configs: dict[str, dict[str, str]], fmt: str = "parquet") -> None:
    """The card's YAML ``configs:`` block that tells ``datasets`` which files make each config's splits."""
    lines = ["---", "configs:"]
    for name, splits in configs.items():
        lines += [f"- config_name: {name}", "  data_files:"]
        lines += [f"  - split: {split}\n    path: {path}" for split, path in splits.items()]
    (folder / "README.md").write_text("\n".join([*lines, "---", f"# fixture ({fmt})", ""]), encoding="utf-8")


def global_mmlu(
    root: Path, dataset: str = "CohereLabs/Global-MMLU", langs: tuple[str, ...] = ("en", "es", "sw")
) -> Path:
    """``<lang>/test-00000-of-00001.parquet`` per language config; one non-medical subject that must be left out;
    CS/CA labels on the annotated rows, ``-`` elsewhere; the annotators' lists as strings."""
    folder = root / dataset
    subjects = ["anatomy", "nutrition", "clinical_knowledge"]
    for lang in langs:
        (folder / lang).mkdir(parents=True)
        rows = []
        for i, stem in enumerate(STEMS[lang]):
            rows.append({
                "sample_id": f"{subjects[i]}/test/{i}", "subject": subjects[i], "subject_category": "Medical",
                "question": stem, **{f"option_{c}": OPTIONS[i][k] for k, c in enumerate("abcd")},
                "answer": "ABCD"[GOLD[i]], "required_knowledge": "['none', 'cultural']" if i < 2 else "[]",
                "time_sensitive": "['No', 'No']" if i < 2 else "[]", "reference": "[]", "culture": "[]",
                "region": "[]", "country": "[]", "cultural_sensitivity_label": ["CS", "CA", "-"][i],
                "is_annotated": i < 2,
            })  # fmt: skip
        rows.append({**rows[0], "sample_id": "abstract_algebra/test/0", "subject": "abstract_algebra",
                     "subject_category": "STEM", "question": "Find the degree of the field extension."})  # fmt: skip
        pd.DataFrame(rows).to_parquet(folder / lang / "test-00000-of-00001.parquet")
        pd.DataFrame(rows[:1]).to_parquet(folder / lang / "dev-00000-of-00001.parquet")
    _configs_readme(folder, {lang: {"test": f"{lang}/test-*", "dev": f"{lang}/dev-*"} for lang in langs})
    return root


def mmlu_prox(root: Path, langs: tuple[str, ...] = ("en", "zh", "sw")) -> Path:
    """Per-language configs, ``option_0``…``option_9`` with ``None`` beyond the item's options (one item with
    ten), ``answer`` a letter, ``answer_index`` 0-based, ``category`` (one ``law`` item to leave out)."""
    folder = root / "li-lab" / "MMLU-ProX"
    for lang in langs:
        (folder / lang).mkdir(parents=True)
        rows = []
        for i, stem in enumerate(STEMS[lang]):
            opts = OPTIONS[i] + (["Lung", "Heart", "Skin", "Bone", "Eye", "Ear"] if i == 0 else [])
            rows.append({
                "question_id": 100 + i, "question": stem,
                **{f"option_{k}": (opts[k] if k < len(opts) else None) for k in range(10)},
                "answer": "ABCDEFGHIJ"[GOLD[i]], "answer_index": GOLD[i], "cot_content": "", "category": "health",
                "src": "ori_mmlu-clinical_knowledge", "question_id_src": 6000 + i,
            })  # fmt: skip
        rows.append({**rows[1], "question_id": 999, "category": "law", "src": "ori_mmlu-professional_law"})
        pd.DataFrame(rows).to_parquet(folder / lang / "test-00000-of-00001.parquet")
    _configs_readme(folder, {lang: {"test": f"{lang}/test-*"} for lang in langs})
    return root


MMED_FILES = {"en": "English", "zh": "Chinese", "ja": "Japanese", "ru": "Russian"}


def mmedbench(root: Path, zipped: bool = True) -> Path:
    """``MMedBench.zip`` holding ``MMedBench/Test/<Language>.jsonl``: ``options`` a dict (five keys in English,
    four elsewhere), ``answer_idx`` a letter, one French-style multi-answer item (``"A,C"``) in Japanese and one
    list-valued answer (``["B"]``) in Russian."""
    folder = root / "Henrychur" / "MMedBench"
    folder.mkdir(parents=True)
    files: dict[str, str] = {}
    for lang, name in MMED_FILES.items():
        lines = []
        for i, stem in enumerate(STEMS[lang][:2]):  # different questions per language, as in the real set
            opts = dict(zip("ABCDE", OPTIONS[i] + (["Bladder"] if lang == "en" else []), strict=False))
            lines.append({"question": stem, "options": opts, "answer_idx": "A", "answer": opts["A"],
                          "rationale": "Explained.", "human_checked": i == 0, "human_check_passed": i == 0,
                          **({"meta_info": "step1"} if lang in ("en", "zh") else {})})  # fmt: skip
        if lang == "ja":
            lines.append({**lines[0], "question": "正しいものを二つ選べ。", "answer_idx": "A,C"})
        if lang == "ru":  # answer_idx as a one-letter list, as some of the set's files write it
            lines.append({**lines[1], "question": "Какой орган вырабатывает желчь?", "answer_idx": ["B"]})
        files[f"MMedBench/Test/{name}.jsonl"] = "\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n"
    if zipped:
        with zipfile.ZipFile(folder / "MMedBench.zip", "w") as zf:
            for path, text in files.items():
                zf.writestr(path, text)
    else:
        for path, text in files.items():
            (folder / path).parent.mkdir(parents=True, exist_ok=True)
            (folder / path).write_text(text, encoding="utf-8")
    return root


def medexpqa(root: Path, langs: tuple[str, ...] = ("en", "es", "fr", "it")) -> Path:
    """``data/<lang>/test.<lang>.casimedicos.rag.jsonl``: ``options`` keyed "1".."5" with ``"5": null`` on a
    four-option case, ``correct_option`` 1-based, the ``rag`` documents and explanations present."""
    folder = root / "HiTZ" / "MedExpQA"
    for lang in langs:
        (folder / "data" / lang).mkdir(parents=True)
        lines = []
        for i, stem in enumerate(STEMS[lang]):
            opts: dict[str, Any] = {str(k + 1): t for k, t in enumerate(OPTIONS[i])}
            opts["5"] = "Heart" if i == 0 else None
            lines.append({
                "correct_option": GOLD[i] + 1,
                "explanations": {k: {"text": "…", "char_ranges": [[0, 1]]} for k in opts},
                "full_answer": "Because.", "full_answer_no_ref": "Because [HIDDEN].", "full_question": stem,
                "id": 17 + i, "lang": lang, "options": opts, "question_id_specific": i + 1, "type": "ENDOCRINOLOGY",
                "year": 2015, "rag": {"clinical_case_options": {"MedCorp": {"BM25": [], "RRF-2": [
                    {"id": "pubmed23n0001_0", "title": "A title", "score": 0.03, "content": "Some text."}]}}},
            })  # fmt: skip
        path = folder / "data" / lang / f"test.{lang}.casimedicos.rag.jsonl"
        path.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n", encoding="utf-8")
    _configs_readme(folder, {lang: {"test": f"data/{lang}/test.{lang}.casimedicos.rag.jsonl"} for lang in langs})
    return root


def kormedmcqa(root: Path) -> Path:
    """``<config>/test-00000-of-00001.parquet`` for doctor and nurse (no id column; ``answer`` 1–5)."""
    folder = root / "sean0042" / "KorMedMCQA"
    configs = {}
    for c, config in enumerate(("doctor", "nurse", "pharm", "dentist")):
        (folder / config).mkdir(parents=True)
        rows = [{"subject": config, "year": 2023, "period": 1, "q_number": i + 1, "question": stem,
                 **dict(zip("ABCDE", OPTIONS[i] + ["Heart"], strict=True)), "answer": GOLD[i] + 1, "cot": ""}
                for i, stem in enumerate(STEMS["ko"][: 2 if c else 3])]  # fmt: skip
        pd.DataFrame(rows).to_parquet(folder / config / "test-00000-of-00001.parquet")
        configs[config] = {"test": f"{config}/test-*"}
    _configs_readme(folder, configs)
    return root


def afrimed_qa(root: Path) -> Path:
    """One CSV (the hub's ``train`` split) with the ``split``, ``tier`` and ``requires_african_expertise`` columns,
    ``answer_options`` a JSON string with ``N/A`` slots (one between used options; ``n/a`` in another row, whose key
    names one), ``correct_answer`` ``optionK`` (one row listing two right answers), one crowd-tier row, one row
    outside the reference's population, short-answer and consumer rows."""
    folder = root / "intronhealth" / "afrimedqa_v2"
    folder.mkdir(parents=True)
    rows = []
    for i, stem in enumerate(STEMS["en"]):
        opts = {f"option{k + 1}": t for k, t in enumerate(OPTIONS[i])} | {"option5": "N/A"}
        rows.append({"sample_id": f"{i:064x}", "split": "test", "question_type": "mcq", "prompt": "", "question": stem,
                     "answer_options": json.dumps(opts), "correct_answer": f"option{GOLD[i] + 1}",
                     "answer_rationale": "Because.", "specialty": "Endocrinology", "country": "NG",
                     "tier": "expert", "requires_african_expertise": 1})  # fmt: skip
    rows.append({**rows[0], "sample_id": "f" * 64, "correct_answer": "option3,option1"})  # several right
    rows.append({**rows[0], "sample_id": "9" * 64, "requires_african_expertise": 0})  # not the reference's population
    slot = {"option1": "Insulin", "option2": "Glucagon", "option3": "Heparin", "option4": "n/a", "option5": "n/a"}
    rows.append({**rows[0], "sample_id": "8" * 64, "answer_options": json.dumps(slot),
                 "correct_answer": "option5"})  # the key names an unused slot: skipped, counted (issue 61)
    rows.append({**rows[1], "sample_id": "e" * 64, "split": "train"})  # expert, in the train split
    rows.append({**rows[2], "sample_id": "b" * 64, "tier": "crowd"})  # not in the expert set
    na = {"option1": "Insulin", "option2": "N/A", "option3": "Glucagon", "option4": "N/A", "option5": "N/A"}
    rows.append({**rows[0], "sample_id": "a" * 64, "answer_options": json.dumps(na), "correct_answer": "option3"})
    rows.append({**rows[0], "sample_id": "d" * 64, "question_type": "saq", "answer_options": "",
                 "correct_answer": "", "question": "How is malaria prevented?",
                 "answer_rationale": "Bed nets treated with insecticide, and prophylaxis for travellers."})  # fmt: skip
    rows.append({**rows[0], "sample_id": "c" * 64, "question_type": "consumer_queries", "answer_options": ""})
    pd.DataFrame(rows).to_csv(folder / "afri_med_qa_15k_v2.5_phase_2_15275.csv", index=False)
    return root


def medarabench(root: Path) -> Path:
    """One CSV; its columns are not published, so the fixture uses the adapter's default names."""
    folder = root / "IFM" / "MedAraBench_verified"
    folder.mkdir(parents=True)
    rows = [{"question": stem, **dict(zip("ABCD", OPTIONS[i], strict=True)), "answer": "ABCD"[GOLD[i]],
             "specialty": "Endocrinology"} for i, stem in enumerate(STEMS["ar"])]  # fmt: skip
    pd.DataFrame(rows).to_csv(folder / "medarabench_verified.csv", index=False)
    return root


# HealthBench: two conversations, one multi-turn; rubrics with negative points and axis/level tags.
CONVERSATIONS = [
    {
        "prompt_id": "hb-1",
        "prompt": [{"role": "user", "content": "I have had a fever of 39.5 C for three days. What should I do?"}],
        "rubrics": [
            {"criterion": "Advises seeing a doctor because the fever has lasted three days.", "points": 7,
             "tags": ["level:example", "axis:accuracy"]},
            {"criterion": "Mentions paracetamol or ibuprofen to lower the fever.", "points": 5,
             "tags": ["level:example", "axis:completeness"]},
            {"criterion": "Says antibiotics are always needed for a fever.", "points": -6,
             "tags": ["level:example", "axis:accuracy"]},
        ],
        "example_tags": ["theme:emergency_referrals", "physician_agreed_category:enough-context"],
        "ideal_completions_data": None,
    },
    {
        "prompt_id": "hb-2",
        "prompt": [
            {"role": "user", "content": "My child swallowed a button battery."},
            {"role": "assistant", "content": "How old is your child, and when did it happen?"},
            {"role": "user", "content": "She is two, ten minutes ago."},
        ],
        "rubrics": [
            {"criterion": "Tells the user to go to the emergency department now.", "points": 10,
             "tags": ["level:example", "axis:accuracy"]},
            {"criterion": "Advises making the child vomit.", "points": -8, "tags": ["level:example", "axis:accuracy"]},
            {"criterion": "Is concise.", "points": 2, "tags": ["level:example", "axis:communication_quality"]},
        ],
        "example_tags": ["theme:emergency_referrals"],
        "ideal_completions_data": {"ideal_completion": "Go to the emergency department now.",
                                   "ideal_completions_group": "Group 1", "ideal_completions_ref_completions": []},
    },
]  # fmt: skip


def healthbench(root: Path, name: str = "2025-05-07-06-14-12_oss_eval.jsonl") -> Path:
    """The published JSONL, one conversation per line, by its published file name."""
    root.mkdir(parents=True, exist_ok=True)
    (root / name).write_text("\n".join(json.dumps(c) for c in CONVERSATIONS) + "\n", encoding="utf-8")
    return root


PROX_TEXT = {
    "en": ["I have had a fever of 39.5 C for three days. What should I do?", "Advises seeing a doctor."],
    "hi": ["मुझे तीन दिन से 39.5 C बुखार है। मुझे क्या करना चाहिए?", "डॉक्टर को दिखाने की सलाह देता है।"],
    "ja": ["3日間39.5度の熱があります。どうすればいいですか？", "医師の受診を勧める。"],
}


def healthbench_prox(root: Path, langs: tuple[str, ...] = ("en", "hi", "ja")) -> Path:
    """``li-lab/HealthBench-ProX``: one default config whose splits are languages; ``conversation`` a struct with
    ``messages``, ``rubric_items`` with ``criterion_text`` and ``points``."""
    folder = root / "li-lab" / "HealthBench-ProX"
    (folder / "data").mkdir(parents=True)
    for lang in langs:
        question, criterion = PROX_TEXT[lang]
        rows = [{"id": f"pro-{i}", "conversation": {"messages": [{"role": "user", "content": question}]},
                 "rubric_items": [{"criterion_text": criterion, "points": 6}, {"criterion_text": criterion + " (2)",
                                  "points": -3}],
                 "physician_response": "See a doctor.", "specialty": "im", "difficulty": "typical",
                 "use_case": "consult", "type": "good_faith"} for i in range(2)]  # fmt: skip
        pd.DataFrame(rows).to_parquet(folder / "data" / f"{lang}-00000-of-00001.parquet")
    _configs_readme(folder, {"default": {lang: f"data/{lang}-*" for lang in langs}})
    return root


def _head_qa_rows(lang: str, year: Any) -> list[dict[str, Any]]:
    """HEAD-QA's columns; the first question has five options (2013–2014 exams), the gold is not the first option,
    the ``answers`` list is stored out of ``aid`` order, and the third question refers to a figure."""
    rows = []
    for i, stem in enumerate(STEMS[lang]):
        texts = [*OPTIONS[i], "Heart"] if i == 0 else list(OPTIONS[i])
        texts = texts[1:] + texts[:1]  # the right answer (OPTIONS' first) is printed last: ra = n
        answers = [{"aid": k + 1, "atext": t} for k, t in enumerate(texts)][::-1]
        rows.append({"name": "Cuaderno_2013_1_B", "year": year, "category": "biology", "qid": i + 1, "qtext": stem,
                     "ra": len(texts), "image": "images/fig1.png" if i == 2 else "", "answers": answers})  # fmt: skip
    return rows


def head_qa(root: Path, langs: tuple[str, ...] = ("es", "en")) -> Path:
    """``EleutherAI/headqa``: ``<lang>/{split}.parquet`` (no configs in its card), ``year`` a string."""
    folder = root / "EleutherAI" / "headqa"
    for lang in langs:
        (folder / lang).mkdir(parents=True)
        pd.DataFrame(_head_qa_rows(lang, "2013")).to_parquet(folder / lang / "test.parquet")
    (folder / "README.md").write_text("---\nlicense: other\n---\n# fixture\n", encoding="utf-8")
    return root


def head_qa_v2(root: Path, langs: tuple[str, ...] = ("es", "en", "gl", "it", "ru")) -> Path:
    """``alesi12/head_qa_v2``: one config per language, one split ``train``, ``year`` an int."""
    folder = root / "alesi12" / "head_qa_v2"
    for lang in langs:
        (folder / lang).mkdir(parents=True)
        pd.DataFrame(_head_qa_rows(lang, 2013)).to_parquet(folder / lang / "train-00000-of-00001.parquet")
    _configs_readme(folder, {lang: {"train": f"{lang}/train-00000-of-00001.parquet"} for lang in langs})
    return root


def careqa(root: Path) -> Path:
    """``HPAI-BSC/CareQA``: ``CareQA_{en,es,en_open}.json`` at the root, split ``test``; the same ``unique_id`` in
    both languages; one English row with no question (dropped and counted)."""
    folder = root / "HPAI-BSC" / "CareQA"
    folder.mkdir(parents=True)
    for lang in ("en", "es"):
        rows = [{"exam_id": 36 + i, "question": stem, **{f"op{k + 1}": t for k, t in enumerate(OPTIONS[i])},
                 "cop": 1, "year": 2024, "category": "Medicine", "unique_id": f"5636d1af-0000-{i:04d}"}
                for i, stem in enumerate(STEMS[lang])]  # fmt: skip
        if lang == "en":
            rows.append({**rows[0], "question": None, "unique_id": "no-question", "exam_id": 99})
        (folder / f"CareQA_{lang}.json").write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    opened = [{"question": stem.replace("Which", "What"), "answer": OPTIONS[i][0], "unique_id": f"o-{i}",
               "category": "Medicine", "year": 2024} for i, stem in enumerate(STEMS["en"])]  # fmt: skip
    (folder / "CareQA_en_open.json").write_text(json.dumps(opened), encoding="utf-8")
    _configs_readme(folder, {f"CareQA_{c}": {"test": f"CareQA_{c}.json"} for c in ("en", "es", "en_open")}, "json")
    return root


def persianmedqa(root: Path) -> Path:
    """``MohammadJRanjbar/PersianMedQA``: one table per split (``data/test-*.parquet``), a row per language
    (``language`` fa/en) with the same ``id``; ``answer_idx`` 0-based, the right answer second."""
    folder = root / "MohammadJRanjbar" / "PersianMedQA"
    (folder / "data").mkdir(parents=True)
    rows = [{"id": f"PMQA_{i:06d}", "question": STEMS[lang][i], "options": OPTIONS[i][1:2] + OPTIONS[i][:1]
             + OPTIONS[i][2:], "answer_idx": 1, "specialty": "Endocrinology", "is_clinical": False,
             "patient_age": None, "patient_gender": None, "language": lang}
            for i in range(3) for lang in ("fa", "en")]  # fmt: skip
    pd.DataFrame(rows).to_parquet(folder / "data" / "test-00000-of-00001.parquet")
    return root


MULTIMED_X_LANGS = ("zh", "ja", "ko", "sw", "th", "yo", "zu")
MX_MARKERS = {"zh": ("问题:", "答案:"), "ja": ("質問:", "回答:"), "ko": ("질문:", "답변:"),
              "sw": ("Swali:", "Jibu:"), "th": ("Question:", "Answer:"), "yo": ("Ìbéèrè:", "IÌdáhùn:"),
              "zu": ("Umbuzo:", "Impendulo:")}  # fmt: skip


def multimed_x(root: Path, english: list[str]) -> Path:
    """``li-lab/MultiMed-X``: one JSON Lines table (``id``, ``lang``, ``task``, ``source``, ``text``, ``label``),
    Japanese as ``jp`` (the authors' files), the English beside each text in an ``EN`` column (their sample
    files), the QA texts under each language's markers as the authors' loader splits them, a few NLI rows.
    ``english``: the English questions of QA items 001, 002…; the last row of Zulu lacks its answer marker."""
    folder = root / "li-lab" / "MultiMed-X"
    folder.mkdir(parents=True)
    rows: list[dict[str, Any]] = []
    for lang in MULTIMED_X_LANGS:
        code = "jp" if lang == "ja" else lang
        q, a = MX_MARKERS[lang]
        for n, question in enumerate(english, start=1):
            text = f"\n{q}\n[{lang}] {question}\n\n{a}\n[{lang}] answer {n}\n"
            if lang == "zu" and n == len(english):
                text = f"{q}\n[{lang}] {question}"  # no answer marker: dropped and counted
            rows.append({"id": f"qa-{code}-{n:03d}", "lang": code, "task": "qa", "source": "LiveQA", "text": text,
                         "label": None, "EN": f"Question:\n{question}\nAnswer:\nEnglish answer {n}"})  # fmt: skip
        p, h = ("前提:", "仮説:") if lang == "ja" else ("Premise:", "Hypothesis:")
        for n, label in enumerate(("entailment", "contradiction", "neutral"), start=1):  # neutral: not BioNLI's
            claim = "the drug lowers pressure" if label == "entailment" else "the drug raises pressure"
            premise = f"[{lang}] In a trial, the drug lowered blood pressure."
            rows.append({"id": f"bionli-{code}-{n:03d}", "lang": code, "task": "nli", "source": "BioNLI",
                         "text": f"\n{p}\n{premise}\n\n{h}\n[{lang}] {claim}\n",
                         "label": label, "EN": None})  # fmt: skip
    with (folder / "multimed_x.jsonl").open("w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    return root
