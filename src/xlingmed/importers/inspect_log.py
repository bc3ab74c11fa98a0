"""inspect_ai's logs (``.eval`` or ``.json``), read with inspect_ai's own ``read_eval_log``.

A log is one task run on one model: ``log.eval`` (task, model, created, packages, generation config) and its
samples (``id``, ``epoch``, ``input``, ``target``, ``choices``, ``output.completion``, ``scores`` by scorer name:
``value`` and the ``answer`` it read, ``metadata``). A sample's language and item id come from its metadata (or
``--language-from`` / ``--pair-by``, field paths such as ``metadata.lang``); the outcome is the first scorer's
value (``C``/``I``, or 1/0) unless ``--metric`` names another scorer.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from xlingmed.caps import check_input_file
from xlingmed.errors import ConfigError, DataError
from xlingmed.hashing import sha256_file
from xlingmed.importers.base import (
    UNREAD_ANSWERS,
    ImportedAnswer,
    ImportedLog,
    check_answers,
    check_counts,
    model_name,
)
from xlingmed.importers.families import LanguageOption, options_of, place


def _read_eval_log() -> Any:
    try:
        from inspect_ai.log import read_eval_log
    except ImportError as exc:
        raise ConfigError(
            f"reading inspect_ai logs needs inspect_ai ({exc}): pip install 'xlingmed[inspect]'"
        ) from None
    return read_eval_log


def _files(paths: Sequence[Path]) -> list[Path]:
    found: list[Path] = []
    for path in paths:
        if not path.exists():
            raise DataError("no such file or folder", file=str(path))
        found += sorted(p for p in path.rglob("*") if p.suffix in (".eval", ".json")) if path.is_dir() else [path]
    if not found:
        raise ConfigError(f"{', '.join(map(str, paths))}: no inspect_ai logs (.eval or .json)")
    for path in found:
        check_input_file(path)  # a plain file, its zip members' expanded sizes under the cap (caps.py)
    return found


def _text(value: Any) -> str | None:
    """A sample's input or target as text (a chat input: its last user message)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, list):
        users = [getattr(m, "text", None) or getattr(m, "content", None) for m in value
                 if getattr(m, "role", None) == "user"]  # fmt: skip
        texts = [u for u in users if isinstance(u, str)]
        if texts:
            return texts[-1]
        if all(isinstance(v, str) for v in value):
            return ", ".join(value)
    return str(value)


def _answer(task: str, sample: Any, where: str, metric: str | None, placing: dict[str, Any]) -> ImportedAnswer:
    scores = sample.scores or {}
    name = metric or next(iter(scores), None)
    value: float | None = None
    said = None
    if scores:  # a sample with none is one whose scorer failed: kept, with no outcome (a loss)
        if name not in scores:
            raise DataError(f"task {task}: no scorer {name!r} (this log has {', '.join(scores)}; --metric picks "
                            "one)", file=where)  # fmt: skip
        value, said = _number(scores[name].value, task, str(name), where), scores[name].answer
    record = {"id": sample.id, "metadata": sample.metadata or {}, "choices": list(sample.choices or []),
              "target": sample.target}  # fmt: skip
    item_id, lang, _ = place(task, record, where, position=sample.id, **placing)
    said_text = None if said is None or str(said).strip().lower() in UNREAD_ANSWERS else str(said).strip()
    reply = sample.output.completion if sample.output is not None else None
    return ImportedAnswer(task, item_id, lang, value, _text(sample.target), said_text,
                          "source_filter" if said_text is not None else "source_unread", reply=reply,
                          prompt=_text(sample.input), options=options_of(task, record), where=where)  # fmt: skip


def _number(value: Any, task: str, scorer: str, where: str) -> float:
    """A score's value as inspect_ai's own metrics read it (``value_to_float``: C 1, I 0, P 0.5, a number as it
    is), so that a mean equals inspect's accuracy or mean.

    Raises:
        DataError: a value that is no number nor a grade (a dict of several values: --metric names one scorer).
    """
    if isinstance(value, bool | int | float) or (isinstance(value, str) and value.strip()):
        from inspect_ai.scorer import value_to_float

        try:
            return float(value_to_float()(value))
        except (TypeError, ValueError):
            pass
    raise DataError(f"task {task}: scorer {scorer!r} gave {str(value)[:60]!r}, not one number per sample", file=where)


