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
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from xlingmed.caps import capped_lines, check_input_file, regular_file
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

_SAMPLES = re.compile(r"^samples_(?P<task>.+)_(?P<date>\d{4}-\d{2}-\d{2}T[\d\-.]+)\.jsonl$")
_RESULTS = re.compile(r"^results_.*\.json$")
RECORD_FIELDS = ("doc_id", "doc", "target", "arguments", "resps", "filtered_resps", "filter", "metrics")
PER_TASK = ("configs", "n-samples", "results", "versions", "n-shot", "higher_is_better")  # keyed by task
METRICS = ("acc", "exact_match", "acc_norm")  # the per-sample outcome looked for first, when --metric is not given


def _files(paths: Sequence[Path]) -> tuple[list[Path], list[Path]]:
    samples: list[Path] = []
    results: list[Path] = []
    for path in paths:
        found = sorted(path.rglob("*")) if path.is_dir() else [path]
        if not path.exists():
            raise DataError("no such file or folder", file=str(path))
        samples += [p for p in found if _SAMPLES.match(p.name)]
        results += [p for p in found if _RESULTS.match(p.name) or _is_results(p)]
    for path in results:
        check_input_file(path)  # a plain file under the size cap (caps.py); samples are read line by line
    if not samples:
        raise ConfigError(
            f"{', '.join(map(str, paths))}: no lm-evaluation-harness samples files (samples_<task>_<date>.jsonl, "
            "written by lm_eval --log_samples)"
        )
    return samples, results


def _is_results(path: Path) -> bool:
    """A results file renamed by its user (``gsm8k-phi-3-mini_<date>.json``): a ``.json`` beside the samples whose
    object has lm-eval's ``results`` and ``configs`` (read only where the name says nothing)."""
    if path.suffix != ".json" or _RESULTS.match(path.name) or not regular_file(path):
        return False  # a FIFO named like a log would block the read
    if path.stat().st_size > 50_000_000:
        return False
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return False
    return isinstance(found, dict) and isinstance(found.get("results"), dict) and "configs" in found


def _lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    for n, line in capped_lines(path):  # a plain file, lines under the cap, UTF-8 (caps.py)
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
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


def _value(task: str, record: dict[str, Any], metric: str, where: str) -> float | None:
    """The sample's per-sample ``metric`` as a number (``None`` where it logged none).

    Raises:
        DataError: the task has no such metric, or its value is no number (a perplexity's tuple, aggregated
            across samples: no per-sample outcome).
    """
    if metric not in record:
        names = [k for k, v in record.items() if k not in RECORD_FIELDS and not k.endswith("_hash")]
        raise DataError(f"task {task}: no per-sample metric {metric!r} (this task has {', '.join(names) or 'none'}; "
                        "--metric picks one)", file=where)  # fmt: skip
    value = record[metric]
    if value is None or isinstance(value, bool | int | float):
        return None if value is None else float(value)
    raise DataError(f"task {task}: metric {metric!r} is {str(value)[:60]!r} per sample, no number (it is aggregated "
                    "across samples); --metric picks a per-sample metric", file=where)  # fmt: skip


def _answer(task: str, record: dict[str, Any], where: str, metric: str, output_type: str, filter_name: str | None,
            place_options: dict[str, Any]) -> ImportedAnswer | None:  # fmt: skip
    for key in ("doc", "resps", "filtered_resps"):
        if key not in record:
            raise DataError(f"no field {key!r}: not an lm-evaluation-harness samples line", file=where)
    if filter_name is not None and record.get("filter", filter_name) != filter_name:
        return None  # another filter's reading of the same sample
    value = _value(task, record, metric, where)
    item_id, lang, _ = place(task, record, where, position=record.get("doc_id"), **place_options)
    options = options_of(task, record)
    target = record.get("target")
    prompt = _prompt(record.get("arguments"))
    if output_type == "generate_until":
        replies = record["resps"]
        reply = replies[0][0] if replies and isinstance(replies[0], list) and replies[0] else None
        filtered = record["filtered_resps"]
        said = filtered[0] if isinstance(filtered, list) and filtered else filtered
        said_text = None if said is None or str(said).strip().lower() in UNREAD_ANSWERS else str(said).strip()
        gold = str(target).strip() if target is not None else None
        return ImportedAnswer(task, item_id, lang, value, gold, said_text,
                              "source_filter" if said_text is not None else "source_unread",
                              reply=None if reply is None else str(reply), prompt=prompt, options=options,
                              where=where)  # fmt: skip
    if output_type != "multiple_choice":
        # loglikelihood (one continuation: is it the greedy one?) or loglikelihood_rolling: no options, and the
        # target is the continuation's text, never an option's index (an arithmetic task's " 63")
        greedy = _greedy(record["filtered_resps"])
        gold = None if target is None else str(target)
        return ImportedAnswer(task, item_id, lang, value, gold, None if greedy is None else
                              (gold if greedy else NOT_GREEDY), "source_loglikelihood", prompt=prompt,
                              where=where)  # fmt: skip
    picked = _loglikelihood_choice(record["filtered_resps"])
    # the gold option's index: an int, or its digits as text (lm-eval 0.4 logs "1")
    gold_index = int(target) if isinstance(target, int) or (isinstance(target, str) and target.isdigit()) else None
    return ImportedAnswer(task, item_id, lang, value, None if gold_index is None else chr(65 + gold_index),
                          None if picked is None else chr(65 + picked), "source_loglikelihood", prompt=prompt,
                          options=options, where=where)  # fmt: skip


