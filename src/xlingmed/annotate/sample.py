"""Build an annotation set from a run's judge outputs: a stratified sample per language and judge label.

The paper sampled 10 % of each correctness label for its medical experts (App. C). ``build_annotation_set``
takes ``fraction`` of each (language, label) stratum of a judged task's decisions (its view's ``annotation``:
``correctness.csv``, ``rubric.csv``, ``healthbench.csv``, ``safety.csv``…) — at least one item per non-empty
stratum, so rare labels such as "contradictory" are always checked — in an order fixed by ``seed``. Items whose
judge call failed are left out (there is nothing to check). The set is a folder:

* ``set.json``: the source run, the sha256 of the file sampled, fraction, seed, strata sizes, labels.
* ``items.jsonl``: one item per line: ``id`` (``item_id:lang``), question, expert answer, model answer, the
  judge's reasoning and label.
* ``annotators.json``: annotator name → secret token (the only copy; file mode 0600).
* ``answers.sqlite``: created by the first answer (``answers.py``).

``set.json`` has no ``kind`` (or ``kind: "judge"``); a translation-rating set (``translations.py``) has
``kind: "translation"`` and ``ratings.sqlite`` instead of ``answers.sqlite``.
"""

from __future__ import annotations

import json
import math
import random
import secrets
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xlingmed import output
from xlingmed.errors import ConfigError, DataError
from xlingmed.hashing import sha256_file
from xlingmed.tasks.run_views import annotatable
from xlingmed.views.base import ANNOTATION_FIELDS, Annotation

ITEM_FIELDS = ANNOTATION_FIELDS[1:]
OPTIONAL_FIELDS = ("weight",)  # a part's share of its item's outcome (HealthBench: a criterion's points)


def set_item(row: dict[str, Any]) -> dict[str, Any]:
    """A judged row as an item of the set: its id, ``ITEM_FIELDS`` and the ``OPTIONAL_FIELDS`` it has."""
    return {"id": row["id"], **{f: row[f] for f in ITEM_FIELDS},
            **{f: row[f] for f in OPTIONAL_FIELDS if row.get(f) is not None}}  # fmt: skip


def unit_key(row: dict[str, Any]) -> str:
    """What a judged row checks, the same in every language: its question (``q1`` of ``q1:hi`` and of safety's
    ``q1:hi:0.5``: a verdict reads the question's mean over its temperatures), or, for a part of the question's
    outcome (a row with a ``weight``), that part (``q1:0.5:3`` of HealthBench's criterion ``q1:hi:0.5:3``)."""
    item, lang, ident = str(row.get("item_id") or ""), str(row.get("lang") or ""), str(row["id"])
    prefix = f"{item}:{lang}"
    if row.get("weight") is None:
        return item or ident.rsplit(":", 1)[0]
    if item and ident.startswith(prefix):
        return item + ident[len(prefix):]
    return ident.rsplit(":", 1)[0]
KINDS = ("judge", "translation")


@dataclass(frozen=True)
class AnnotationSet:
    """A loaded annotation set: its folder, settings, items (in annotation order) and annotators' tokens."""

    path: Path
    settings: dict[str, Any]
    items: list[dict[str, Any]]
    annotators: dict[str, str]

    @property
    def kind(self) -> str:
        """``judge`` (checking a judge's labels; sets written before kinds existed) or ``translation``."""
        return str(self.settings.get("kind", "judge"))

    @property
    def labels(self) -> list[str]:
        return list(self.settings["labels"])

    def annotator_for(self, token: str) -> str | None:
        """The annotator whose secret token this is (constant-time comparison), else ``None``."""
        found = None
        for name, secret in self.annotators.items():
            if secrets.compare_digest(secret.encode(), token.encode()):
                found = name
        return found


