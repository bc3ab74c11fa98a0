"""``multimed-x/nli``: MultiMed-X's BioNLI half (150 pairs per language), read as yes/no claims for the
``verifiability`` task: does the premise (a biomedical abstract) support the hypothesis (a conclusion)? Its labels
are ``entailment`` and ``contradiction`` only (no neutral), so each pair is one claim whose truth is yes or no, and
verifiability's macro precision, recall, F1, accuracy and AUC apply as XLingEval computes them for its claims.

The ``text`` holds ``Premise:`` and ``Hypothesis:`` (``前提:`` and ``仮説:`` in Japanese, as the authors' sample
files write them; other languages' own markers are read where ``MARKERS`` has them, the English ones always). A
pair is ``bionli-NNN`` in every language. A text without the hypothesis marker, or a label that is neither, is
dropped and counted (``dataset.skipped``), never guessed. Each item carries ``meta["claim_prompt"] = "nli"``: the
verifiability task then asks with its NLI wording (``tasks.verifiability``), in English for every language. It
declares no ``question`` (its premise is not one): only verifiability runs on it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pandas as pd

from xlingmed.benchmarks.base import LoadRequest, register_benchmark
from xlingmed.benchmarks.hub.base import HubBenchmark, translation_counts
from xlingmed.benchmarks.hub.multimed_x import ALIASES, english_from_column, frame, number_of
from xlingmed.benchmarks.hub.multimed_x_files import authors_folder
from xlingmed.errors import ConfigError
from xlingmed.types import Item

MARKERS = {"en": ("Premise", "Hypothesis"), "ja": ("前提", "仮説")}
LABELS = {"entailment": 1, "contradiction": 0}


def _marker(word: str) -> re.Pattern[str]:
    # anywhere but inside a word: the authors' Japanese sample has "…。仮説: …" on the premise's line
    return re.compile(rf"(?<![A-Za-z]){re.escape(word)}\s*[:：]\s*")


def split_nli(text: str, lang: str) -> tuple[str, str] | None:
    """(premise, hypothesis) of a MultiMed-X NLI text; ``None`` without a hypothesis marker."""
    for p_word, h_word in dict.fromkeys((MARKERS.get(lang, MARKERS["en"]), MARKERS["en"])):
        found = list(_marker(h_word).finditer(text))
        if found:
            premise = _marker(p_word).sub("", text[: found[-1].start()], count=1).strip()
            hypothesis = text[found[-1].end() :].strip()
            if premise and hypothesis:
                return premise, hypothesis
    return None


def _with_english(nli: pd.DataFrame) -> pd.DataFrame:
    """``nli`` with English rows made from an ``en``/``EN`` column beside the text where a copy has no ``lang ==
    "en"`` rows (the authors' sample files; as ``multimed-x`` reads its QA half): the first of each pair."""
    english = None if (nli["lang"] == "en").any() else english_from_column(nli)
    return nli if english is None else pd.concat([nli, english], ignore_index=True)


@dataclass(frozen=True)
class MultiMedXNLI(HubBenchmark):
    def load(self, request: LoadRequest) -> tuple[list[Item], dict[str, Any]]:
        unknown = [lang for lang in request.languages if lang not in self.languages]
        if unknown:
            raise ConfigError(f"{self.name} has no language(s) {unknown}; its languages: {', '.join(self.languages)}")
        df = frame(authors_folder(request) or self.source(request), self.split_of(request), self.name)
        df = df.assign(row=range(2, len(df) + 2), lang=df["lang"].astype(str).str.lower().replace(ALIASES))
        nli = _with_english(df[df["task"].astype(str).str.lower() == "nli"])
        items: list[Item] = []
        skipped: dict[str, dict[str, int]] = {}
        for lang in request.languages:
            mine = nli[nli["lang"] == lang]
            for row, raw_id, text, label in zip(mine["row"], mine["id"], mine["text"], mine["label"], strict=True):
                parts = split_nli(str(text), lang) if isinstance(text, str) else None
                truth = LABELS.get(str(label).strip().lower())
                why = "no_hypothesis_marker" if parts is None else "unknown_label" if truth is None else None
                if why is not None or parts is None or truth is None:
                    per = skipped.setdefault(lang, {})
                    per[str(why)] = per.get(str(why), 0) + 1
                    continue
                premise, hypothesis = parts
                items.append(Item(
                    item_id=number_of(raw_id, int(row)), benchmark=self.name, lang=lang, question=premise,
                    reference=hypothesis if truth else "", negatives=() if truth else (hypothesis,),
                    meta={"row": int(row), "claim_prompt": "nli", "label": str(label),
                          "translation": self.translation_of(lang)},
                ))  # fmt: skip
        if request.limit is not None:
            keep = set(list(dict.fromkeys(it.item_id for it in items))[: request.limit])
            items = [it for it in items if it.item_id in keep]
        counts: dict[str, dict[str, int]] = {}
        for it in items:
            per = counts.setdefault(it.lang, {})
            per[it.meta["label"]] = per.get(it.meta["label"], 0) + 1
        made = translation_counts(items)
        return items, {"dataset": self.dataset, "split": self.split_of(request), "parallel": True,
                       "licence": self.licence, "skipped": skipped, "labels": counts, "translation": made}  # fmt: skip


# what the loader was run on (issue 61; ``benchmarks.verified``)
VERIFIED_MULTIMED_X_NLI = (
    "astridesa/Med-CoReasoner @324dd0d99724 bionli_jp_150.xlsx read as published: ja 149 of 150 (1 without a "
    "hypothesis), en 150 from its EN column; other languages unverified"
)

SPEC = register_benchmark(
    MultiMedXNLI(
        "multimed-x/nli", ("en", "zh", "ja", "ko", "sw", "th", "yo", "zu"), ("reference", "negatives"),
        default_tasks=("verifiability",), run_languages=("zh", "ja", "ko", "sw", "th", "yo", "zu"),
        licence="CC BY 4.0", kind="qa", dataset="li-lab/MultiMed-X", split="train",
        description="MultiMed-X BioNLI: does the abstract support the conclusion? yes/no claims (entailment)",
        shared_id="the number of bionli-<lang>-NNN",
        translation=(("en", "original"), *((lg, "post-edited") for lg in ("zh", "ja", "ko", "sw", "th", "yo", "zu"))),
        home="https://huggingface.co/datasets/li-lab/MultiMed-X",
        verified=VERIFIED_MULTIMED_X_NLI,
    )
)  # fmt: skip