NOT_GREEDY = "[another continuation]"  # a loglikelihood sample whose target is not the model's greedy continuation


def _greedy(filtered: Any) -> bool | None:
    """Whether a ``loglikelihood`` sample's continuation is the model's greedy one (``[ll, is_greedy]``)."""
    first = filtered[0] if isinstance(filtered, list) and filtered and isinstance(filtered[0], list) else filtered
    if isinstance(first, list | tuple) and len(first) == 2:
        flag = first[1]  # a bool, or its text in logs that wrote every value as a string ("False")
        if isinstance(flag, bool):
            return flag
        if str(flag) in ("True", "False"):
            return str(flag) == "True"
    return None


def _output_type(config: dict[str, Any], record: dict[str, Any]) -> str:
    """The task's output type: its config's, else read from the line (no results file): a text reply is generated,
    one ``[log-likelihood, is-greedy]`` pair is a single continuation (``loglikelihood``: its target is text, never
    an option's index), several pairs rank options (``multiple_choice``)."""
    if config.get("output_type"):
        return str(config["output_type"])
    resps = record.get("resps")
    if not (isinstance(resps, list) and resps and isinstance(resps[0], list) and resps[0]):
        return "generate_until"
    if _greedy(resps[0]) is None:  # no [log-likelihood, is-greedy] pair (logged as values or as text): a reply
        return "generate_until"
    return "loglikelihood" if len(resps) == 1 else "multiple_choice"


def _results_meta(results: list[Path]) -> tuple[dict[str, Any], dict[str, str]]:
    """The results files joined (per-task tables task by task, else the first file's value), and the model as each
    names it → the file."""
    meta: dict[str, Any] = {}
    models: dict[str, str] = {}  # model as each results file names it → the file
    for path in results:
        try:
            found = json.loads(path.read_text(encoding="utf-8"))
            for key, value in found.items():  # per-task tables of several runs' files are joined, task by task
                if key in PER_TASK and isinstance(value, dict) and isinstance(meta.get(key), dict):
                    meta[key] = {**value, **meta[key]}
                else:
                    meta.setdefault(key, value)
        except (json.JSONDecodeError, AttributeError):
            raise DataError("not an lm-evaluation-harness results file (not a JSON object)", file=str(path)) from None
        models.setdefault(_model_of(found), str(path))
    return meta, models


def _check_filter(metric: str | None, task: str, wanted_filter: str, listed: list[Any]) -> None:
    """``ConfigError`` where ``--metric METRIC,FILTER`` names a filter the task does not list."""
    if wanted_filter and listed and wanted_filter not in listed:
        raise ConfigError(f"--metric {metric}: task {task} has no filter {wanted_filter!r} (it has "
                          f"{', '.join(map(str, listed))})")  # fmt: skip


