"""lm-evaluation-harness's ``--log_samples`` output: ``samples_<task>_<date>.jsonl`` and ``results_<date>.json``.

A samples line holds ``doc`` (the dataset row), ``target``, ``arguments`` (the prompt), ``resps`` (the raw
replies: text for ``generate_until``, ``[log-likelihood, is-greedy]`` per option for ``multiple_choice``),
``filtered_resps`` (what the task's filter read), ``filter`` and, per metric named in ``metrics``, its per-sample
value at the top level (``"exact_match": 1.0``). The results file gives the tool's version, the model and the
task configs (output type, filters, metrics). Read as lm-eval 0.4 writes them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from xlingmed.benchmarks.xlinghealth import sha256_file
from xlingmed.errors import ConfigError, DataError
from xlingmed.importers.base import UNREAD_ANSWERS, ImportedAnswer, ImportedLog, check_answers
from xlingmed.importers.families import options_of, place

_SAMPLES = re.compile(r"^samples_(?P<task>.+)_(?P<date>\d{4}-\d{2}-\d{2}T[\d\-.]+)\.jsonl$")
_RESULTS = re.compile(r"^results_.*\.json$")
METRICS = ("acc", "exact_match", "acc_norm")  # the per-sample outcome looked for first, when --metric is not given


def _files(paths: Sequence[Path]) -> tuple[list[Path], list[Path]]:
    samples: list[Path] = []
    results: list[Path] = []
    for path in paths:
        found = sorted(path.rglob("*")) if path.is_dir() else [path]
        if not path.exists():
            raise DataError("no such file or folder", file=str(path))
        samples += [p for p in found if _SAMPLES.match(p.name)]
        results += [p for p in found if _RESULTS.match(p.name)]
    if not samples:
        raise ConfigError(
            f"{', '.join(map(str, paths))}: no lm-evaluation-harness samples files (samples_<task>_<date>.jsonl, "
            "written by lm_eval --log_samples)"
        )
    return samples, results


def _lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                raise DataError("not a JSON record (a truncated or damaged file?)", file=f"{path}:{n}") from None
            if not isinstance(record, dict):
                raise DataError("not a JSON object", file=f"{path}:{n}")
            yield n, record


def _prompt(arguments: Any) -> str | None:
    """The last user message of the first request (a chat model's prompt is a JSON list of messages)."""
    try:
        first = next(iter(arguments.values()))["arg_0"]
    except (AttributeError, KeyError, StopIteration, TypeError):
        return None
    text = first[0] if isinstance(first, list) and first else first
    if not isinstance(text, str):
        return None
    try:
        messages = json.loads(text)
        users = [m["content"] for m in messages if m.get("role") == "user"]
        return str(users[-1]) if users else text
    except (json.JSONDecodeError, TypeError, AttributeError, KeyError):
        return text


def _loglikelihood_choice(filtered: Any) -> int | None:
    """The option the log-likelihoods rank first: ``filtered_resps`` is ``[[ll, greedy], …]`` or ``[ll, …]``."""
    try:
        scores = [float(r[0] if isinstance(r, list | tuple) else r) for r in filtered]
    except (TypeError, ValueError, IndexError):
        return None
    return max(range(len(scores)), key=scores.__getitem__) if scores else None


def _answer(task: str, record: dict[str, Any], where: str, metric: str, output_type: str, filter_name: str | None,
            language_from: str | None, pair_by: str | None) -> ImportedAnswer | None:  # fmt: skip
    for key in ("doc", "resps", "filtered_resps"):
        if key not in record:
            raise DataError(f"no field {key!r}: not an lm-evaluation-harness samples line", file=where)
    if filter_name is not None and record.get("filter", filter_name) != filter_name:
        return None  # another filter's reading of the same sample
    if metric not in record:
        names = [m for m in record.get("metrics", []) if m in record]
        raise DataError(f"task {task}: no per-sample metric {metric!r} (this task has {', '.join(names)}; "
                        "--metric picks one)", file=where)  # fmt: skip
    value = record[metric]
    if value not in (0, 1, 0.0, 1.0, True, False):
        raise DataError(f"task {task}: metric {metric!r} is {value!r}, not 0 or 1 per sample (--metric picks a "
                        "per-sample 0/1 metric such as acc or exact_match)", file=where)  # fmt: skip
    item_id, lang = place(task, record, where, language_from=language_from, pair_by=pair_by)
    options = options_of(task, record)
    target = record.get("target")
    if output_type == "generate_until":
        replies = record["resps"]
        reply = replies[0][0] if replies and isinstance(replies[0], list) and replies[0] else None
        filtered = record["filtered_resps"]
        said = filtered[0] if isinstance(filtered, list) and filtered else filtered
        said_text = None if said is None or str(said).strip().lower() in UNREAD_ANSWERS else str(said).strip()
        gold = str(target).strip() if target is not None else None
        return ImportedAnswer(task, item_id, lang, float(value), gold, said_text,
                              "source_filter" if said_text is not None else "source_unread",
                              reply=None if reply is None else str(reply), prompt=_prompt(record.get("arguments")),
                              options=options, where=where)  # fmt: skip
    picked = _loglikelihood_choice(record["filtered_resps"])
    # the gold option's index: an int, or its digits as text (lm-eval 0.4 logs "1")
    gold_index = int(target) if isinstance(target, int) or (isinstance(target, str) and target.isdigit()) else None
    return ImportedAnswer(task, item_id, lang, float(value), None if gold_index is None else chr(65 + gold_index),
                          None if picked is None else chr(65 + picked), "source_loglikelihood",
                          prompt=_prompt(record.get("arguments")), options=options, where=where)  # fmt: skip


def read(paths: Sequence[Path], *, metric: str | None = None, language_from: str | None = None,
         pair_by: str | None = None) -> ImportedLog:  # fmt: skip
    """Every sample of the lm-evaluation-harness output under ``paths`` (files or folders).

    Args:
        metric: the per-sample 0/1 metric to take as the outcome; default the first of ``METRICS`` the samples
            carry.

    Raises:
        ConfigError: no samples files, or samples of several models.
        DataError: a line that is not JSON (a truncated file), lacks a field, or cannot be placed (file, line).
    """
    samples, results = _files(paths)
    meta: dict[str, Any] = {}
    for path in results:
        try:
            meta.update({k: v for k, v in json.loads(path.read_text(encoding="utf-8")).items() if k not in meta})
        except (json.JSONDecodeError, AttributeError):
            raise DataError("not an lm-evaluation-harness results file (not a JSON object)", file=str(path)) from None
    configs = meta.get("configs", {}) if isinstance(meta.get("configs"), dict) else {}
    answers: list[ImportedAnswer] = []
    tasks: list[str] = []
    chosen: str | None = metric
    filters: dict[str, str | None] = {}
    for path in samples:
        task = _SAMPLES.match(path.name).group("task")  # type: ignore[union-attr]
        tasks.append(task)
        config = configs.get(task, {})
        listed = [f.get("name") for f in config.get("filter_list", []) if isinstance(f, dict)]
        for n, record in _lines(path):
            where = f"{path}:{n}"
            if chosen is None:
                named = [m for m in record.get("metrics", []) if m in record]
                chosen = next((m for m in METRICS if m in named), named[0] if named else "acc")
            if task not in filters:  # a task with several filters logs each sample once per filter: the first
                filters[task] = listed[0] if listed else record.get("filter")
            output_type = config.get("output_type") or (
                "generate_until" if record.get("resps") and isinstance(record["resps"][0][0], str) else "loglikelihood"
            )
            answer = _answer(task, record, where, chosen, output_type, filters[task], language_from, pair_by)
            if answer is not None:
                answers.append(answer)
    check_answers(answers, "lm-eval")
    config = meta.get("config", {}) if isinstance(meta.get("config"), dict) else {}
    args: dict[str, Any] = config["model_args"] if isinstance(config.get("model_args"), dict) else {}
    model = str(meta.get("model_name") or args.get("model") or args.get("pretrained") or "unknown")
    return ImportedLog(
        tool="lm-evaluation-harness",
        version=meta.get("lm_eval_version"),
        model=model if "/" in model else f"{config.get('model', 'lm-eval')}/{model}",
        metric=str(chosen),
        answers=answers,
        tasks=tasks,
        files=[{"path": str(p), "sha256": sha256_file(p)} for p in [*samples, *results]],
        settings={"gen_kwargs": config.get("gen_kwargs"), "filters": filters, "backend": config.get("model"),
                  "temperature": _temperature(config, [configs.get(t, {}) for t in tasks]),
                  "output_types": {t: configs.get(t, {}).get("output_type") for t in tasks}},
    )  # fmt: skip


def _temperature(config: dict[str, Any], tasks: list[dict[str, Any]]) -> float | None:
    """The sampling temperature: ``--gen_kwargs`` first, else the first task's ``generation_kwargs``."""
    for kwargs in (config.get("gen_kwargs"), *(t.get("generation_kwargs") for t in tasks)):
        if isinstance(kwargs, dict) and isinstance(kwargs.get("temperature"), int | float):
            return float(kwargs["temperature"])
    return None
