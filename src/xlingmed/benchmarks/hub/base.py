"""What every published hub benchmark shares: where its data is read from, one frame per language in our columns,
the per-item translation provenance, the gate, and the licence notice.

An adapter (one file per benchmark in this folder) declares a ``HubBenchmark`` and overrides two methods:

- ``read(source, lang, request)``: the raw rows of one language, read through the ``datasets`` library from the
  hub or from ``--data-dir DIR/ORG/NAME`` (the same files, in the hub's layout);
- ``prepare(df, lang, request)``: those rows in our columns — ``item_id``, ``question``, ``options`` (a list of
  option texts, in order), ``answer`` (the gold letter), ``category``, and optionally ``translation`` (one of
  ``TRANSLATION``) — dropping what the benchmark's subset excludes; rows it cannot score are dropped and counted
  by reason in ``df.attrs["skipped"]``.

The rest — the per-language limit of sets that are not parallel, the ``--provenance`` filter, the provenance dict
of the run — is here, once.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pandas as pd
from pydantic import field_validator

from xlingmed.benchmarks.base import MC_TEMPLATE, Benchmark, BenchmarkOptions, LoadRequest
from xlingmed.benchmarks.hf import load_frame as load_frame
from xlingmed.benchmarks.hf import local_or_hub
from xlingmed.errors import ConfigError, DataError
from xlingmed.types import Item

# How an item's text came to be in its language: written in it (the source), translated by people, machine
# translated then corrected by people, or machine translated. ``unstated``: the source does not say.
TRANSLATION = ("original", "human", "post-edited", "machine", "unstated")
# What ``--provenance human`` keeps besides the source language: text that people wrote or checked.
HUMAN = ("original", "human", "post-edited")


class HubOptions(BenchmarkOptions):
    """``-B`` options of a published hub benchmark: ``subset`` (one of its ``subsets``), ``provenance`` (keep the
    items translated this way: ``human``, ``machine``…) and ``hf_split``."""

    subset: str | None = None
    provenance: tuple[str, ...] = ()
    hf_split: str | None = None
    strict_data: bool = False  # a row that cannot be an item stops the load (``benchmarks.odd_rows``)

    @field_validator("provenance", mode="before")
    @classmethod
    def _provenance(cls, v: Any) -> tuple[str, ...]:
        return parse_provenance(v)


def missing_option(value: Any, *, na_text: bool = True) -> bool:
    """An option cell that holds no option: ``None``, NaN, empty, and with ``na_text`` the text "N/A" (any case)
    the sets write in unused slots."""
    if value is None or (isinstance(value, float) and math.isnan(value)) or not str(value).strip():
        return True
    return na_text and str(value).strip().lower() == "n/a"


@dataclass(frozen=True)
class HubBenchmark(Benchmark):
    """A published benchmark read from the Hugging Face hub (or a local copy in its layout).

    Attributes (besides ``Benchmark``'s):
        dataset: the hub id, ``ORG/NAME``.
        kind: ``mcq`` (multiple choice), ``qa`` (open questions with a reference answer) or ``conversation``
            (chat messages graded against a rubric: HealthBench).
        split: the split a run reads unless ``--hf-split`` says otherwise.
        gated: the hub asks users to accept terms first; reading it needs the user's own token.
        shared_id: the source field that names the same question in every language (``""``: not parallel; item
            ids then carry the language, so nothing is ever paired across languages).
        translation: language → how its text was made (``TRANSLATION``), as the source states it.
        restriction: ``non-commercial``, ``research only``…: printed before a run starts; ``""`` for none.
        subsets: the values ``--subset`` takes; the first is the default.
        home: the dataset's page.
        prompt: the multiple-choice prompt form its runs use unless ``-T mc_prompt`` says otherwise
            (``tasks.multiple_choice``): ``structured`` with ``prompt_template``, or ``answer_line``.
        prompt_template: the template of ``prompts/hub.yaml`` (or ``multiple_choice``) its prompt is.
        prompt_source: which reference prompt that is, and how it differs from the authors' (the summary says it).
    """

    Options: ClassVar[type[BenchmarkOptions]] = HubOptions

    dataset: str = ""
    kind: str = "mcq"
    split: str = "test"
    gated: bool = False
    shared_id: str = ""
    translation: tuple[tuple[str, str], ...] = ()
    restriction: str = ""
    subsets: tuple[str, ...] = ()
    home: str = ""
    prompt: str = "answer_line"
    prompt_template: str = MC_TEMPLATE
    prompt_source: str = ""

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "parallel", bool(self.shared_id))  # paired comparisons hold exactly then

    def max_tokens(self) -> int:
        return 16 if self.kind == "mcq" else 1000

    def mc_prompt(self) -> tuple[str, str]:
        return self.prompt, self.prompt_source

    def template(self, answers: str) -> str:
        return self.prompt_template if answers == "choices" else "qa"

    @property
    def notice(self) -> str:
        """One line for the terminal before a run, or ``""``: the licence's restriction, the gate, and that a set
        without shared questions gets unpaired statistics."""
        parts = []
        if self.restriction:
            parts.append(f"licence {self.licence}: {self.restriction}")
        if self.gated:
            parts.append(f"gated on the hub: accept its terms at {self.home or self.dataset}")
        if not self.shared_id and len(self.languages) > 1:
            parts.append("different questions in each language: the report's statistics are unpaired")
        return f"{self.name}: " + "; ".join(parts) if parts else ""

    def translation_of(self, lang: str) -> str:
        return dict(self.translation).get(lang, "unstated")

    def subset(self, options: Mapping[str, Any]) -> str | None:
        """``--subset``, checked against ``subsets`` (their first when not given); ``None`` without subsets.

        Raises:
            ConfigError: a value this benchmark does not have, or a subset given to one without any.
        """
        raw = options.get("subset")
        if not self.subsets:
            if raw:
                raise ConfigError(f"{self.name} has no subsets (--subset {raw})")
            return None
        value = str(raw) if raw else self.subsets[0]
        if value not in self.subsets:
            raise ConfigError(f"{self.name}: unknown --subset {value!r}; its subsets: {', '.join(self.subsets)}")
        return value

    # -- what an adapter overrides -------------------------------------------------------------------------

    def read(self, source: str | Path, lang: str, request: LoadRequest) -> pd.DataFrame:
        """The raw rows of ``lang`` (default: the config named after the language, the run's split)."""
        return load_frame(source, lang, self.split_of(request), self.name)

    def prepare(self, df: pd.DataFrame, lang: str, request: LoadRequest) -> pd.DataFrame:
        """The rows in our columns (see the module doc)."""
        raise NotImplementedError

    def columns_of(self, request: LoadRequest) -> dict[str, str]:
        """Our field → the prepared frame's column (``rows.items_from_frame``); the rest by their default names."""
        return {"item_id": "item_id", "lang": "lang"}

    def answer_format_of(self, request: LoadRequest) -> str:
        """How the prepared frame writes the gold answer (``rows.ANSWER_FORMATS``): a letter."""
        return "letter"

    # -- the shared part ------------------------------------------------------------------------------------

    def split_of(self, request: LoadRequest) -> str:
        return str(request.options.get("hf_split") or self.split)

    def dataset_of(self, request: LoadRequest) -> str:
        """The hub id a run reads (a subset may live in a dataset of its own: Global-MMLU-Lite)."""
        return self.dataset

    def source(self, request: LoadRequest) -> str | Path:
        """``DATA_DIR/ORG/NAME`` when ``--data-dir`` is given, else the hub id (after the gate check).

        Raises:
            DataNotFoundError: ``--data-dir`` does not hold the dataset.
            ConfigError: a gated dataset and no Hugging Face token.
        """
        dataset = self.dataset_of(request)
        if request.data_dir is not None:
            return local_or_hub(dataset, Path(request.data_dir), f"{self.name}'s files")
        if self.gated and not _hf_token():
            raise ConfigError(
                f"{self.name} ({dataset}) is gated on the Hugging Face hub: accept its terms at "
                f"{self.home or 'https://huggingface.co/datasets/' + self.dataset} with your account, then set "
                "HF_TOKEN or run `huggingface-cli login` (or give --data-dir with your own copy)"
            )
        return dataset

    def _language_frame(
        self, source: str | Path, lang: str, request: LoadRequest, keep: tuple[str, ...] | None,
        counts: tuple[dict[str, int], dict[str, dict[str, int]], dict[str, dict[str, int]]],
    ) -> pd.DataFrame:  # fmt: skip
        """One language's rows, prepared, with their translation, filtered by provenance (``keep``) and, where not
        parallel, language-prefixed ids under the limit; ``counts`` (dropped, skipped, quirks) per language are
        filled."""
        dropped, skipped, quirks = counts
        where = f"{self.dataset_of(request)} ({lang}, split {self.split_of(request)})"
        try:
            df = self.prepare(self.read(source, lang, request), lang, request)
        except DataError as exc:
            if exc.file is not None:
                raise
            raise DataError(exc.message, file=where, row=exc.row, column=exc.column) from None
        except KeyError as exc:  # a copy whose columns are not the card's: name the one missing
            raise DataError(f"no column {exc.args[0]!r} (the dataset card's layout)", file=where) from None
        if df.attrs.get("skipped"):  # rows an adapter cannot score, by reason: counted, never guessed
            skipped[lang] = dict(df.attrs["skipped"])
        if any(df.attrs.get("quirks", {}).values()):  # rows read by a rule of the reference code, counted
            quirks[lang] = dict(df.attrs["quirks"])
        if "translation" not in df.columns:
            df = df.assign(translation=self.translation_of(lang))
        if keep is not None:
            mask = df["translation"].isin(keep)
            dropped[lang] = int((~mask).sum())
            df = df[mask]
        if not self.shared_id:  # not parallel: ids carry the language, the limit applies per language
            df = df.assign(item_id=lang + "-" + df["item_id"].astype(str))
            if request.limit is not None:
                df = df.head(request.limit)
        return df

    def load(self, request: LoadRequest) -> tuple[list[Item], dict[str, Any]]:
        from xlingmed.benchmarks.odd_rows import merge_skipped
        from xlingmed.benchmarks.rows import frame_fingerprint, items_from_frame

        unknown = [lang for lang in request.languages if lang not in self.languages]
        if unknown:
            raise ConfigError(f"{self.name} has no language(s) {unknown}; its languages: {', '.join(self.languages)}")
        keep = _provenance_filter(request.options.get("provenance"))
        source = self.source(request)
        frames = []
        dropped: dict[str, int] = {}
        skipped: dict[str, dict[str, int]] = {}
        quirks: dict[str, dict[str, int]] = {}
        for lang in request.languages:
            df = self._language_frame(source, lang, request, keep, (dropped, skipped, quirks))
            frames.append(df.assign(lang=lang))
        df = pd.concat(frames, ignore_index=True)
        if df.empty:
            raise DataError(f"{self.name}: no items left in {', '.join(request.languages)} (subset, provenance)")
        translation = {(str(r.item_id), str(r.lang)): str(r.translation) for r in df.itertuples()}
        split = self.split_of(request)
        label = Path(f"{self.name}[{self.subset(request.options) or split}]/{split}")
        fingerprint = frame_fingerprint(df)
        items, provenance = items_from_frame(
            df,
            name=self.name,
            kind=self.kind,
            path=label,
            sha256=fingerprint,
            languages=request.languages,
            columns=self.columns_of(request),
            answer_format=self.answer_format_of(request),
            limit=request.limit if self.shared_id else None,
            seed=request.seed,
            strict=bool(request.options.get("strict_data")),
        )
        for item in items:
            item.meta["translation"] = translation[(item.item_id, item.lang)]
        provenance.update(
            {
                "dataset": self.dataset_of(request),
                "source": str(source),
                "split": split,
                "subset": self.subset(request.options),
                "parallel": bool(self.shared_id),
                "shared_id": self.shared_id or None,
                "licence": self.licence,
                "translation": translation_counts(items),
                "provenance_filter": list(keep) if keep is not None else None,
                "dropped_by_provenance": dropped,
                "reference_rules": quirks,
                "skipped": merge_skipped(skipped, provenance.get("skipped", {})),
                "paired_items": _paired(items, request.languages) if self.shared_id else None,
            }
        )
        return items, provenance


def _hf_token() -> str | None:
    if os.environ.get("HF_TOKEN"):
        return os.environ["HF_TOKEN"]
    try:
        from huggingface_hub import get_token
    except ImportError:
        return None
    return get_token()


def _provenance_filter(raw: Any) -> tuple[str, ...] | None:
    """``--provenance human`` → the human-made kinds; ``machine``, ``post-edited``…: those; the source language's
    items (``original``) are always kept: they are what every other language is compared with."""
    if not raw:
        return None
    values = [v.strip() for v in (raw if isinstance(raw, (list, tuple)) else str(raw).split(",")) if v.strip()]
    kinds: set[str] = {"original"}
    for v in values:
        if v == "human":
            kinds.update(HUMAN)
        elif v in TRANSLATION:
            kinds.add(v)
        else:
            raise ConfigError(f"--provenance: unknown {v!r}; expected human or any of {', '.join(TRANSLATION)}")
    return tuple(k for k in TRANSLATION if k in kinds)


def _paired(items: list[Item], languages: Sequence[str]) -> int:
    """How many questions are in every language the run asked for (the pairing key checked, not assumed)."""
    by_lang: dict[str, set[str]] = {lang: set() for lang in languages}
    for it in items:
        by_lang.setdefault(it.lang, set()).add(it.item_id)
    return len(set.intersection(*by_lang.values())) if by_lang else 0


def translation_counts(items: list[Item]) -> dict[str, dict[str, int]]:
    """Language → how its items' text was made (``meta["translation"]``) → items."""
    out: dict[str, dict[str, int]] = {}
    for it in items:
        per = out.setdefault(it.lang, {})
        per[it.meta["translation"]] = per.get(it.meta["translation"], 0) + 1
    return out


def parse_provenance(v: Any) -> tuple[str, ...]:
    """``human`` or a translation kind (``benchmarks.hub.base.TRANSLATION``), comma-separated; empty → ``()``."""
    from xlingmed.namelists import names_list

    if not v or (isinstance(v, str) and not v.strip()):
        return ()
    return names_list(v, ("human", *TRANSLATION), "provenance")