def read(paths: Sequence[Path], *, metric: str | None = None, language_from: str | None = None,
         pair_by: str | None = None, language: LanguageOption | None = None,
         allow_partial: bool = False) -> ImportedLog:  # fmt: skip
    """Every sample of the lm-evaluation-harness output under ``paths`` (files or folders).

    Args:
        metric: the per-sample metric to take as each task's outcome; default, per task, the first of ``METRICS``
            its samples carry, else its first metric.
        language: ``--language`` (``families.LanguageOption``).
        allow_partial: import a task whose samples are fewer than the results file's ``n-samples``.

    Raises:
        ConfigError: no samples files; a task's sample count differs from the results file's (unless
            ``allow_partial``).
        DataError: a line that is not JSON (a truncated file), lacks a field, or cannot be placed (file, line).
    """
    samples, results = _files(paths)
    meta, models = _results_meta(results)
    configs = meta.get("configs", {}) if isinstance(meta.get("configs"), dict) else {}
    language = language or LanguageOption()
    tasks = [_SAMPLES.match(p.name).group("task") for p in samples]  # type: ignore[union-attr]
    language.check_used(tasks, samples)
    answers: list[ImportedAnswer] = []
    metrics: dict[str, str] = {}
    filters: dict[str, str | None] = {}
    output_types: dict[str, str] = {}
    wanted, _, wanted_filter = (metric or "").partition(",")  # lm-eval's own "exact_match,flexible-extract"
    for task, path in zip(tasks, samples, strict=True):
        config = configs.get(task, {})
        listed = [f.get("name") for f in config.get("filter_list", []) if isinstance(f, dict)]
        declared = [m.get("metric") for m in config.get("metric_list", []) if isinstance(m, dict)]
        _check_filter(metric, task, wanted_filter, listed)
        placing = {"language": language.of(task, path), "language_from": language_from, "pair_by": pair_by}
        for n, record in _lines(path):
            where = f"{path}:{n}"
            if task not in metrics:
                # the metrics the line names, else those its task's config declares (older logs name none)
                named = [m for m in record.get("metrics", declared) if isinstance(m, str) and m in record]
                metrics[task] = wanted or next((m for m in METRICS if m in named), named[0] if named else "acc")
                # a task with several filters logs each sample once per filter: the one named, else the first
                filters[task] = wanted_filter or (listed[0] if listed else record.get("filter"))
                output_types[task] = _output_type(config, record)
            answer = _answer(task, record, where, metrics[task], output_types[task], filters[task], placing)
            if answer is not None:
                answers.append(answer)
    check_answers(answers, "lm-eval")
    counts = _counts(answers, tasks, meta)
    partial = check_counts(counts, "lm-evaluation-harness", "n-samples", allow_partial)
    config = meta.get("config", {}) if isinstance(meta.get("config"), dict) else {}
    model, model_path = model_name(*_raw_model(meta))
    return ImportedLog(
        tool="lm-evaluation-harness", version=meta.get("lm_eval_version"), model=model,
        metric=", ".join(dict.fromkeys(metrics.values())), answers=answers, tasks=tasks,
        files=[{"path": str(p), "sha256": sha256_file(p)} for p in [*samples, *results]],
        settings={"gen_kwargs": config.get("gen_kwargs"), "filters": filters, "backend": config.get("model"),
                  "temperature": _temperature(config, [configs.get(t, {}) for t in tasks]),
                  "output_types": output_types},
        metrics=metrics, counts=counts, partial=partial, model_path=model_path,
        models_logged=list(models),
    )  # fmt: skip


def _raw_model(meta: dict[str, Any]) -> tuple[str, str]:
    """(the model as the results file names it, its backend): ``model_name``, else ``model_args``' model or
    pretrained (a mapping, or the command line's text)."""
    config = meta.get("config", {}) if isinstance(meta.get("config"), dict) else {}
    args: dict[str, Any] = config["model_args"] if isinstance(config.get("model_args"), dict) else {}
    args = args or _model_args(config.get("model_args"))
    raw = str(meta.get("model_name") or args.get("model") or args.get("pretrained") or "unknown")
    return raw, str(config.get("model") or "lm-eval")


def _model_of(found: Any) -> str:
    return model_name(*_raw_model(found))[0] if isinstance(found, dict) else "unknown"


def _counts(answers: Sequence[ImportedAnswer], tasks: Sequence[str], meta: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Per task, the samples read and the results file's ``n-samples`` ``effective`` (after ``--limit``)."""
    logged = Counter(a.task for a in answers)
    listed: dict[str, Any] = meta["n-samples"] if isinstance(meta.get("n-samples"), dict) else {}
    out: dict[str, dict[str, Any]] = {}
    for task in tasks:
        entry = listed.get(task)
        expected = entry.get("effective", entry.get("original")) if isinstance(entry, dict) else None
        out[task] = {"logged": logged[task], "expected": int(expected) if isinstance(expected, int | float) else None}
    return out


def _model_args(text: Any) -> dict[str, Any]:
    """``model_args`` logged as its command-line text (``pretrained=/ckpt/x,dtype=float16``), as a mapping."""
    if not isinstance(text, str):
        return {}
    return dict(part.split("=", 1) for part in text.split(",") if "=" in part)


def _temperature(config: dict[str, Any], tasks: list[dict[str, Any]]) -> float | None:
    """The sampling temperature: ``--gen_kwargs`` first, else the first task's ``generation_kwargs``; ``None``
    where neither says (a log-likelihood task samples nothing)."""
    for kwargs in (config.get("gen_kwargs"), *(t.get("generation_kwargs") for t in tasks)):
        if isinstance(kwargs, dict) and isinstance(kwargs.get("temperature"), int | float):
            return float(kwargs["temperature"])
    return None
