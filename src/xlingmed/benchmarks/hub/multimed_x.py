"""``multimed-x``: MultiMed-X (arXiv 2601.08267, Med-CoReasoner), LiveQA consumer questions and BioNLI pairs
translated into Chinese, Japanese, Korean, Swahili, Thai, Yoruba and Zulu and reviewed and revised by bilingual
medical experts: 350 items per language (200 QA, 150 NLI).

Hub: ``li-lab/MultiMed-X``, CC BY 4.0, one unified table: ``id`` (``qa-<lang>-NNN``, ``bionli-<lang>-NNN``, three
digits), ``lang``, ``task`` (``qa`` or ``nli``), ``source`` (``LiveQA`` or ``BioNLI``), ``text``, ``label`` (NLI
only). A QA ``text`` holds the question and its reference answer under the language's markers, as the authors'
loader splits them (astridesa/Med-CoReasoner ``codes/load_datasets.py``: ``Question:``/``Answer:``, ``问题:``/
``答案:``, ``質問:``/``回答:``, ``질문:``/``답변:``, ``Swali:``/``Jibu:``, ``Ìbéèrè:``/``Ìdáhùn:``, ``Umbuzo:``/
``Impendulo:``; Thai uses the English ones). Japanese is ``ja`` (the authors' files say ``jp``: read as ``ja``).
English is read from ``lang == "en"`` rows, or from an ``en`` / ``EN`` column beside the text where a copy has
one (the authors' sample files): it is what ``multimed-x/liveqa`` joins XLingHealth's LiveQA on. The translations
are recorded ``post-edited``: reviewed and revised by physicians (the card does not say who made the first pass).

A question is ``qa-NNN`` in every language (the number pairs them). A text without the answer marker is dropped
and counted (``dataset.skipped``: ``no_answer_marker``), never guessed. Verifiability's negatives are other
questions' answers in the same language, as for a user's file (``rows.items_from_frame``). The NLI half is
``multimed-x/nli`` (``multimed_x_nli.py``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from xlingmed.benchmarks.base import LoadRequest, register_benchmark
from xlingmed.benchmarks.hub.base import HubBenchmark, load_frame
from xlingmed.benchmarks.hub.multimed_x_files import authors_folder, authors_table
from xlingmed.errors import DataError

LANGUAGES = ("en", "zh", "ja", "ko", "sw", "th", "yo", "zu")
MARKERS = {
    "en": ("Question", "Answer"), "zh": ("问题", "答案"), "ja": ("質問", "回答"), "ko": ("질문", "답변"),
    "sw": ("Swali", "Jibu"), "yo": ("Ìbéèrè", "Ìdáhùn"), "zu": ("Umbuzo", "Impendulo"), "th": ("Question", "Answer"),
}  # fmt: skip
ALIASES = {"jp": "ja"}
_ID = re.compile(r"^(qa|bionli)-([a-z]{2,3})-(\d{3})$")


def _marker(word: str) -> re.Pattern[str]:
    # "Answer:" at a line's start, ASCII or full-width colon; the authors' Yoruba answer marker is "IÌdáhùn:"
    extra = "I?" if word == "Ìdáhùn" else ""
    return re.compile(rf"(?m)^\s*{extra}{re.escape(word)}\s*[:：]\s*")


def split_qa(text: str, lang: str) -> tuple[str, str] | None:
    """(question, reference answer) of a MultiMed-X QA text in ``lang`` (its markers, else the English ones);
    ``None`` when there is no answer marker."""
    for q_word, a_word in dict.fromkeys((MARKERS.get(lang, MARKERS["en"]), MARKERS["en"])):
        found = list(_marker(a_word).finditer(text))
        if not found:
            continue
        head, answer = text[: found[0].start()], text[found[0].end() :]
        question = _marker(q_word).sub("", head, count=1)
        if question.strip() and answer.strip():
            return question.strip(), answer.strip()
    return None


def number_of(raw_id: str, row: int) -> str:
    """``qa-042`` of ``qa-zu-042``.

    Raises:
        DataError: an id that is not ``<task>-<lang>-NNN`` (named with its row and column).
    """
    m = _ID.match(str(raw_id).strip())
    if not m:
        raise DataError(f"id {raw_id!r} is not <task>-<lang>-NNN (qa-zu-042)", row=row, column="id")
    return f"{m.group(1)}-{m.group(3)}"


def english_from_column(rows: pd.DataFrame) -> pd.DataFrame | None:
    """English rows made from the ``en``/``EN`` column beside each text (the authors' sample files), the first of
    each question number; ``None`` where there is no such column."""
    column = next((c for c in ("en", "EN") if c in rows.columns), None)
    if column is None:
        return None
    english = rows[rows[column].notna()].assign(text=lambda d: d[column], lang="en")
    number = english["id"].astype(str).str.rsplit("-", n=1).str[-1]
    return english[~number.duplicated()]


def frame(source: str | Path, split: str, name: str) -> pd.DataFrame:
    """The hub's table from ``source``: the authors' spreadsheets turned into it, or the hub layout's files."""
    if isinstance(source, Path) and ((source / "liveqa").is_dir() or (source / "bionli").is_dir()):
        return authors_table(source)
    return load_frame(source, None, split, name)


class MultiMedX(HubBenchmark):
    def source(self, request: LoadRequest) -> str | Path:
        """The authors' sample spreadsheets where ``--data-dir`` holds them (``multimed_x_files``), else the hub's
        table (``HubBenchmark``)."""
        return authors_folder(request) or super().source(request)

    def read(self, source: str | Path, lang: str, request: LoadRequest) -> pd.DataFrame:
        df = frame(source, self.split_of(request), self.name)
        df = df.assign(row=range(2, len(df) + 2), lang=df["lang"].astype(str).str.lower().replace(ALIASES))
        qa = df[df["task"].astype(str).str.lower() == "qa"]
        if lang != "en" or (qa["lang"] == "en").any():
            return qa[qa["lang"] == lang]
        english = english_from_column(qa)
        if english is None:
            raise DataError("this copy has no English rows (lang en) and no en column: MultiMed-X's English is not "
                            "in it", column="lang")  # fmt: skip
        return english

    def prepare(self, df: pd.DataFrame, lang: str, request: LoadRequest) -> pd.DataFrame:
        rows, dropped = [], 0
        for row, raw_id, text in zip(df["row"], df["id"], df["text"], strict=True):
            number = number_of(raw_id, int(row))
            parts = split_qa(str(text), lang) if isinstance(text, str) else None
            if parts is None:
                dropped += 1
                continue
            rows.append({"item_id": number, "question": parts[0], "reference": parts[1], "category": "LiveQA"})
        out = pd.DataFrame(rows, columns=["item_id", "question", "reference", "category"])
        out.attrs["skipped"] = {"no_answer_marker": dropped} if dropped else {}
        return out


# what the loader was run on (issue 61; ``benchmarks.verified``)
VERIFIED_MULTIMED_X = (
    "astridesa/Med-CoReasoner @324dd0d99724, the authors' sample spreadsheets read as published "
    "(MultiMed-X/liveqa/liveqa_jp_200.xlsx): ja 200, en 200 from its EN column, paired; other languages unverified"
)

SPEC = register_benchmark(
    MultiMedX(
        "multimed-x", LANGUAGES, ("question", "reference", "negatives"), default_tasks=("correctness",),
        run_languages=("zh", "ja", "ko", "sw", "th", "yo", "zu"), licence="CC BY 4.0",
        description="MultiMed-X: LiveQA questions in zh, ja, ko, sw, th, yo, zu, reviewed by bilingual physicians",
        kind="qa", dataset="li-lab/MultiMed-X", split="train", shared_id="the number of qa-<lang>-NNN",
        translation=(("en", "original"), *((lg, "post-edited") for lg in LANGUAGES[1:])),
        home="https://huggingface.co/datasets/li-lab/MultiMed-X",
        verified=VERIFIED_MULTIMED_X,
    )
)  # fmt: skip
