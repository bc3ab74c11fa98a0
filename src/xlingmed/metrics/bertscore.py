"""BERTScore between all pairs of a question's K answers, from token embeddings computed once per answer.

XLingEval paper §4 (semantic consistency, Fig. 3); spec ``xlingeval.md`` §3.4c: for each of the K(K−1)/2
pairs i < j, candidate = answer i and reference = answer j; the question's value is the mean P, R and F1.

The ``bert-score`` library loads the model, tokenises, embeds (``get_bert_embedding``) and supplies the
idf weights and rescaling baselines. Only the pairing is ours: ``bert_score.score`` re-embeds both sides of
every pair, so K answers cost K(K−1) encoder passes; here they cost K, and the greedy matching of
Zhang et al. (2020, Eq. 1–3, as in ``bert_score.utils.greedy_cos_idf``) runs on the cached embeddings.
``tests/test_consistency_metrics.py`` checks equality with ``BERTScorer.score`` pair by pair (≤ 1e-5: float32
sums of other batch shapes); ``bench/bertscore_pairwise.py`` measures the speed-up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from xlingmed.errors import ConfigError
from xlingmed.metrics import check_local_model, quiet_transformers
from xlingmed.metrics.registry import ANSWERS, PAIRS, MetricSpec, declare_metric
from xlingmed.metrics.sets import Condition, SetMetric, register_set_metric

declare_metric(*(
    MetricSpec(f"bertscore_{x}", ANSWERS, PAIRS, group="bertscore", source="XLingEval §3.2; bert-score (Zhang 2020)")
    for x in ("p", "r", "f1")
))


@dataclass(frozen=True)
class _Encoded:
    emb: Any  # torch.Tensor [tokens, dim], rows L2-normalised
    weight: Any  # torch.Tensor [tokens], idf (or 1) per token, 0 for [CLS]/[SEP] without idf
    empty: bool  # only the special tokens: bert-score sets P and R to 0


class BERTScore:
    """BERTScore P/R/F1 (Zhang et al. 2020) through the ``bert-score`` library: model loading, layer choice, idf,
    baseline rescaling and the candidate–reference ``score`` of MedArabiQ (paper §3.2: XLM-RoBERTa-Large; spec
    §4.4). ``PairwiseBERTScore`` adds the all-pairs scoring of XLingEval's consistency.

    Args:
        model_type: Hugging Face id or local folder (paper code: ``bert-base-uncased``).
        num_layers: hidden layer to use; ``None`` = bert-score's tuned default for a known model (the paper's
            code used 12, the last layer of bert-base-uncased). Required for a model bert-score does not know.
        idf: weight tokens by idf (call ``fit_idf`` with the reference corpus first); paper: False.
        rescale: rescale with bert-score's shipped baseline for ``lang``/``model_type``/``num_layers``; paper: False.
        lang: language of the baseline file (``en`` for back-translated answers).
        batch_size: texts per encoder batch.
        device: torch device; default CPU.

    Raises:
        ConfigError: the model cannot be loaded, ``num_layers`` is missing for an unknown model or out of range,
            or ``rescale`` is asked for and bert-score ships no baseline for this model and language.
    """

    def __init__(
        self,
        model_type: str,
        num_layers: int | None = None,
        *,
        idf: bool = False,
        rescale: bool = False,
        lang: str = "en",
        batch_size: int = 64,
        device: str = "cpu",
    ) -> None:
        from bert_score import BERTScorer

        quiet_transformers()
        check_local_model(model_type, "BERTScore model")

        try:
            self.scorer = BERTScorer(
                model_type=model_type,
                num_layers=num_layers,
                idf=idf,
                lang=lang,
                rescale_with_baseline=rescale,
                nthreads=0,
                device=device,
                batch_size=batch_size,
            )
        except KeyError:
            raise ConfigError(
                f"BERTScore model {model_type!r} is not in bert-score's table of default layers: pass its layer "
                "(--bertscore-layers)"
            ) from None
        except AssertionError as exc:
            raise ConfigError(f"BERTScore model {model_type!r}: {exc}") from None
        except OSError as exc:
            raise ConfigError(
                f"cannot load BERTScore model {model_type!r} (no such folder, or no network to download it); offline, "
                f"pass a local encoder folder with --bertscore-model and its layer with --bertscore-layers. {exc}"
            ) from None
        if rescale:
            try:
                self.scorer.baseline_vals  # noqa: B018 - load now so a missing baseline fails before scoring
            except ValueError as exc:
                raise ConfigError(f"--bertscore-rescale: {exc}") from None
        self.model_type = model_type
        self.num_layers = int(self.scorer.num_layers)
        self.idf = idf
        self.rescale = rescale
        self.lang = lang
        self.batch_size = batch_size
        self._idf_fitted = False

    def score(self, candidates: Sequence[str], references: Sequence[str]) -> np.ndarray:
        """P, R, F1 of each candidate against its reference (``BERTScorer.score``, one call, batched).

        An empty (or whitespace-only) candidate or reference scores 0 on all three, as bert-score defines it
        (the library itself cannot encode ``""`` under transformers 5). With ``idf=True``, call ``fit_idf`` on
        the references first.

        Returns:
            float64 array of shape (len(candidates), 3).

        Raises:
            ValueError: the two lists differ in length.
        """
        if len(candidates) != len(references):
            raise ValueError(f"{len(candidates)} candidates but {len(references)} references")
        out = np.zeros((len(candidates), 3), dtype=np.float64)
        keep = [i for i, (c, r) in enumerate(zip(candidates, references, strict=True)) if c.strip() and r.strip()]
        if keep:
            if self.idf and not self._idf_fitted:
                raise RuntimeError("BERTScore(idf=True): call fit_idf(references) first")
            p, r, f = self.scorer.score(
                [candidates[i] for i in keep], [references[i] for i in keep], batch_size=self.batch_size
            )
            out[keep] = np.stack([p.numpy(), r.numpy(), f.numpy()], axis=1).astype(np.float64)
        return out

    @property
    def hash(self) -> str:
        """bert-score's own description of the setting, e.g. ``xlm-roberta-large_L17_no-idf_version=0.3.13(…)``."""
        return str(self.scorer.hash)

    def fit_idf(self, references: Sequence[str]) -> None:
        """Compute idf weights from ``references`` (bert-score's ``compute_idf``); needed when ``idf=True``."""
        self.scorer.compute_idf(list(references))
        self._idf_fitted = True

    def settings(self) -> dict[str, Any]:
        return {
            "model": self.model_type,
            "layer": self.num_layers,
            "idf": self.idf,
            "rescale_with_baseline": self.rescale,
            "baseline_lang": self.lang if self.rescale else None,
        }

    def _idf_dict(self) -> Any:  # used by PairwiseBERTScore.embed
        from collections import defaultdict

        if self.idf:
            if not self._idf_fitted:
                raise RuntimeError("PairwiseBERTScore(idf=True): call fit_idf(references) first")
            return self.scorer._idf_dict
        tok = self.scorer._tokenizer
        weights: defaultdict[int, float] = defaultdict(lambda: 1.0)
        weights[tok.sep_token_id] = 0.0
        weights[tok.cls_token_id] = 0.0
        return weights


