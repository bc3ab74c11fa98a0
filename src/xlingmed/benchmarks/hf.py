"""Any Hugging Face dataset as a benchmark: ``hf:ORG/NAME`` (open questions) or ``hf:mcq:ORG/NAME`` (multiple
choice), read through the ``datasets`` library.

The rows become Items exactly as a user's own file does (``rows.items_from_frame``): ``--columns`` maps our
fields (question, options, answer, reference, negatives, item_id, lang, category) to the dataset's columns, and
each field has default column names. Languages come from a language column (``--columns lang=…`` or a default
name), or from one config per language (``--hf-config en=med_en,es=med_es``); a single ``--hf-config NAME``
without a language column puts every row in the run's first language. ``--hf-split`` picks the split (default
``test``).

Where the data is read from: ``--data-dir DIR`` holding ``DIR/ORG/NAME`` (a folder in the hub's layout: a
``README.md`` whose ``configs:`` name the files of each config, or plain ``*.parquet``/``*.jsonl``/``*.csv``
files) is read offline; otherwise the hub (users have internet; nothing is fetched at import). Gated datasets
use the user's own token (``HF_TOKEN`` or ``huggingface-cli login``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from xlingmed.benchmarks.base import Benchmark, BenchmarkOptions, LoadRequest, register_scheme
from xlingmed.benchmarks.rows import TableOptions
from xlingmed.errors import ConfigError, DataError, DataNotFoundError
from xlingmed.types import Item

if TYPE_CHECKING:
    import pandas as pd


class HFOptions(TableOptions):
    """``-B`` options of ``hf:ORG/NAME``: a table's, and the dataset ``hf_config`` (``NAME`` or
    ``lang=NAME,…``) and ``hf_split``."""

    hf_config: str | None = None
    hf_split: str | None = None


@dataclass(frozen=True)
class HFBenchmark(Benchmark):
    Options: ClassVar[type[BenchmarkOptions]] = HFOptions

    """A dataset on the Hugging Face hub (or a local copy in its layout)."""

    dataset: str = ""
    kind: str = "qa"

    def max_tokens(self) -> int:
        return 16 if self.kind == "mcq" else 1000

    def languages_for(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        """With one config per language (``--hf-config en=…,es=…``), those languages."""
        langs = tuple(k for k in parse_configs(options.get("hf_config")) if k is not None)
        return langs or self.default_languages

    def load(self, request: LoadRequest) -> tuple[list[Item], dict[str, Any]]:
        from xlingmed.benchmarks.rows import frame_fingerprint, items_from_frame

        opts = request.options
        split = str(opts.get("hf_split") or "test")
        configs = parse_configs(opts.get("hf_config"))
        source = self._source(request.data_dir)
        frames = []
        for lang, config in configs.items():
            df = load_frame(source, config, split, self.name)
            if lang is not None:
                df = df.assign(lang=lang)
            frames.append(df)
        import pandas as pd

        df = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
        columns = dict(opts.get("columns") or {})
        if any(lang is not None for lang in configs):
            columns["lang"] = "lang"
        label = Path(f"{self.name}[{','.join(str(c) for c in configs.values())}]/{split}")
        fingerprint = frame_fingerprint(df)
        items, provenance = items_from_frame(
            df,
            name=self.name,
            kind=self.kind,
            path=label,
            sha256=fingerprint,
            languages=request.languages,
            columns=columns,
            answer_format=str(opts.get("answer_format", "auto")),
            limit=request.limit,
            seed=request.seed,
            strict=bool(opts.get("strict_data")),
        )
        provenance.update({"dataset": self.dataset, "source": str(source), "split": split, "configs": configs})
        return items, provenance

    def _source(self, data_dir: Path | None) -> str | Path:
        if Path(self.dataset).is_dir():
            return Path(self.dataset)
        return local_or_hub(self.dataset, data_dir, "the dataset")


def local_or_hub(dataset: str, data_dir: Path | None, what: str) -> str | Path:
    """``DATA_DIR/ORG/NAME`` when ``data_dir`` is given, else the hub id ``dataset``.

    Raises:
        DataNotFoundError: ``data_dir`` does not hold ``dataset`` in the hub's layout (``what`` names it).
    """
    if data_dir is None:
        return dataset
    local = Path(data_dir) / dataset
    if local.is_dir():
        return local
    raise DataNotFoundError(
        f"{local} not found: --data-dir must hold {what} in the hub's layout as {dataset}/ "
        "(or leave --data-dir out to read it from the Hugging Face hub)"
    )


def parse_configs(raw: Any) -> dict[str | None, str | None]:
    """``--hf-config``: ``None`` → the default config; ``NAME``; or ``en=NAME_EN,es=NAME_ES`` (one per language).

    Raises:
        ConfigError: a malformed ``lang=config`` list.
    """
    if raw is None or raw == "":
        return {None: None}
    if isinstance(raw, dict):
        return {str(k): str(v) for k, v in raw.items()}
    text = str(raw)
    if "=" not in text:
        return {None: text}
    pairs = [p.split("=", 1) for p in text.split(",") if p.strip()]
    if any(len(p) != 2 or not p[0].strip() or not p[1].strip() for p in pairs):
        raise ConfigError(f"--hf-config: expected NAME or lang=NAME[,lang=NAME…], got {text!r}")
    return {k.strip(): v.strip() for k, v in pairs}


def load_frame(source: str | Path, config: str | None, split: str, name: str, **kwargs: Any) -> pd.DataFrame:
    """One config's split as a pandas DataFrame, through ``datasets.load_dataset`` (``kwargs`` go to it:
    ``data_files``…); the one dataset loader of ``hf:`` names and the hub sets. Errors name the dataset, config and
    split."""
    try:
        import datasets
    except ImportError:
        raise ConfigError(f"{name} needs the datasets library: pip install datasets") from None
    where = f"{name} (config {config or 'default'}, split {split})"
    if Path(source).is_dir():
        # a local copy is read afresh: datasets keys its cache on file names, times and sizes, so an edit within
        # the same second that keeps the size (one digit changed) would otherwise return the old rows
        kwargs.setdefault("download_mode", "force_redownload")
    try:
        ds = datasets.load_dataset(str(source), config, split=split, **kwargs)
    except FileNotFoundError as exc:
        raise DataNotFoundError(f"{where}: {exc}") from None
    except ValueError as exc:  # unknown split or config: the message lists the available ones
        hint = " (choose one with -B hf_split=NAME)" if "split" in str(exc).lower() else ""
        raise ConfigError(f"{where}: {exc}{hint}") from None
    except Exception as exc:  # gated, network, malformed files: one line, never a traceback
        hint = " (a gated dataset: accept its terms and set HF_TOKEN)" if "gated" in str(exc).lower() else ""
        raise DataError(f"{where}: {type(exc).__name__}: {str(exc)[:300]}{hint}") from None
    frame: pd.DataFrame = ds.to_pandas()
    return frame


def hf_benchmark(name: str) -> HFBenchmark:
    """``hf:ORG/NAME`` (open questions) or ``hf:mcq:ORG/NAME`` (multiple choice)."""
    rest = name.removeprefix("hf:")
    kind = "qa"
    if rest.startswith(("mcq:", "qa:")):
        kind, _, rest = rest.partition(":")
    if not rest:
        raise ConfigError(f"{name!r}: expected hf:ORG/NAME or hf:mcq:ORG/NAME")
    if kind == "mcq":
        return HFBenchmark(name, ("en",), ("choices",), default_tasks=("multiple_choice",), dataset=rest, kind=kind)
    return HFBenchmark(name, ("en",), ("question", "reference", "negatives"),
                       default_tasks=("correctness", "verifiability"), dataset=rest, kind=kind)  # fmt: skip


register_scheme("hf", hf_benchmark, "hf:ORG/NAME, hf:mcq:ORG/NAME")
