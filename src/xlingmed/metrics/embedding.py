"""sim_sent: mean cosine similarity of sentence embeddings over a question's K answers.

XLingEval paper §4 (Fig. 3, "sim_sent"); spec ``xlingeval.md`` §3.4d. ``sentence-transformers`` encodes; the
authors passed ``bert-base-uncased``, which sentence-transformers wraps with mean pooling (not a trained
sentence encoder), so that stays the default. Any sentence-transformers model or local folder can be named.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from xlingmed.errors import ConfigError
from xlingmed.metrics import check_local_model, quiet_transformers
from xlingmed.metrics.registry import ANSWERS, PAIRS, MetricSpec, declare_metric
from xlingmed.metrics.sets import Condition, SetMetric, register_set_metric

declare_metric(MetricSpec("sim_sent", ANSWERS, PAIRS, group="sim_sent",
                            source="XLingEval §3.2: cosine of sentence embeddings (sentence-transformers)"))


def mean_off_diagonal(sim: np.ndarray) -> float:
    """(sum of all entries − trace) / (K(K−1)) of a K×K similarity matrix: the mean over ordered pairs i ≠ j,
    which equals the mean over the K(K−1)/2 unordered pairs of a symmetric matrix. NaN when K < 2."""
    k = sim.shape[0]
    if k < 2:
        return float("nan")
    return float((sim.sum() - np.trace(sim)) / (k * (k - 1)))


def cosine_matrix(emb: np.ndarray) -> np.ndarray:
    """K×K cosine similarities of the rows of ``emb`` (shape (K, dim)); a zero row has similarity 0, and two equal
    non-zero rows (the same text, encoded once) exactly 1: float32 embeddings give 1 ± 1e-7, bits that differ by
    CPU and that the tests across languages would otherwise rank."""
    norms = np.linalg.norm(emb, axis=1, keepdims=True)
    unit = np.divide(emb, norms, out=np.zeros_like(emb), where=norms > 0)
    equal = (emb[:, None, :] == emb[None, :, :]).all(axis=-1) & (norms > 0)
    result: np.ndarray = np.where(equal, 1.0, unit @ unit.T)
    return result


class SentenceSimilarity:
    """Mean pairwise cosine of sentence-transformers embeddings.

    Args:
        model: sentence-transformers model id or local folder (paper: ``bert-base-uncased``, mean pooling).
        batch_size: texts per encoder batch.
        device: torch device; default CPU.

    Raises:
        ConfigError: the model cannot be loaded (missing folder, or no network for a hub id).
    """

    def __init__(self, model: str, *, batch_size: int = 32, device: str = "cpu") -> None:
        from sentence_transformers import SentenceTransformer

        quiet_transformers()
        check_local_model(model, "sentence-embedding model")

        try:
            self.encoder = SentenceTransformer(model, device=device)
        except (OSError, ValueError) as exc:
            raise ConfigError(
                f"cannot load sentence-embedding model {model!r} (no such folder, or no network to download it): {exc}"
            ) from None
        self.model = model
        self.batch_size = batch_size

    def settings(self) -> dict[str, Any]:
        return {"model": self.model, "max_seq_length": self.encoder.max_seq_length}

    def encode(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        unique = list(dict.fromkeys(texts))
        vecs = self.encoder.encode(unique, batch_size=self.batch_size, convert_to_numpy=True, show_progress_bar=False)
        return {t: np.asarray(v, dtype=np.float64) for t, v in zip(unique, vecs, strict=True)}

    def mean_similarity(self, groups: Sequence[Sequence[str]]) -> list[float]:
        """sim_sent per group (one group = one question's K answers), encoding all texts in shared batches; a pair
        of identical texts counts exactly 1 (``cosine_matrix``)."""
        vecs = self.encode([t for g in groups for t in g])
        return [mean_off_diagonal(cosine_matrix(np.stack([vecs[t] for t in g]))) if g else float("nan") for g in groups]


def _sim_sent(groups: Sequence[Sequence[str]], c: Condition) -> list[dict[str, float | None]]:
    embedder: SentenceSimilarity = c.encoders["sim_sent"]
    return [{"sim_sent": v} for v in embedder.mean_similarity(groups)]


register_set_metric(SetMetric("sim_sent", "cleaned", lambda s: ["sim_sent"], _sim_sent, needs=("sim_sent",)))
