"""Multiple choice from another tool's logs (``TaskSpec.from_imported``): each ``ImportedAnswer`` becomes a
multiple-choice record, scored as a run's are, so the report, the verdicts and the explorer work on an import as
on any run. The source's reading and outcome are kept beside xlingmed's (``source_prediction``,
``source_parse_method``, ``source_correct``)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from xlingmed.imported import ImportContext, ImportedAnswer
from xlingmed.tasks.multiple_choice.task import MultipleChoiceTask

# metrics that are 0/1 per sample by their definition (lm-eval, inspect_ai's scorers, lighteval): taken as accuracy
# even where every sample has the same value
BINARY_METRICS = frozenset({"acc", "acc_norm", "exact_match", "em", "accuracy", "correct", "choice", "match",
                            "pattern", "includes", "exact", "pass@1", "quasi_exact_match", "prefix_exact_match",
                            "loglikelihood_acc", "loglikelihood_acc_norm"})  # fmt: skip


def from_imported(
    answers: Sequence[ImportedAnswer], context: ImportContext
) -> tuple[MultipleChoiceTask, list[dict[str, Any]]] | None:
    """The task that scores the imported answers, and their rows (``imported_rows``); ``None`` where an outcome is
    not 0/1 (an F1, a BLEU, a 0–100 score is no accuracy: another task takes those)."""
    values = {a.correct for a in answers if a.correct is not None}
    if not values <= {0.0, 1.0}:
        return None
    if len(values) < 2 and context.metric.split(",")[0].lower() not in BINARY_METRICS:
        # one value throughout (every sample 0, say) under a name that is no accuracy's: a 0-100 score that is 0
        # everywhere cannot be told from a 0/1 outcome, so it is kept as the metric it is named
        return None
    # the summary's cells are per temperature: a log that states none is filed under 0 (its manifest says null)
    logged = context.temperature
    unstated = logged is None
    task = MultipleChoiceTask(template={}, temperatures=(0.0 if logged is None else logged,),
                              prompt_source=f"imported from {context.tool}"
                              + (" (temperature not logged: filed under 0)" if unstated else ""))  # fmt: skip
    return task, imported_rows(answers, context)


def _label(text: str | None, options: dict[str, str]) -> str | None:
    """A reading or a target as an option label where it is one (``"B"``, ``"(B)"``, ``"b"``) or is an option's
    text; otherwise as it is (compared as text)."""
    if text is None:
        return None
    bare = text.strip().strip("()[].:").strip()
    if bare.upper() in options or (not options and re.fullmatch(r"[A-Za-z]", bare)):
        return bare.upper()
    by_text = {v.strip().lower(): k for k, v in options.items()}
    return by_text.get(text.strip().lower(), text.strip())


def imported_rows(answers: Sequence[ImportedAnswer], context: ImportContext) -> list[dict[str, Any]]:
    """One multiple-choice record per answer (``MultipleChoiceTask.record``'s columns, and the source's reading
    beside xlingmed's): by default the outcome is the source's own per-sample metric and the reading its filter's;
    with ``context.rescore`` xlingmed reads each raw reply again.

    A task ``rescore`` cannot read (no reply text, no options) keeps the source's reading (``_rescore``).
    """
    temperature = 0.0 if context.temperature is None else context.temperature
    out: list[dict[str, Any]] = []
    for a, category in zip(answers, context.categories, strict=True):
        gold = _label(a.gold, dict(a.options))
        source = _label(a.source_answer, dict(a.options))
        row: dict[str, Any] = {
            "item_id": a.item_id, "lang": a.lang, "temperature": temperature, "condition": "original", "bias": None,
            "bias_code": None, "bias_target": None, "category": category,
            "gold": gold, "prediction": source, "parse_method": a.source_method, "valid": source is not None,
            "correct": None if a.correct is None else a.correct == 1.0, "followed_bias": None, "response": a.reply,
            "extractor_prediction": None, "extractor_method": None, "flags": "", "error": None,
            "source_task": a.task, "source_prediction": source, "source_parse_method": a.source_method,
            "source_correct": a.correct, "source_line": a.where,
        }  # fmt: skip
        out.append(row)
    if context.rescore:
        _rescore(out, answers, context.answer_marker, context.reading)
    return out


def _rescore(
    rows: list[dict[str, Any]], answers: Sequence[ImportedAnswer], marker: str | None = None, reading: str = "strict"
) -> None:
    """xlingmed's reading of every reply, on every core (``parsing.batch``), with the labels its prompt showed.

    A source task whose samples have no reply text (ranked by log-likelihood) or carry no options keeps the
    source's reading and outcome, its rows marked ``rescore_skipped`` with the reason (named in the import's
    note); the other tasks are read again, with the answer marker given (``--answer-marker``) or the one each
    logged prompt asks for (``parsing.answer_line.asked_marker``) read first."""
    from xlingmed.parsing.answer_line import asked_marker
    from xlingmed.parsing.batch import ChoiceReply, read_choices

    skipped: dict[str, str] = {}
    for a in answers:
        if a.task in skipped:
            continue
        if a.reply is None:
            skipped[a.task] = "no reply text (the options ranked by log-likelihood)"
        elif not a.options:
            skipped[a.task] = "no options in the log to read the reply against"
    chosen = [(row, a) for row, a in zip(rows, answers, strict=True) if a.task not in skipped]
    for row, a in zip(rows, answers, strict=True):
        row["rescore_skipped"] = skipped.get(a.task)
    replies = [
        ChoiceReply(a.reply or "", tuple(a.options), dict(a.options), labels_shown(a.prompt, a.options), reading,
                    tuple(m for m in (marker or asked_marker(a.prompt),) if m))
        for _, a in chosen
    ]  # fmt: skip
    for (row, _), parsed in zip(chosen, read_choices(replies) if replies else [], strict=True):
        row["prediction"], row["parse_method"] = parsed.value, parsed.method
        row["valid"] = parsed.value is not None
        row["correct"] = parsed.value == row["gold"]


_SCHEMES = (tuple(str(k) for k in range(1, 11)), tuple("①②③④⑤⑥⑦⑧⑨⑩"), tuple("abcdefghij"))


def labels_shown(prompt: str | None, options: Mapping[str, str]) -> tuple[str, ...] | None:
    """The labels the source's prompt printed before the options, where they were numbers (``1.``), circled numbers
    (``①``) or lower-case letters (``a)``): each option's text on a line that opens with its label. ``None``
    otherwise (capital letters, or a prompt the log did not keep): the reply is read with letters."""
    texts = [" ".join(str(v).split())[:40] for v in options.values()]
    if not prompt or not texts or not all(texts):
        return None
    prompt = re.sub(r"[ \t]+", " ", prompt)
    for scheme in _SCHEMES:
        shown = scheme[: len(texts)]
        if len(shown) == len(texts) and all(
            re.search(rf"(?m)^[ \t*]*{re.escape(x)}[ \t]*[.):]?[ \t]*{re.escape(t)}", prompt)
            for x, t in zip(shown, texts, strict=True)
        ):
            return shown
    return None