class PairwiseBERTScore(BERTScore):
    """BERTScore P/R/F1 over all pairs of a few texts, each text embedded once (arguments as ``BERTScore``)."""

    def embed(self, texts: Sequence[str]) -> dict[str, _Encoded]:
        """Embed each distinct text once: batches of ``batch_size``, longest first (as bert-score does)."""
        import torch
        from bert_score.utils import get_bert_embedding

        # bert-score 0.3.13 cannot encode "" under transformers 5; its result for an empty side is P = R = F = 0
        out: dict[str, _Encoded] = {t: _Encoded(emb=None, weight=None, empty=True) for t in texts if not t.strip()}
        # longest first, ties by the text: which texts share a batch (and its padding) must not follow Python's
        # per-process string hashing, or the last bits of a score change from one run to the next
        unique = sorted(set(texts) - set(out), key=lambda x: (-len(x.split(" ")), x))
        idf_dict = self._idf_dict()
        for start in range(0, len(unique), self.batch_size):
            batch = unique[start : start + self.batch_size]
            emb, mask, idf = get_bert_embedding(
                batch, self.scorer._model, self.scorer._tokenizer, idf_dict, device=self.scorer.device
            )
            emb, mask, idf = emb.cpu(), mask.cpu(), idf.cpu()
            for k, text in enumerate(batch):
                n = int(mask[k].sum().item())
                e = emb[k, :n]
                e = e / torch.norm(e, dim=-1).unsqueeze(-1)
                out[text] = _Encoded(emb=e, weight=idf[k, :n], empty=n == 2)
        return out

    def pairs(self, texts: Sequence[str], encoded: dict[str, _Encoded] | None = None) -> np.ndarray:
        """P, R, F1 for every pair (i < j) of ``texts``, candidate = i, reference = j.

        Returns:
            float64 array of shape (K(K−1)/2, 3), pairs in ``itertools.combinations`` order; a pair of identical
            non-empty texts is exactly (1, 1, 1), not the encoder's 1 ± 1e-7.
        """
        import torch

        enc = encoded if encoded is not None else self.embed(texts)
        rows: list[tuple[float, float, float]] = []
        with torch.no_grad():
            for i, j in combinations(range(len(texts)), 2):
                cand, ref = enc[texts[i]], enc[texts[j]]
                if cand.empty or ref.empty:
                    rows.append((0.0, 0.0, 0.0))
                    continue
                if texts[i] == texts[j]:
                    # a text against itself scores exactly 1 (each token's best match is itself, cosine 1); float32
                    # sums give 1 ± 1e-7 that differ by CPU, and at τ = 0 most pairs are identical: a statistic on
                    # those last bits would compare rounding noise between languages
                    rows.append((1.0, 1.0, 1.0))
                    continue
                sim = cand.emb @ ref.emb.T  # [cand tokens, ref tokens]
                p = float((sim.max(dim=1)[0] * (cand.weight / cand.weight.sum())).sum())
                r = float((sim.max(dim=0)[0] * (ref.weight / ref.weight.sum())).sum())
                f = 2 * p * r / (p + r) if (p + r) != 0 and not np.isnan(p + r) else 0.0
                rows.append((p, r, f))
        arr = np.asarray(rows, dtype=np.float32).reshape(-1, 3)
        if self.rescale:
            base = self.scorer.baseline_vals.numpy().astype(np.float32)
            arr = (arr - base) / (1 - base)
        return arr.astype(np.float64)

    def mean_pairs(self, groups: Sequence[Sequence[str]]) -> list[tuple[float, float, float]]:
        """Mean (P, R, F1) over the pairs of each group; all groups' texts are embedded in shared batches."""
        encoded = self.embed([t for g in groups for t in g])
        out: list[tuple[float, float, float]] = []
        for g in groups:
            if len(g) < 2:
                out.append((np.nan, np.nan, np.nan))
                continue
            m = self.pairs(list(g), encoded).mean(axis=0)
            out.append((float(m[0]), float(m[1]), float(m[2])))
        return out


def _consistency_bertscore(groups: Sequence[Sequence[str]], c: Condition) -> list[dict[str, float | None]]:
    """BERTScore P/R/F1 of a question's answers, mean over their ordered pairs (the condition's answers give the
    idf weights where the encoder uses idf)."""
    scorer: PairwiseBERTScore = c.encoders["bertscore"]
    if scorer.idf:
        scorer.fit_idf([t for g in groups for t in g])
    return [dict(zip(("bertscore_p", "bertscore_r", "bertscore_f1"), prf, strict=True))
            for prf in scorer.mean_pairs(groups)]  # fmt: skip


register_set_metric(SetMetric("bertscore", "cleaned", lambda s: ["bertscore_p", "bertscore_r", "bertscore_f1"],
                              _consistency_bertscore, needs=("bertscore",)))  # fmt: skip
