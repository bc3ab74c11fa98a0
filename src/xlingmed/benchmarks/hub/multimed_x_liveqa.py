"""``multimed-x/liveqa``: MultiMed-X's QA half joined to XLingHealth's LiveQA, so that one run asks the same
question in English, Spanish, Chinese and Hindi (XLingHealth, machine translated) and in Japanese, Korean,
Swahili, Thai, Yoruba and Zulu (MultiMed-X, reviewed by physicians): one item id across ten languages, paired.

The join is checked by text, never assumed: a MultiMed-X question joins a LiveQA question where their English
texts are the same after Unicode (NFKC) folding, HTML entities, case folding and whitespace collapsing
(``exact``), else where rapidfuzz's ratio is at least ``NEAR`` (``near``: typography, a trailing space or quote),
else where one is the other edited (``edited``: a subject line put before the question, names and places masked as
"[NAME]", "[LOCATION]"; rapidfuzz's token-set ratio at least ``NEAR`` on texts of nearly one length, as the
authors' files show). Each LiveQA question takes at most one MultiMed-X question (further ones are counted as
``duplicates``). ``dataset.join`` reports the counts and the coverage; only joined questions are asked, in every
language. Chinese is taken from MultiMed-X (physician-reviewed) unless ``-B chinese=machine`` (XLingHealth's).
English reference answers are XLingHealth's (MultiMed-X's English answer is kept in the item's meta); every other
language's is its own set's.

Data: ``--data-dir`` (or ``-B xlinghealth_dir``) holds ``LiveQA.xlsx``; ``--data-dir`` holds
``li-lab/MultiMed-X`` in the hub's layout (else the hub is read).
"""

from __future__ import annotations

import dataclasses
import html
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from xlingmed.benchmarks.base import Benchmark, BenchmarkOptions, LoadRequest, register_benchmark
from xlingmed.benchmarks.hub.base import translation_counts
from xlingmed.benchmarks.hub.multimed_x import SPEC as MULTIMED_X
from xlingmed.benchmarks.xlinghealth import load_items
from xlingmed.errors import DataError
from xlingmed.types import Item

NEAR = 95.0
EDITED_LENGTH = 0.85  # an edited copy keeps most of the text: a short question is never a long one's "subset"
XLINGHEALTH = ("en", "es", "zh", "hi")
LANGUAGES = ("en", "es", "zh", "hi", "ja", "ko", "sw", "th", "yo", "zu")


class JoinOptions(BenchmarkOptions):
    """``-B chinese``: ``reviewed`` (default: MultiMed-X's, physician-reviewed) or ``machine`` (XLingHealth's);
    ``-B xlinghealth_dir``: the folder of ``LiveQA.xlsx`` when it is not ``--data-dir``; ``-B include_defective``
    as ``xlinghealth/liveqa``."""

    chinese: Literal["reviewed", "machine"] = "reviewed"
    xlinghealth_dir: str | None = None
    include_defective: bool = False


