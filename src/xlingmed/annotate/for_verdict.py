"""``xlingmed annotate sample RUN --out NEW --for-verdict SET``: the further human labels that would decide the
judge-corrected verdicts still inconclusive, drawn as a new paired set.

The run's Scores and the sets already answered give the judge-corrected verdicts (``analysis.corrected_verdicts``);
each inconclusive one says how many labels per language would decide it at 80 % power if its estimate held
(``labels_needed``). The new set takes the largest shortfall in questions not labelled yet, drawn at random and
taken in every language (``paired``), so that the sets together are one simple random sample of the questions.

The plan is made at the margins and level of the report it is for (``planning``): ``--margin``/``--alpha`` where
given, else the report's own (its ``stats/verdicts.csv`` records each outcome's δ and α), else the defaults.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from xlingmed.annotate.sample import (
    AnnotationSet,
    check_new_set,
    judged_rows,
    load_judge_set,
    paired_items,
    set_item,
    unit_key,
    write_set,
)
from xlingmed.errors import ConfigError, DataError


def planning(
    run_dir: Path, sets: Sequence[Path], *, task: str | None = None, margin: str | None = None,
    alpha: float | None = None, report: Path | None = None,
) -> tuple[dict[str, float], float, str]:  # fmt: skip
    """(margins δ by outcome name, the one-sided α, where they came from in words) to plan further labels with:
    ``margin``/``alpha`` where given, else those of the report at ``report`` (default ``RUN/report``, where it
    exists: its ``stats/verdicts.csv``), else each outcome's default margin and 0.05.

    Raises:
        ConfigError: ``task`` other than the task the sets check (``--for-verdict`` would ignore it), a margin
            that names no outcome or is no positive number, α outside (0, 0.5).
        DataError: ``report`` given without a ``stats/verdicts.csv``, or one that cannot be read.
    """
    from xlingmed.analysis.verdicts import parse_margins
    from xlingmed.tasks.registry import task_outcomes

    tasks = task_outcomes()
    checked = str(load_judge_set(Path(sets[0])).settings.get("task"))
    if task is not None and task != checked:
        raise ConfigError(f"--task {task}: --for-verdict draws for the task its sets check ({checked}); drop --task")
    csv = Path(report if report is not None else Path(run_dir) / "report") / "stats" / "verdicts.csv"
    if report is not None and not csv.is_file():
        raise DataError("no stats/verdicts.csv here: not a report folder (xlingmed report)", file=str(report))
    found: dict[str, float] = {}
    level: float | None = None
    if csv.is_file():
        found, level = _report_plan(csv, tasks)
    margins = {**found, **parse_margins(margin, tasks)}
    said = [name for name, value in (("--margin", margin), ("--alpha", alpha)) if value]
    source = ", ".join(said + ([f"the report {csv}"] if found or level is not None else [])) or "the defaults"
    level = alpha if alpha is not None else (level if level is not None else 0.05)
    if not 0 < level < 0.5:
        raise ConfigError(f"--alpha {level}: the one-sided level must be between 0 and 0.5")
    return margins, level, source


def _report_plan(csv: Path, tasks: Mapping[str, Any]) -> tuple[dict[str, float], float | None]:
    """(δ by outcome, α) that a report's ``verdicts.csv`` records.

    Raises:
        DataError: a file that cannot be read, or without the columns outcome, margin and alpha.
    """
    import math

    import pandas as pd

    from xlingmed.analysis.verdicts import parse_margins
    from xlingmed.caps import check_input_file
    from xlingmed.cells import read_csv

    check_input_file(csv)
    try:
        table = read_csv(csv, ("outcome",))
    except (OSError, ValueError, pd.errors.ParserError) as exc:
        raise DataError(f"cannot read it ({str(exc)[:120]})", file=str(csv)) from None
    if table.empty:
        return {}, None
    missing = [c for c in ("outcome", "margin", "alpha") if c not in table]
    if missing:
        raise DataError(f"no column {', '.join(missing)}: not a report's verdicts.csv", file=str(csv))
    margins: dict[str, float] = {}
    for name, value in zip(table["outcome"], table["margin"], strict=True):
        if isinstance(value, (int, float)) and math.isfinite(float(value)) and float(value) > 0:
            margins[str(name).split(" (")[0]] = float(value)
    alphas = {float(a) for a in table["alpha"] if isinstance(a, (int, float)) and math.isfinite(float(a))}
    level = alphas.pop() if len(alphas) == 1 else None
    try:
        return parse_margins(margins, tasks), level
    except ConfigError as exc:
        raise DataError(str(exc), file=str(csv)) from None


def shortfall(run_dir: Path, sets: Sequence[Path], margins: Mapping[str, float] | None = None,
              alpha: float = 0.05) -> dict[str, int]:  # fmt: skip
    """Language → the further human labels its inconclusive judge-corrected verdicts need (the largest over the
    outcomes; languages whose verdicts labels cannot decide are left out).

    Raises:
        DataError: no set has a label yet, or the run has no Scores.
    """
    from xlingmed.analysis.corrected_verdicts import corrected_rows, label_value
    from xlingmed.analysis.run import read_scores
    from xlingmed.annotate import AnswerStore
    from xlingmed.annotate.human_labels import human_labels
    from xlingmed.tasks.registry import task_outcomes

    tasks = task_outcomes()
    answered = []
    for path in sets:
        aset = load_judge_set(Path(path))
        answered.append((aset, AnswerStore.read_all(aset.path / "answers.sqlite")))
    humans = human_labels(answered, label_value(tasks))
    if not any(h.values for h in humans.values()):
        raise DataError("no answer in these sets yet: label some items first", file=str(sets[0]))
    scores = read_scores(Path(run_dir), tasks)
    languages = sorted(set(scores["lang"]))
    need: dict[str, int] = {}
    for r in corrected_rows(scores, humans, languages, margins=margins, tasks=tasks, alpha=alpha):
        if r.verdict == "inconclusive" and r.labels_needed is not None:
            more = int(r.labels_needed) - int(r.human_labels)
            if more > 0:
                need[r.lang] = max(need.get(r.lang, 0), more)
    return need


def build_for_verdict(
    run_dir: Path, out_dir: Path, earlier: Sequence[Path], *, seed: int = 0,
    annotators: Sequence[str] = ("annotator1", "annotator2"), margins: Mapping[str, float] | None = None,
    alpha: float = 0.05,
) -> tuple[AnnotationSet, dict[str, int]]:  # fmt: skip
    """A new paired set of the questions the inconclusive verdicts still need (see the module doc), and the
    shortfall per language it was drawn for.

    Raises:
        ConfigError: ``out_dir`` exists or bad annotator names.
        DataError: nothing to draw for (every judge-corrected verdict is decided, or labels cannot decide them), or
            no unlabelled question is left.
    """
    names = check_new_set(out_dir, annotators)
    need = shortfall(run_dir, earlier, margins, alpha)
    if not need:
        raise DataError("no judge-corrected verdict that more labels would decide: nothing to draw",
                        file=str(run_dir))  # fmt: skip
    task = str(load_judge_set(Path(earlier[0])).settings.get("task"))
    task, found = judged_rows(Path(run_dir), task)
    done = {unit_key(it) for path in earlier for it in load_judge_set(Path(path)).items}
    by_item, langs = paired_items(found)
    pool = sorted(i for i in by_item if i not in done)
    if not pool:
        raise DataError("every question judged in every language is labelled already", file=str(run_dir))
    chosen = random.Random(seed).sample(pool, min(max(need.values()), len(pool)))
    picked = [by_item[i][lg] for i in chosen for lg in langs]
    random.Random(seed + 1).shuffle(picked)
    settings: dict[str, Any] = {
        "source_run": str(Path(run_dir).resolve()), "source_file": found.source.name, "task": task,
        "stratify": "none", "per_language": True, "paired": True, "seed": seed, "for_verdict": need,
        "after": [str(Path(p).resolve()) for p in earlier],
        "strata": {f"{lg}|*": {"stratum": len(pool), "sampled": len(chosen)} for lg in langs},
        "labels": found.labels, "label_names": found.label_names, "label_column": found.label_column,
    }  # fmt: skip
    items = [set_item(r) for r in picked]
    settings["n_items"] = len(items)
    return write_set(out_dir, settings, items, names), need
