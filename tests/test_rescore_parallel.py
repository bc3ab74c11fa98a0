"""``xlingmed import --rescore`` reads on every core (``parsing.batch``) and in the labels the source's prompt showed.

Worker processes must give the very readings one process gives, in the same order; a log whose prompts numbered
the options ("1. …", "① …") is read with those labels, so "La respuesta correcta es la 3" is option C and "B형"
is never option B. The pool is started once here, on two workers, over 6,000 replies (a few seconds: the
forkserver and its two workers start and import the parser).
"""

from __future__ import annotations

import random

from xlingmed.importers.base import ImportedAnswer, ImportedLog
from xlingmed.importers.run_folder import context_of
from xlingmed.parsing.batch import SERIAL_BELOW, ChoiceReply, read_choices
from xlingmed.parsing.choice import extract_choice
from xlingmed.tasks.multiple_choice.imported import imported_rows, labels_shown

OPTIONS = {"A": "Paracetamol", "B": "Insulin", "C": "Warfarin", "D": "Heparin"}
SHAPES = [
    "The answer is {x}.",
    "After weighing every option:\n\nA. unlikely\nB. unlikely\n\nTherefore, {x}.",
    "La respuesta correcta es la {x}.",
    "答案是{x}。",
    "I cannot tell without the image.",
    "**{x}. {t}**",
    "It is not {x}; I would choose {y}.",
    "{t} is the drug of choice.\n\nReferences:\n1. Smith A. {t}. N Engl J Med. 2020.",
]


def _replies(n: int) -> list[ChoiceReply]:
    rng = random.Random(46)
    out = []
    for _ in range(n):
        x, y = rng.sample(list(OPTIONS), 2)
        text = rng.choice(SHAPES).format(x=x, y=y, t=OPTIONS[x])
        out.append(ChoiceReply(text, tuple(OPTIONS), OPTIONS))
    return out


def test_workers_give_the_readings_one_process_gives_in_order() -> None:
    replies = _replies(SERIAL_BELOW + 2_000)
    parallel = read_choices(replies, workers=2)
    serial = read_choices(replies, workers=1)
    assert parallel == serial and len(parallel) == len(replies)
    assert serial[:50] == [extract_choice(r.text, r.valid, options=r.options) for r in replies[:50]]
    methods = {p.method for p in serial}
    assert {"phrase", "refused", "conclusion"} <= methods  # the mix is real: several rules read it


def test_the_labels_a_prompt_showed_are_found_in_it() -> None:
    options = {"A": "Reposo absoluto", "B": "Heparina de bajo peso molecular", "C": "Filtro de vena cava"}
    numbered = "¿Conducta inicial?\n1. Reposo absoluto\n2.  Heparina de bajo peso molecular\n3) Filtro de vena cava"
    assert labels_shown(numbered, options) == ("1", "2", "3")
    circled = "질문\n① Reposo absoluto\n② Heparina de bajo peso molecular\n③ Filtro de vena cava"
    assert labels_shown(circled, options) == ("①", "②", "③")
    lettered = "Q\nA. Reposo absoluto\nB. Heparina de bajo peso molecular\nC. Filtro de vena cava"
    assert labels_shown(lettered, options) is None and labels_shown(None, options) is None
    assert labels_shown("1. Reposo absoluto\n2. something else", options) is None  # not every option is there


def test_rescore_reads_an_imported_log_in_the_labels_its_prompt_showed() -> None:
    options = {"A": "혈당 검사", "B": "소변 검사", "C": "간기능 검사", "D": "흉부 방사선 검사", "E": "심전도"}
    prompt = "만성 B형 간염 환자의 추적 관찰에 필요한 검사는?\n" + "\n".join(
        f"{c} {t}" for c, t in zip("①②③④⑤", options.values(), strict=True)
    )
    replies = ["정답은 ③번입니다.", "B형 간염이므로 간기능 검사가 필요합니다. 답: ③", "B형 간염 환자입니다."]
    answers = [
        ImportedAnswer(
            "kmle", f"q{k}", "ko", 0.0, "C", None, "source_unread", reply=r, prompt=prompt, options=options,
            where=f"log.jsonl:{k + 1}",
        )
        for k, r in enumerate(replies)
    ]
    log = ImportedLog("lm-evaluation-harness", "0.4", "hf/m", "acc", answers, ["kmle"], [])
    rows = imported_rows(log.answers, context_of(log, rescore=True))
    assert [(r["prediction"], r["correct"]) for r in rows] == [("C", True), ("C", True), (None, False)]
    assert [r["source_prediction"] for r in rows] == [None, None, None]  # the source's reading is kept beside