def _stratified(
    rows: list[dict[str, Any]], fraction: float, stratify: str, per_language: bool, seed: int
) -> tuple[list[dict[str, Any]], dict[str, dict[str, int]]]:
    """``fraction`` of each stratum (language × judge label, as asked; at least one), shuffled, and the strata's
    sizes (``"lang|label"`` → stratum, sampled)."""
    strata: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in sorted(rows, key=lambda r: r["id"]):
        strata[(r["lang"] if per_language else "*", r["label"] if stratify == "label" else "*")].append(r)
    rng = random.Random(seed)
    picked: list[dict[str, Any]] = []
    sizes = {}
    for key in sorted(strata):
        group = strata[key]
        n = max(1, math.ceil(fraction * len(group) - 1e-9))
        chosen = rng.sample(group, n)
        sizes[f"{key[0]}|{key[1]}"] = {"stratum": len(group), "sampled": n}
        picked.extend(chosen)
    rng.shuffle(picked)  # annotators see languages and labels mixed, not the judge's label order
    return picked, sizes


def build_annotation_set(
    run_dir: Path,
    out_dir: Path,
    *,
    fraction: float = 0.1,
    stratify: str = "label",
    per_language: bool = True,
    seed: int = 0,
    annotators: Sequence[str] = ("annotator1", "annotator2"),
    task: str | None = None,
    paired: bool = False,
) -> AnnotationSet:
    """Sample ``fraction`` of every stratum of a judged task's decisions in a run (the task's view says which:
    ``views.base.Annotation``; correctness labels, rubric means, HealthBench criteria, safety harm…).

    Args:
        run_dir: a finished run folder with ``correctness.csv``.
        out_dir: the annotation set folder to create (must not exist yet).
        fraction: share of each stratum, 0 < fraction ≤ 1; each non-empty stratum gives at least one item.
        stratify: ``label`` (the judge label) or ``none``.
        per_language: strata per language (else across languages).
        seed: fixes which items are drawn and their order.
        annotators: names; each gets a secret token.
        task: the judged task to sample; ``None`` = the run's first task that has judge decisions.
        paired: draw ``fraction`` of the questions judged in every language at random (no strata) and take each in
            every language: the humans label the same items in all languages, so a judge-corrected gap is taken
            item by item (``analysis.corrected_verdicts``); ``set.json`` says ``paired: true``.

    Returns:
        the set, as ``load_annotation_set`` reads it.

    Raises:
        ConfigError: bad fraction / stratify / annotator names, or ``out_dir`` exists.
        DataError: no judged task's table in ``run_dir`` (or not ``task``'s), or it lacks a column (named).
    """
    if not 0 < fraction <= 1:
        raise ConfigError(f"--fraction must be in (0, 1], got {fraction}")
    if stratify not in ("label", "none"):
        raise ConfigError(f"--stratify must be label or none, got {stratify!r}")
    names = check_new_set(out_dir, annotators)
    task, found = judged_rows(Path(run_dir), task)
    source, rows, labels, names_of = found.source, found.rows, found.labels, found.label_names
    if not rows:
        raise DataError("no judged item to annotate (every judge call failed or was skipped)", file=str(source))
    if paired:
        return _paired_set(run_dir, out_dir, task, found, fraction, seed, names)
    picked, sizes = _stratified(rows, fraction, stratify, per_language, seed)
    items = [set_item(r) for r in picked]
    settings = {
        "source_run": str(Path(run_dir).resolve()), "source_file": source.name, "source_sha256": sha256_file(source),
        "task": task, "fraction": fraction, "stratify": stratify, "per_language": per_language, "seed": seed,
        "strata": sizes, "labels": labels, "label_names": names_of, "label_column": found.label_column,
        "n_items": len(items),
    }  # fmt: skip
    return write_set(out_dir, settings, items, names)


def paired_items(found: Annotation) -> tuple[dict[str, dict[str, dict[str, Any]]], list[str]]:
    """(unit key → language → its judged row, for what was judged in every language; the languages). A unit is a
    question, or a part of one (``unit_key``: HealthBench's criterion at a temperature)."""
    by_item: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for r in found.rows:
        by_item[unit_key(r)][str(r["lang"])] = r
    langs = sorted({str(r["lang"]) for r in found.rows})
    return {i: by for i, by in by_item.items() if len(by) == len(langs)}, langs


