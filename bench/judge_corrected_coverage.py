"""Do judge-corrected intervals cover the true gap? Seeded simulations of a judge that errs in one language.

Two worlds (``--scenario``):

* ``strict-es`` (issue 62, the default): 700 paired questions in English, Spanish and Chinese; the humans find
  13 % of English answers contradictory and 14.5 % of Spanish and Chinese ones (a question's difficulty shared by
  its languages nine times in ten); the judge is exact in English and Chinese and too strict in Spanish (it calls
  15 % of Spanish's fine answers contradictory). Humans label n questions in every language (paired), n = 10, 14,
  20 and 30. For each language, the 95 % interval of the gap (contradictory is lower-is-better: English − X) as
  ``ppi-python`` computes it (``ppi_mean_ci`` with PPI++'s λ: ``Estimate.ppi_lower``/``ppi_upper``) and as the
  verdict uses it (``analysis.judge_corrected.paired_gap``: the small-sample interval where fewer than
  ``MIN_INFORMATIVE`` labels tell the judge's error). Target: the verdict's interval covers the true gap (over
  the 700 questions) in at least 90 % of repetitions at every n, and never has zero width.
* ``lenient-hi`` (issue 50): over 500 repetitions, the corrected 95 % interval of the gap (Hindi − English)
  covers the true gap in at least 93 % of repetitions at 50, 100 and 200 human labels per language; the
  judge-only interval covers it in under 50 % when the judge is lenient by 10 points in one language; the
  corrected interval is narrower than the human-only one when the judge agrees with humans better than chance.

Issue 50's world: 1,000 items in each language, the same questions (paired). A human reads an English answer as correct
with probability 0.80 and a Hindi one with 0.70 (true gap −0.10); an item's two readings are correlated (a hard
question is hard in both). The judge is exact in English and lenient in Hindi: it calls a third of Hindi's wrong
answers correct, +10 points. Humans label n items drawn at random, the same items in both languages. Three 95 %
intervals of the gap (two-sided, so each one-sided bound is at 97.5 %): judge only (all items), human only (the n
labelled), corrected (``analysis.judge_corrected.paired_gap``: ``ppi-python``'s ``ppi_mean_ci`` with PPI++'s λ).

    python bench/judge_corrected_coverage.py [--scenario strict-es|lenient-hi] [--reps 1000] [--labels 10,14,20,30]
        [--items 700] [--design paired|independent] [--figure bench/judge_corrected.png]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from xlingmed.analysis import judge_corrected as jc

P_EN, P_HI, LENIENT = 0.80, 0.70, 1 / 3  # a third of Hindi's 30 % wrong answers called correct: +10 points
TRUE_GAP = P_HI - P_EN


def world(rng: np.random.Generator, n_items: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(human en, human hi, judge en, judge hi), one 0/1 value per item."""
    u = rng.random(n_items)
    u_hi = np.where(rng.random(n_items) < 0.7, u, rng.random(n_items))  # correlated difficulty
    human_en, human_hi = (u < P_EN).astype(float), (u_hi < P_HI).astype(float)
    judge_hi = np.where((human_hi == 0) & (rng.random(n_items) < LENIENT), 1.0, human_hi)
    return human_en, human_hi, human_en.copy(), judge_hi


def one(
    rng: np.random.Generator, n_items: int, n_labels: int, alpha: float, design: str
) -> dict[str, tuple[float, float]]:
    h_en, h_hi, j_en, j_hi = world(rng, n_items)
    judge = jc.human_only(j_hi - j_en, None, alpha)  # the classical interval over all items' judge differences
    if design == "paired":  # the same items labelled in both languages
        labelled = rng.choice(n_items, n_labels, replace=False)
        human = jc.human_only(h_hi[labelled] - h_en[labelled], None, alpha)
        corrected = jc.paired_gap((h_hi[labelled], h_en[labelled]), (j_hi[labelled], j_en[labelled]), (j_hi, j_en),
                                  None, 1.0, alpha)  # fmt: skip
    else:  # each language's labels drawn on their own: two corrected means, the judge's terms item by item
        a, b = rng.choice(n_items, n_labels, replace=False), rng.choice(n_items, n_labels, replace=False)
        hi = jc.corrected(h_hi[a], j_hi[a], j_hi, None, alpha)
        en = jc.corrected(h_en[b], j_en[b], j_en, None, alpha)
        corrected = jc.gap_shared_items(hi, en, j_hi, j_en, 1.0, alpha)
        human = jc.gap(jc.human_only(h_hi[a], None, alpha), jc.human_only(h_en[b], None, alpha), 1.0, alpha)
    return {k: (e.lower, e.upper) for k, e in (("judge only", judge), ("human only", human), ("corrected", corrected))}