def _open_log(read_eval_log: Any, path: Path, allow_partial: bool) -> Any:
    """One inspect_ai log, read and checked: finished (unless ``allow_partial``), and scored."""
    try:
        log = read_eval_log(str(path))
    except Exception as exc:  # inspect_ai raises its own and pydantic's errors for a foreign or damaged file
        raise DataError(f"not an inspect_ai log ({type(exc).__name__}: {str(exc)[:200]})", file=str(path)) from None
    task = log.eval.task
    if log.status != "success" and not allow_partial:
        raise ConfigError(f"{path}: the inspect_ai run did not finish (status {log.status}); "
                          "--allow-partial imports the samples it scored, and says so")  # fmt: skip
    if not any(s.scores for s in log.samples or []):
        raise ConfigError(f"{path}: task {task} has no scores (run with --no-score, or its scorer failed); "
                          f"`inspect score {path}` scores it, then import the scored log")  # fmt: skip
    return log


def _model(logged: str) -> tuple[str, str | None]:
    """The model's name and path (``model_name``) from inspect's ``provider/model``; as logged where it names no
    file."""
    provider, _, rest = logged.partition("/")
    model, model_path = model_name(rest, provider) if rest else (logged, None)
    if model_path is None:  # inspect's name is provider/model already (openai-api/local/smollm2): as logged
        model = logged
    return model, model_path


def read(paths: Sequence[Path], *, metric: str | None = None, language_from: str | None = None,
         pair_by: str | None = None, language: LanguageOption | None = None,
         allow_partial: bool = False) -> ImportedLog:  # fmt: skip
    """Every sample (first epoch) of the inspect_ai logs under ``paths``.

    Raises:
        ConfigError: no logs, inspect_ai missing, logs of several models, a log that carries no score at all; a
            log that did not finish or has fewer samples than its ``results.total_samples`` (unless
            ``allow_partial``).
        DataError: a file inspect_ai cannot read, or a sample that cannot be placed (file and sample named).
    """
    read_eval_log = _read_eval_log()
    answers: list[ImportedAnswer] = []
    tasks: list[str] = []
    models: set[str] = set()
    settings: dict[str, Any] = {}
    counts: dict[str, dict[str, int | None]] = {}
    scorers: dict[str, str] = {}
    unfinished: list[str] = []  # tasks of logs that did not finish (cancelled, error), imported with allow_partial
    version = None
    files = _files(paths)
    language = language or LanguageOption()
    for path in files:
        log = _open_log(read_eval_log, path, allow_partial)
        task = log.eval.task
        if log.status != "success":
            unfinished.append(task)
        tasks.append(task)
        models.add(log.eval.model)
        version = (log.eval.packages or {}).get("inspect_ai", version)
        config = log.eval.model_generate_config
        settings[task] = {"created": log.eval.created, "generate_config": config.model_dump(exclude_none=True)
                          if config is not None else {}}  # fmt: skip
        placing = {"language": language.of(task, path), "language_from": language_from, "pair_by": pair_by}
        results = log.results
        expected = None if results is None else (results.logged_samples or results.total_samples)
        counts[task] = {"logged": len(log.samples or []), "expected": expected}
        # the scorer taken, by its name (the source's metric, under which source_metric keeps a non-0/1 value)
        scorers[task] = metric or next((str(next(iter(s.scores))) for s in log.samples or [] if s.scores), "score")
        for n, sample in enumerate(log.samples or [], start=1):
            if sample.epoch != 1:  # the first epoch: one answer per item and language (the rest are counted)
                settings[task]["later_epochs_left_out"] = settings[task].get("later_epochs_left_out", 0) + 1
                continue
            answers.append(_answer(task, sample, f"{path}:sample {n} ({sample.id})", metric, placing))
    language.check_used(tasks, files)
    if len(models) > 1:
        raise ConfigError(f"logs of several models ({', '.join(sorted(models))}): import each model into its own run")
    check_answers(answers, "inspect")
    partial = check_counts(counts, "inspect_ai", "results.total_samples", allow_partial)
    partial += [t for t in unfinished if t not in partial]
    first: dict[str, Any] = next((s["generate_config"] for s in settings.values()), {})
    model, model_path = _model(models.pop())
    return ImportedLog(
        tool="inspect_ai", version=version, model=model, metric=", ".join(dict.fromkeys(scorers.values())),
        answers=answers,
        tasks=tasks, files=[{"path": str(p), "sha256": sha256_file(p)} for p in files],
        settings={"tasks": settings, "temperature": first.get("temperature")},
        metrics=scorers, counts=counts, partial=partial, model_path=model_path,
    )  # fmt: skip