def _paired_set(
    run_dir: Path, out_dir: Path, task: str, found: Annotation, fraction: float, seed: int, names: Sequence[str]
) -> AnnotationSet:
    """``build_annotation_set(paired=True)``: the same questions in every language, drawn at random."""
    by_item, langs = paired_items(found)
    complete = sorted(by_item)
    if not complete:
        raise DataError("no question was judged in every language: a paired set needs some", file=str(found.source))
    rng = random.Random(seed)
    chosen = rng.sample(complete, max(1, math.ceil(fraction * len(complete) - 1e-9)))
    picked = [by_item[i][lg] for i in chosen for lg in langs]
    rng.shuffle(picked)
    items = [set_item(r) for r in picked]
    settings = {
        "source_run": str(Path(run_dir).resolve()), "source_file": found.source.name,
        "source_sha256": sha256_file(found.source), "task": task, "fraction": fraction, "stratify": "none",
        "per_language": True, "paired": True, "seed": seed,
        "strata": {f"{lg}|*": {"stratum": len(complete), "sampled": len(chosen)} for lg in langs},
        "labels": found.labels, "label_names": found.label_names, "label_column": found.label_column,
        "n_items": len(items),
    }  # fmt: skip
    return write_set(out_dir, settings, items, names)


def check_new_set(out_dir: Path, annotators: Sequence[str]) -> list[str]:
    """The annotator names, checked, for a set to be created at ``out_dir``.

    Raises:
        ConfigError: names that are not distinct simple names, or ``out_dir`` exists (never overwritten).
    """
    names = [a.strip() for a in annotators if a.strip()]
    if not names or len(set(names)) != len(names) or any(not n.isidentifier() for n in names):
        raise ConfigError(f"--annotators: distinct simple names (letters, digits, _), got {list(annotators)}")
    if Path(out_dir).exists():
        raise ConfigError(f"{out_dir} exists: an annotation set is never overwritten (its answers live there)")
    return names


def write_set(
    out_dir: Path, settings: dict[str, Any], items: Sequence[dict[str, Any]], names: Sequence[str]
) -> AnnotationSet:
    """Write a set folder at once (staged, then renamed): ``set.json``, ``items.jsonl`` and ``annotators.json``
    with a fresh secret token per annotator; the folder is owner-only (0700, its files 0600)."""
    tokens = {name: secrets.token_urlsafe(24) for name in names}
    # owner-only as a whole (0700, files 0600): the replies it shows and the annotators' secret tokens
    with output.staged_dir(out_dir, private=True) as staging:
        output.write_json(staging / "set.json", settings)
        output.write_jsonl(staging / "items.jsonl", items)
        output.write_json(staging / "annotators.json", tokens)
    return load_annotation_set(out_dir)


def judged_rows(run_dir: Path, task: str | None) -> tuple[str, Annotation]:
    """(task, its judge decisions) of a run: ``task``'s, else the first of the run's tasks (``summary.json``'s
    order) whose view gives some (``tasks.run_views.annotatable``).

    Raises:
        DataError: no task of the run has judge decisions to check (or not ``task``).
    """
    from xlingmed.tasks.registry import task_specs

    summary = run_dir / "summary.json"
    try:
        order = list(json.loads(summary.read_text(encoding="utf-8")).get("tasks", {})) if summary.is_file() else []
    except json.JSONDecodeError as exc:
        raise DataError(f"not JSON ({exc})", file=str(summary)) from None
    order += [t for t in task_specs() if t not in order]
    found = annotatable(run_dir, [task] if task else order)
    if not found:
        judged = [t for t, spec in task_specs().items() if spec.judged]
        raise DataError(
            f"no judge decisions to annotate{f' for task {task!r}' if task else ''}: sample a run of a judged task "
            f"({', '.join(judged)})", file=str(run_dir),
        )  # fmt: skip
    name = next(iter(found))
    return name, found[name]


