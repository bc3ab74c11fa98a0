"""The encoder options that consistency and open_qa share (BERTScore model, layer, idf, rescaling), and where
each resolved value comes from: the user, a paper's default, or the library's default for that model.

XLingEval's code scored consistency with bert-base-uncased at its last layer, 12 (spec xlingeval.md §3.4 c);
MedArabiQ scored open answers with xlm-roberta-large at bert-score's default layer for it, 17 (spec
medarabiq.md §4.4).
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from xlingmed.tasks.registry import TaskOptions

PAPER_BERTSCORE_LAYER = 12  # XLingEval's code scored with the last layer of bert-base-uncased (spec §3.4 c)
USER = "user"


def is_paper_bert(model: str) -> bool:
    """bert-base-uncased by hub name or as a local folder of that name."""
    return Path(model).name == "bert-base-uncased"


class EncoderOptions(TaskOptions):
    """``bertscore_model`` (hub id or local folder), ``bertscore_layers`` (a layer index), ``bertscore_idf``,
    ``bertscore_rescale`` (baseline rescaling); both papers: no idf, no rescaling."""

    bertscore_model: str | None = None
    bertscore_layers: int | None = Field(default=None, ge=0)
    bertscore_idf: bool = False
    bertscore_rescale: bool = False

    def flag_sources(self) -> dict[str, str]:
        return {
            "idf": USER if "bertscore_idf" in self.model_fields_set else "paper default",
            "rescale": USER if "bertscore_rescale" in self.model_fields_set else "paper default",
        }


def open_qa_bertscore(options: EncoderOptions) -> tuple[tuple[str, int | None], dict[str, str]]:
    """((model, layer), sources) of the open-answer BERTScore: the user's, else MedArabiQ's xlm-roberta-large at
    bert-score's default layer for it (17)."""
    model = options.bertscore_model or "xlm-roberta-large"
    layer = options.bertscore_layers
    sources = {
        "model": USER if options.bertscore_model else "paper default (MedArabiQ §4.4: xlm-roberta-large)",
        "layer": USER
        if options.bertscore_layers is not None
        else "bert-score default for this model (xlm-roberta-large: 17, as the paper)",
        **options.flag_sources(),
    }
    return (model, layer), sources
