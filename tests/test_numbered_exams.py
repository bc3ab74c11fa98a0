"""Exams that number their options, through the real CLI: a user's ``mcq:`` file with Spanish questions numbered 1–4
(as Spain's MIR prints them) and Korean ones circled ①–⑤ (as Korea's KMLE does), answered by a local scripted server
in the shapes real models write (issue 46): the number after an answer phrase, the number and the option's text, the
circled number alone or after "답:", the option's content followed by references, a hedged conclusion with the
option on the next line, a "which is NOT" answer, and replies that commit to none (a hedge between two, a list, a
letter that is only a blood group, "B형" hepatitis, a refusal). The prompt shows the labels the file printed; each
reply is read as it states, or left unread; and the extractor's label stands only with a quote of the reply.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from fault_server import FaultServer, Reply, ok
from typer.testing import CliRunner

from xlingmed.cli import app
from xlingmed.parsing.methods import kind_of

ES_OPTIONS = {
    "1": "Reposo absoluto en cama durante dos semanas",
    "2": "Iniciar anticoagulación con heparina de bajo peso molecular",
    "3": "Colocar un filtro de vena cava inferior",
    "4": "Administrar ácido acetilsalicílico a dosis bajas",
}
ES_STEM = "Paciente de 54 años con trombosis venosa profunda proximal confirmada. ¿Cuál es la conducta inicial?"
ES_NOT = "¿Cuál de los siguientes NO es un factor de riesgo de trombosis venosa profunda?"
ES_NOT_OPTIONS = {"1": "Cirugía ortopédica reciente", "2": "Cáncer activo", "3": "Embarazo", "4": "Ejercicio regular"}
KO_OPTIONS = {"①": "혈당 검사", "②": "소변 검사", "③": "간기능 검사", "④": "흉부 방사선 검사", "⑤": "심전도"}
KO_STEM = "만성 B형 간염 환자의 정기 추적 관찰에 가장 필요한 검사는?"

DISCUSS_ES = "".join(
    f"{k}. {text}: " + "esta opción se valora según la estabilidad del paciente y el riesgo de sangrado. " * 3 + "\n"
    for k, text in ES_OPTIONS.items()
)
REFERENCES = (
    "\n\nReferencias:\n1. Kearon C, et al. Antithrombotic Therapy for VTE Disease. Chest. 2016;149(2):315-352.\n"
    "4. Ortel TL, et al. American Society of Hematology 2020 guidelines. Blood Adv. 2020. doi:10.1182/A.2020"
)
DISCUSS_KO = "\n".join(f"{k} {text}: 환자의 상태에 따라 고려할 수 있는 검사입니다." for k, text in KO_OPTIONS.items())

# (language, stem, options, gold as printed, reply, the rules' reading (canonical letter) or None, their method)
CASES = [
    ("es", ES_STEM, ES_OPTIONS, "2", "La respuesta correcta es la número 2.", "B", "phrase"),
    ("es", ES_STEM, ES_OPTIONS, "2",
     "Respuesta: 2. Iniciar anticoagulación con heparina de bajo peso molecular\n\nEs el tratamiento de elección.",
     "B", "phrase"),
    ("es", ES_STEM, ES_OPTIONS, "2",
     "La conducta más adecuada es **iniciar anticoagulación con heparina de bajo peso molecular**, salvo "
     "contraindicación. El filtro de vena cava se reserva para quien no puede anticoagularse." + REFERENCES,
     "B", "conclusion"),
    ("es", ES_STEM, ES_OPTIONS, "2",
     DISCUSS_ES + "\nPor lo tanto, la opción más probable es:\n\n2. **Iniciar anticoagulación con heparina**", "B",
     "answer_line"),  # the option set apart under the colon line, its text copied short (issue 59, round 8)
    ("es", ES_NOT, ES_NOT_OPTIONS, "4",
     "La respuesta es la 4: el ejercicio regular no es un factor de riesgo, sino protector.", "D", "phrase"),
    ("es", ES_STEM, ES_OPTIONS, "2", "No estoy seguro; quizá la 1, o la 3.", None, "invalid"),
    ("es", ES_STEM, ES_OPTIONS, "2",
     "Las opciones correctas son:\n1) Reposo absoluto en cama\n3) Colocar un filtro de vena cava", None, "ambiguous"),
    ("es", ES_STEM, ES_OPTIONS, "2", "El grupo sanguíneo A no cambia la conducta; consulte a su médico.", None,
     "invalid"),
    ("es", ES_STEM, ES_OPTIONS, "2", DISCUSS_ES, None, "invalid"),  # to the extractor, whose quote is invented
    ("ko", KO_STEM, KO_OPTIONS, "③", "답: ③ 간기능 검사", "C", "phrase"),
    ("ko", KO_STEM, KO_OPTIONS, "③", "③ 간기능 검사\n\nB형 간염 환자는 간 기능을 확인해야 합니다.", "C", "answer_line"),
    ("ko", KO_STEM, KO_OPTIONS, "③", DISCUSS_KO + "\n\n따라서 정답은 ③입니다.", "C", "phrase"),
    ("ko", KO_STEM, KO_OPTIONS, "③", "정답을 고를 수 없습니다. ①과 ③ 모두 가능성이 있습니다.", None, "refused"),
    ("ko", KO_STEM, KO_OPTIONS, "③", "정답: ④ ⑤", None, "ambiguous"),
    ("ko", KO_STEM, KO_OPTIONS, "③", DISCUSS_KO, None, "invalid"),  # to the extractor, which quotes the reply
]


def _stem(k: int, stem: str) -> str:
    return f"[{k:02d}] {stem}"


def _write(path: Path) -> Path:
    rows = [
        {"id": f"q{k:02d}", "language": lang, "question": _stem(k, stem),
         "options": json.dumps(opts, ensure_ascii=False), "answer": gold}
        for k, (lang, stem, opts, gold, *_rest) in enumerate(CASES)
    ]  # fmt: skip
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


class Script:
    """The model under test gives each item's scripted reply; the extractor (model ``ext``) reads the replies the rules
    leave unread: "none" for those that commit to none; for the discussions that conclude nothing, the gold option,
    quoting the Korean reply's own line and, in Spanish, a sentence the reply never wrote."""

    with_payload = True

    def __init__(self) -> None:
        self.prompts: list[str] = []

    def __call__(self, prompt: str, attempt: int, payload: dict[str, object]) -> Reply:
        k = next(k for k in range(len(CASES) - 1, -1, -1) if f"[{k:02d}]" in prompt)
        lang, _, _, gold, reply, *_ = CASES[k]
        if payload.get("model") != "ext":
            self.prompts.append(prompt)
            return ok(reply)
        if reply not in (DISCUSS_ES, DISCUSS_KO):
            return ok("Answer: none\nQuote:")
        if lang == "ko":
            return ok(f"Answer: {gold}\nQuote: {next(x for x in reply.splitlines() if x.startswith(gold))}")
        return ok(f"Answer: {gold}\nQuote: La respuesta correcta es la número {gold}.")


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Script, pd.DataFrame, list[dict]]:
    folder = tmp_path_factory.mktemp("numbered")
    bench = f"mcq:{_write(folder / 'exam.csv')}"
    script = Script()
    with FaultServer(script) as server:
        res = CliRunner().invoke(app, [
            "run", "--benchmark", bench, "--languages", "es,ko", "--model", "openai/m", "--base-url", server.url,
            "--extractor", "openai/ext", "--out", str(folder / "run"), "--no-report",
            "--cache", str(folder / "cache.sqlite")], env={"COLUMNS": "250"})  # fmt: skip
    assert res.exit_code == 0, res.output
    rows = pd.read_csv(folder / "run" / "multiple_choice.csv", keep_default_na=False)
    logged = [json.loads(line) for line in (folder / "run" / "samples.jsonl").read_text("utf-8").split("\n") if line]
    return script, rows.sort_values("item_id").reset_index(drop=True), logged