STRICT_EN, STRICT_X, STRICT = 0.13, 0.145, 0.15  # humans' contradictory rates; the judge's share of fine ones


def strict_world(rng: np.random.Generator, n_items: int) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Language → (human, judge) "contradictory" per question: exact in en and zh, too strict in es."""
    u = rng.random(n_items)
    out = {"en": ((u < STRICT_EN).astype(float),) * 2}
    for lang in ("es", "zh"):
        own = np.where(rng.random(n_items) < 0.9, u, rng.random(n_items))  # a question hard in one is hard in all
        human = (own < STRICT_X).astype(float)
        judge = np.where((human == 0) & (rng.random(n_items) < STRICT), 1.0, human) if lang == "es" else human
        out[lang] = (human, judge.copy())
    return out


def strict(args: argparse.Namespace) -> None:
    """The ``strict-es`` world (module doc): coverage and width of ppi-python's interval and the verdict's."""
    alpha = 0.025  # one-sided: the two-sided 95 % interval
    print(f"a judge exact in en and zh, too strict in es ({100 * STRICT:.0f} % of fine answers called contradictory); "
          f"{args.items} paired questions; {args.reps} repetitions; 95 % intervals of the gap en − X "
          f"(contradictory, lower is better)")  # fmt: skip
    print("coverage of the true gap by ppi-python's own interval and by the verdict's; the share of draws on the "
          "small-sample interval; intervals of no width (ppi-python's / the verdict's); the verdict's mean width")
    print(f"{'labels':>6}  {'lang':<4} {'ppi-python':>10} {'verdict':>8} {'small':>6} {'zero width':>11} "
          f"{'mean width':>10}")  # fmt: skip
    ok = True
    start = time.perf_counter()
    for n in (int(x) for x in args.labels.split(",")):
        rng = np.random.default_rng(args.seed + n)
        got: dict[str, list[tuple[bool, bool, bool, bool, float, bool]]] = {"es": [], "zh": []}
        for _ in range(args.reps):
            world = strict_world(rng, args.items)
            labelled = rng.choice(args.items, n, replace=False)
            (h_en, j_en) = world["en"]
            for lang in got:
                h, j = world[lang]
                true = -(h.mean() - h_en.mean())
                est = jc.paired_gap((h[labelled], h_en[labelled]), (j[labelled], j_en[labelled]), (j, j_en), None,
                                    -1.0, alpha)  # fmt: skip
                ppi = est.ppi_lower is not None and est.ppi_lower <= true <= est.ppi_upper  # type: ignore[operator]
                got[lang].append((bool(ppi), est.lower <= true <= est.upper, est.small_sample,
                                  est.upper - est.lower <= 0, est.upper - est.lower,
                                  est.ppi_lower == est.ppi_upper))  # fmt: skip
        for lang, runs in got.items():
            a = np.array(runs, dtype=float)
            cover = float(a[:, 1].mean())
            ok = ok and cover >= 0.90 and not a[:, 3].any()
            zero = f"{int(a[:, 5].sum())} / {int(a[:, 3].sum())}"
            print(f"{n:>6}  {lang:<4} {100 * a[:, 0].mean():>9.1f}% {100 * cover:>7.1f}% {100 * a[:, 2].mean():>5.0f}% "
                  f"{zero:>11} {a[:, 4].mean():>10.3f}")  # fmt: skip
    print(f"target: the verdict's interval covers the true gap in ≥ 90 % at every n, never of zero width: {ok}  "
          f"({time.perf_counter() - start:.1f} s)")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scenario", choices=("strict-es", "lenient-hi"), default="strict-es")
    ap.add_argument("--reps", type=int, default=None, help="repetitions (strict-es: 1000; lenient-hi: 500)")
    ap.add_argument("--items", type=int, default=None, help="questions (strict-es: 700; lenient-hi: 1000)")
    ap.add_argument("--labels", default=None, help="labels per language (strict-es: 10,14,20,30; lenient-hi: "
                    "50,100,200)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--design", choices=("paired", "independent"), default="paired",
                    help="the humans label the same items in both languages, or each language's own draw")
    ap.add_argument("--figure", type=Path, default=None, help="write the coverage and width figure (PNG) here")
    args = ap.parse_args()
    lenient = args.scenario == "lenient-hi"
    args.reps = args.reps or (500 if lenient else 1000)
    args.items = args.items or (1000 if lenient else 700)
    args.labels = args.labels or ("50,100,200" if lenient else "10,14,20,30")
    if not lenient:
        strict(args)
        return
    alpha = 0.025  # one-sided: the two-sided 95 % interval
    start = time.perf_counter()
    results: dict[int, dict[str, tuple[float, float]]] = {}
    print(f"true gap {TRUE_GAP:+.2f}; judge lenient by {100 * (1 - P_HI) * LENIENT:.0f} points in Hindi; "
          f"{args.items} items; {args.reps} repetitions; labels {args.design}")  # fmt: skip
    print(f"{'labels':>6}  {'interval':<11} {'coverage':>8}  {'mean width':>10}")
    for n in (int(x) for x in args.labels.split(",")):
        rng = np.random.default_rng(args.seed + n)
        runs = [one(rng, args.items, n, alpha, args.design) for _ in range(args.reps)]
        results[n] = {}
        for kind in ("judge only", "human only", "corrected"):
            bounds = np.array([r[kind] for r in runs])
            cover = float(np.mean((bounds[:, 0] <= TRUE_GAP) & (bounds[:, 1] >= TRUE_GAP)))
            width = float(np.mean(bounds[:, 1] - bounds[:, 0]))
            results[n][kind] = (cover, width)
            print(f"{n:>6}  {kind:<11} {100 * cover:>7.1f}%  {width:>10.4f}")
    ok_cover = all(results[n]["corrected"][0] >= 0.93 for n in results)
    ok_judge = all(results[n]["judge only"][0] < 0.50 for n in results)
    ok_width = all(results[n]["corrected"][1] < results[n]["human only"][1] for n in results)
    print(f"targets: corrected coverage ≥ 93 % at every n: {ok_cover}; judge-only coverage < 50 %: {ok_judge}; "
          f"corrected narrower than human-only: {ok_width}  ({time.perf_counter() - start:.1f} s)")  # fmt: skip
    if args.figure is not None:
        figure(results, args.figure)
        print(f"wrote {args.figure}")


def figure(results: dict[int, dict[str, tuple[float, float]]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    kinds = ("judge only", "human only", "corrected")
    labels = sorted(results)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9, 3.4))
    x = np.arange(len(labels))
    for k, kind in enumerate(kinds):
        ax1.bar(x + (k - 1) * 0.27, [100 * results[n][kind][0] for n in labels], 0.27, label=kind)
        ax2.bar(x + (k - 1) * 0.27, [results[n][kind][1] for n in labels], 0.27, label=kind)
    ax1.axhline(95, color="black", lw=0.8, ls="--")
    ax1.set(xticks=x, xticklabels=labels, xlabel="human labels per language", ylabel="coverage of the true gap (%)",
            ylim=(0, 100))  # fmt: skip
    ax2.set(xticks=x, xticklabels=labels, xlabel="human labels per language", ylabel="mean width of the 95% interval")
    ax2.legend(fontsize=8, loc="upper right")
    fig.suptitle("A judge lenient by 10 points in Hindi: 95% intervals of the Hindi − English gap")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


if __name__ == "__main__":
    main()