def fold(text: str) -> str:
    """What two copies of one English question share: NFKC, case folded, whitespace collapsed, ends stripped."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", html.unescape(text)).casefold()).strip(" \"'“”")


def join_by_text(multimed: dict[str, str], liveqa: dict[str, str]) -> tuple[dict[str, tuple[str, str]], dict[str, Any]]:
    """MultiMed-X number → (LiveQA item id, ``exact`` | ``near``), from each side's English question, and the
    counts (``multimed_x_questions``, ``liveqa_questions``, ``exact``, ``near``, ``duplicates``, ``unmatched``,
    ``coverage``: joined / MultiMed-X questions)."""
    from rapidfuzz import fuzz, process

    by_text = {fold(q): i for i, q in sorted(liveqa.items())}
    taken: set[str] = set()
    out: dict[str, tuple[str, str]] = {}
    duplicates = 0
    pending = []
    for number, question in sorted(multimed.items()):
        hit = by_text.get(fold(question))
        if hit is None:
            pending.append((number, question))
        elif hit in taken:
            duplicates += 1
        else:
            taken.add(hit)
            out[number] = (hit, "exact")
    choices = {i: fold(q) for i, q in liveqa.items()}
    unmatched = 0
    for number, question in pending:
        best = process.extractOne(fold(question), choices, scorer=fuzz.ratio, score_cutoff=NEAR)
        how = "near"
        if best is None:
            best, how = _edited(fold(question), choices), "edited"
        if best is None:
            unmatched += 1
        elif best[2] in taken:
            duplicates += 1
        else:
            taken.add(best[2])
            out[number] = (best[2], how)
    methods = [m for _, m in out.values()]
    counts = {"multimed_x_questions": len(multimed), "liveqa_questions": len(liveqa), "exact": methods.count("exact"),
              "near": methods.count("near"), "edited": methods.count("edited"), "duplicates": duplicates,
              "unmatched": unmatched,
              "coverage": round(len(out) / len(multimed), 4) if multimed else 0.0}  # fmt: skip
    return out, counts


def _edited(question: str, choices: dict[str, str]) -> tuple[str, float, str] | None:
    """The LiveQA question ``question`` is an edited copy of: token-set ratio ≥ ``NEAR`` (the words of one are
    the other's, a subject line or masked names aside) on texts of nearly one length; ``None`` where none is, or
    two are."""
    from rapidfuzz import fuzz, process

    masked = re.sub(r"\[[a-z ]{2,20}\]", " ", question)
    found = [(text, score, key) for text, score, key in
             process.extract(masked, choices, scorer=fuzz.token_set_ratio, score_cutoff=NEAR, limit=3)
             if min(len(text), len(question)) >= EDITED_LENGTH * max(len(text), len(question))]  # fmt: skip
    return found[0] if len(found) == 1 else None


@dataclass(frozen=True)
class MultiMedXLiveQA(Benchmark):
    """The joined set; ``translation`` as ``xlingmed list benchmarks`` shows it (Chinese: the default source)."""

    Options: ClassVar[type[BenchmarkOptions]] = JoinOptions
    shared_id: str = "LiveQA's id, joined by English text"
    translation: tuple[tuple[str, str], ...] = (
        ("en", "original"), ("es", "machine"), ("hi", "machine"),
        *((lg, "post-edited") for lg in ("zh", "ja", "ko", "sw", "th", "yo", "zu")),
    )  # fmt: skip

    def load(self, request: LoadRequest) -> tuple[list[Item], dict[str, Any]]:
        chinese = request.options.get("chinese") or "reviewed"
        from_x = [lg for lg in request.languages if lg in XLINGHEALTH and not (lg == "zh" and chinese == "reviewed")]
        from_m = [lg for lg in request.languages if lg not in from_x]
        where = request.options.get("xlinghealth_dir") or request.data_dir
        x_items, x_prov = load_items("liveqa", where, ("en", *(lg for lg in from_x if lg != "en")),
                                     include_defective=bool(request.options.get("include_defective")))  # fmt: skip
        m_request = LoadRequest(request.data_dir, ("en", *(lg for lg in from_m if lg != "en")), None, request.seed, {})
        m_items, m_prov = MULTIMED_X.load(m_request)
        joined, counts = join_by_text({it.item_id: it.question for it in m_items if it.lang == "en"},
                                      {it.item_id: it.question for it in x_items if it.lang == "en"})  # fmt: skip
        if not joined:
            raise DataError(f"no MultiMed-X question is a LiveQA question by its English text ({counts})")
        ids = sorted({i for i, _ in joined.values()})
        if request.limit is not None:
            ids = ids[: request.limit]
        keep = set(ids)
        english_m = {it.item_id: it for it in m_items if it.lang == "en"}
        items = []
        for it in x_items:
            if it.item_id in keep and it.lang in from_x:
                items.append(dataclasses.replace(it, meta={**it.meta, "translation": "original" if it.lang == "en"
                                                           else "machine"}))  # fmt: skip
        for it in m_items:
            target = joined.get(it.item_id)
            if target is None or target[0] not in keep or it.lang not in from_m:
                continue
            meta = {**it.meta, "multimed_x_id": it.item_id, "join": target[1],
                    "multimed_x_english_answer": english_m[it.item_id].reference}  # fmt: skip
            items.append(dataclasses.replace(it, item_id=target[0], benchmark=self.name, meta=meta))
        order = {lg: k for k, lg in enumerate(request.languages)}
        items.sort(key=lambda it: (it.item_id, order[it.lang]))
        return items, {"join": counts, "chinese_from": chinese, "xlinghealth": x_prov, "multimed_x": m_prov,
                       "translation": translation_counts(items), "licence": self.licence, "parallel": True,
                       "questions_used": len(ids)}  # fmt: skip


# what the loader was run on (issue 61; ``benchmarks.verified``)
VERIFIED_MULTIMED_X_LIVEQA = (
    "astridesa/Med-CoReasoner @324dd0d99724 liveqa_jp_200.xlsx (ja, its EN column) joined to the published "
    "LiveQA.xlsx: 96 questions in en and ja (91 exact, 4 near, 1 edited), 14 duplicates, 90 not among "
    "XLingHealth's 244"
)

SPEC = register_benchmark(
    MultiMedXLiveQA(
        "multimed-x/liveqa", LANGUAGES, ("question", "reference", "negatives"), default_tasks=("correctness",),
        licence="Apache-2.0 (XLingHealth) and CC BY 4.0 (MultiMed-X)",
        description="MultiMed-X joined to XLingHealth's LiveQA by English text: one question in ten languages",
        verified=VERIFIED_MULTIMED_X_LIVEQA,
    )
)  # fmt: skip