def load_judge_set(path: Path) -> AnnotationSet:
    """``load_annotation_set`` for a judge check (what a report's ``--annotations`` takes).

    Raises:
        DataError: as ``load_annotation_set``.
        ConfigError: a translation-rating set (nothing is created in its folder).
    """
    aset = load_annotation_set(path)
    if aset.kind != "judge":
        raise ConfigError(
            f"{aset.path} is a {aset.kind}-rating set, not a judge check: export it with xlingmed annotate export"
        )
    return aset


def _check_set_files(path: Path, settings: Any, annotators: Any, items: Any) -> None:
    """The shapes the app relies on, checked once where the files are read (a set may come from someone else: a
    token that is no string made every page of ``annotate serve`` answer 500).

    Raises:
        DataError: the file and what is wrong in it.
    """
    if not isinstance(settings, dict):
        raise DataError("set.json must hold an object", file=str(path / "set.json"))
    labels = settings.get("labels", [])
    if not isinstance(labels, list) or not all(isinstance(x, str) for x in labels):
        raise DataError("labels must be a list of texts", file=str(path / "set.json"))
    if not isinstance(annotators, dict) or not all(isinstance(k, str) and isinstance(v, str) and v
                                                   for k, v in annotators.items()):  # fmt: skip
        raise DataError("annotators.json must map each annotator's name to a token (texts)",
                        file=str(path / "annotators.json"))  # fmt: skip
    tokens = list(annotators.values())
    if len(set(tokens)) != len(tokens):
        raise DataError("two annotators share one token (each opens the other's answers)",
                        file=str(path / "annotators.json"))  # fmt: skip
    names = settings.get("label_names", {})
    if not isinstance(names, dict) or not all(isinstance(v, str) for v in names.values()):
        raise DataError("label_names must map each label to its name (texts)", file=str(path / "set.json"))
    kind = settings.get("kind", "judge")
    needed = ("id", "lang", "label") if kind == "judge" else ("id", "lang", "source_lang", "field")
    seen: set[str] = set()
    for n, item in enumerate(items, start=1):
        where = str(path / "items.jsonl")
        if not isinstance(item, dict):
            raise DataError(f"line {n} is not a JSON object", file=where)
        missing = [k for k in needed if not isinstance(item.get(k), str)]
        if missing:
            raise DataError(f"line {n}: {', '.join(missing)} must be text (a {kind} set's item)", file=where)
        if item["id"] in seen:
            raise DataError(f"line {n}: item {item['id']!r} appears twice", file=where)
        seen.add(item["id"])
        if kind == "judge" and item["label"] not in labels:
            raise DataError(f"line {n}: the judge's label {item['label']!r} is not one of the set's labels", file=where)
    if kind == "judge" and items and not labels:
        raise DataError("a judge check needs its labels", file=str(path / "set.json"))


def load_annotation_set(path: Path) -> AnnotationSet:
    """Read an annotation set folder.

    Either kind: a judge-check set (``build_annotation_set``) or a translation-rating set
    (``build_translation_set``); ``AnnotationSet.kind`` tells which.

    Raises:
        DataError: a missing or malformed file (named), or an unknown ``kind`` in ``set.json``.
    """
    path = Path(path)
    try:
        settings = json.loads((path / "set.json").read_text(encoding="utf-8"))
        annotators = json.loads((path / "annotators.json").read_text(encoding="utf-8"))
        # split on "\n" only: str.splitlines() also splits on U+2028, U+2029 and U+0085, which JSON keeps raw
        items = [json.loads(line) for line in (path / "items.jsonl").read_text(encoding="utf-8").split("\n") if line]
    except (OSError, ValueError, RecursionError) as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise DataError(f"not an annotation set ({str(exc)[:160]})", file=str(path)) from None
    _check_set_files(path, settings, annotators, items)
    aset = AnnotationSet(path, settings, items, annotators)
    if aset.kind not in KINDS:
        raise DataError(f"unknown set kind {aset.kind!r}; known: {', '.join(KINDS)}", file=str(path / "set.json"))
    return aset