def test_the_prompt_shows_the_labels_the_exam_printed(run: tuple[Script, pd.DataFrame, list[dict]]) -> None:
    script, _, _ = run
    es = next(p for p in script.prompts if "[00]" in p)
    ko = next(p for p in script.prompts if "[09]" in p)
    assert "2. Iniciar anticoagulación con heparina de bajo peso molecular" in es and "B." not in es
    assert "③ 간기능 검사" in ko and "C." not in ko


def test_every_reply_is_read_as_it_states_or_left_unread(run: tuple[Script, pd.DataFrame, list[dict]]) -> None:
    _, rows, logged = run
    rules = {r["item_id"]: (r["parsed"], r["parse_method"]) for r in logged if r["stage"] == "answer"}
    assert len(rows) == len(CASES) == len(rules)
    for k, (lang, _, _, _, reply, expected, method) in enumerate(CASES):
        assert rules[f"q{k:02d}"] == (expected, method), (lang, reply[-80:])
        assert kind_of(method) == ("read" if expected else "refused" if method == "refused" else "unread")
    assert rows["gold"].tolist() == ["B"] * 4 + ["D"] + ["B"] * 4 + ["C"] * 6  # "2" and "③" as printed


def test_the_extractor_stands_only_with_a_quote_of_the_reply(run: tuple[Script, pd.DataFrame, list[dict]]) -> None:
    _, rows, _ = run
    sent = rows[rows["extractor_method"] != ""]
    said = dict(zip(sent["item_id"], sent["extractor_method"], strict=True))
    # every reply the rules left unread went to it (not q12, which refuses to choose); it says "none" of those that
    # commit to none; its Spanish quote
    # is nowhere in the reply (unverified, unread), its Korean one is the reply's own ③ line (read, a fallback)
    assert said == {"q05": "extractor_none", "q06": "extractor_none", "q07": "extractor_none",
                    "q08": "extractor_unverified", "q13": "extractor_none",
                    "q14": "extractor"}  # fmt: skip
    final = dict(zip(rows["item_id"], rows["prediction"], strict=True))
    assert (final["q08"], final["q14"]) == ("", "C")
    assert kind_of("extractor_unverified") == "unread" and kind_of("extractor") == "fallback"
