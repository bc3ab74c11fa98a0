"""What an importer reads from another tool's logs: one ``ImportedAnswer`` per scored sample, in one ``ImportedLog``.

The readers (``lm_eval.py``, ``inspect_log.py``, ``lighteval.py``) turn each tool's per-sample records into these;
``run_folder.py`` writes a run folder from them. A reader never guesses: a record it cannot place (no language,
no item id, no per-sample metric) is a ``DataError`` naming the file, the line and the field.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from xlingmed.errors import ConfigError, DataError
from xlingmed.imported import ImportedAnswer as ImportedAnswer  # its home is below the tasks
from xlingmed.types import declare_parse_methods

# How the source tool read a reply, as parse methods (``parsing/methods.py`` counts them per language):
# ``source_filter`` its filter or scorer gave an answer; ``source_unread`` it gave none (lm-eval's "[invalid]", an
# empty match); ``source_loglikelihood`` the option the model's log-likelihoods ranked first (nothing to read).
declare_parse_methods({"source_filter": "read", "source_unread": "unread", "source_loglikelihood": "read"})
UNREAD_ANSWERS = frozenset({"", "[invalid]", "none", "null"})
MAX_SCORE = 1e9  # a per-sample metric (accuracy, F1, BLEU…) is far smaller; 1e308 would make every mean infinite
MAX_REPLY_CHARS = 1_000_000  # one reply; the longest reasoning traces are a few hundred thousand characters


@dataclass
class ImportedLog:
    """Every answer of the files imported, and where they came from (``manifest.json``'s ``imported``).

    Attributes:
        metric: the per-sample metric taken, or several joined by ``, `` (``metrics`` has each task's).
        metrics: source task → the per-sample metric taken for it.
        counts: source task → ``{"logged": samples read, "expected": what the tool's results file says, or
            None where there is none}`` (``check_counts``).
        partial: the tasks imported with fewer samples than the results file says (``--allow-partial``).
        model_path: the local path the model was given as, where the log named one (``model`` is its name).
        models_logged: the models the files name (``xlingmed import`` refuses several unless ``--model`` names
            the one they are).
    """

    tool: str
    version: str | None
    model: str
    metric: str
    answers: list[ImportedAnswer]
    tasks: list[str]
    files: list[dict[str, str]]  # {"path", "sha256"}
    settings: dict[str, Any] = field(default_factory=dict)  # generation settings, as the source recorded them
    metrics: dict[str, str] = field(default_factory=dict)
    counts: dict[str, dict[str, int | None]] = field(default_factory=dict)
    partial: list[str] = field(default_factory=list)
    model_path: str | None = None
    models_logged: list[str] = field(default_factory=list)  # every model the files name, where they name several

    @property
    def languages(self) -> list[str]:
        """The languages present, English first (the reference), then in order of first appearance."""
        seen = list(dict.fromkeys(a.lang for a in self.answers))
        return sorted(seen, key=lambda lang: (lang != "en", seen.index(lang)))


def get_path(record: Any, path: str) -> Any:
    """The value at ``path`` in a nested record: ``doc.sample_id``, ``metadata.item_id``, ``doc.options.0``;
    several paths joined by ``+`` give their values joined by ``/`` (Belebele: ``doc.link+doc.question_number``).

    Raises:
        KeyError: a part of the path is missing (the message is the part).
    """
    if "+" in path:
        return "/".join(str(get_path(record, p.strip())) for p in path.split("+"))
    value = record
    for part in path.split("."):
        if isinstance(value, Mapping) and part in value:
            value = value[part]
        elif isinstance(value, Sequence) and not isinstance(value, str) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        elif hasattr(value, part) and not isinstance(value, Mapping | str):
            value = getattr(value, part)
        else:
            raise KeyError(part)
    if value is None:
        raise KeyError(path)
    return value


def language_code(raw: Any, where: str, what: str) -> str:
    """The run folder's code of a language another tool wrote (``languages.codes.code_of``): any BCP-47 tag or
    ISO 639 code (``ca``, ``pt-BR``, FLORES ``hin_Deva``), or an English name (``Spanish``).

    Raises:
        DataError: not a language, with the reason (where and what was read named).
    """
    from xlingmed.languages.codes import UnknownLanguage, code_of

    try:
        return code_of(raw)
    except UnknownLanguage as exc:
        raise DataError(f"{what}: {exc} (--language CODE gives it, --language-from names another field)",
                        file=where) from None  # fmt: skip


def check_counts(counts: Mapping[str, Mapping[str, int | None]], tool: str, results: str,
                 allow_partial: bool) -> list[str]:  # fmt: skip
    """The tasks whose logged samples are fewer or more than the tool's own results file says (a samples file cut
    short, an excerpt of a long run), which ``allow_partial`` accepts.

    Args:
        counts: task → ``{"logged", "expected"}`` (``expected`` None: no results file to compare with).
        results: what the results file calls the count, for the message (``n-samples``, ``total_samples``).

    Raises:
        ConfigError: a count differs and ``allow_partial`` is false (the first such task named, with both counts).
    """
    partial = [t for t, c in counts.items() if c.get("expected") is not None and c["logged"] != c["expected"]]
    if partial and not allow_partial:
        t = partial[0]
        more = f" (and {len(partial) - 1} more tasks)" if len(partial) > 1 else ""
        raise ConfigError(
            f"task {t}: {counts[t]['logged']} samples in the log, {tool}'s results file says {counts[t]['expected']} "
            f"({results}){more}: a truncated or partial copy? --allow-partial imports it anyway, and says so"
        )
    return partial


def model_name(raw: str, prefix: str) -> tuple[str, str | None]:
    """``provider/model`` from the model a tool logged, and the local path it was given as (``None`` if none):
    ``/data/ckpt/Qwen2.5-7B`` → ``(prefix/Qwen2.5-7B, "/data/ckpt/Qwen2.5-7B")``; ``Qwen/Qwen2.5-7B`` stays."""
    text = str(raw).strip().rstrip("/\\")
    if text.startswith(("/", "./", "../", "~")) or re.match(r"^[A-Za-z]:[\\/]", text) or "\\" in text:
        last = re.split(r"[\\/]", text)[-1]
        return f"{prefix}/{last}", str(raw)
    return (text if "/" in text else f"{prefix}/{text}"), None


def check_answers(answers: Sequence[ImportedAnswer], source: str) -> None:
    """Every (item, language) once per task; every score finite; every reply under ``MAX_REPLY_CHARS``.

    Raises:
        DataError: a non-finite or huge score, or an oversized reply (the record named).
        ConfigError: nothing was imported, or an item appears twice in a language (the pairing field is not an
            id: ``--pair-by`` names another).
    """
    if not answers:
        raise ConfigError(f"{source}: no scored samples found")
    seen: dict[tuple[str, str, str], str] = {}
    for a in answers:
        if a.correct is not None and not (math.isfinite(a.correct) and abs(a.correct) <= MAX_SCORE):
            raise DataError(f"{a.where}: per-sample score {a.correct!r} is not a finite score (|score| ≤ "
                            f"{MAX_SCORE:g}); its mean would be meaningless")  # fmt: skip
        if a.reply is not None and len(a.reply) > MAX_REPLY_CHARS:
            raise DataError(f"{a.where}: a reply of {len(a.reply):,} characters (the cap is {MAX_REPLY_CHARS:,})")
        key = (a.task, a.item_id, a.lang)  # two tasks may share ids: they are kept apart (run_folder._apart)
        if key in seen:
            raise ConfigError(
                f"item {a.item_id!r} appears twice in language {a.lang} ({seen[key]} and {a.where}): the pairing "
                "field is not an item id; name one with --pair-by"
            )
        seen[key] = a.where
