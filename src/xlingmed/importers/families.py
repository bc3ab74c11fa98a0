"""Where an imported sample sits: its language and the item id that pairs it across languages, by task family.

The rules are data (``FAMILIES``): a family matches the source task's name, says where the language is (the
name's ``lang`` group, or a field) and which field is the item id shared by every language's copy of a question.
A task no family matches is placed by the fields every tool's logs commonly carry (``ID_FIELDS``,
``LANGUAGE_FIELDS``) and the name's trailing language code; ``--language-from`` and ``--pair-by`` override
both. Pairing by row position is never assumed: a parallel set's rows need not be in the same order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from xlingmed.errors import ConfigError, DataError
from xlingmed.importers.base import get_path, language_code
from xlingmed.languages import LANGUAGES


@dataclass(frozen=True)
class Family:
    """Placement rules for the tasks whose names match ``task`` (a regex; its ``lang`` group is the language).

    Attributes:
        pair_by: the field path of the item id (``doc.sample_id``; ``a+b`` joins several).
        options: the field paths of the options, in order (one path: a list of options).
    """

    name: str
    task: str
    pair_by: str
    options: tuple[str, ...] = ()


FAMILIES: tuple[Family, ...] = (
    # Global-MMLU (CohereForAI): global_mmlu_hi, global_mmlu_full_hi_anatomy; one sample_id per question
    Family("global_mmlu", r"^global_mmlu(?:_full)?_(?P<lang>[a-z]{2,3}(?:-[a-z]+)?)(?:_|$)", "doc.sample_id",
           ("doc.option_a", "doc.option_b", "doc.option_c", "doc.option_d")),
    # MMLU-ProX: mmlu_prox_hi_biology, mmlu_prox_lite_hi_biology; question_id from MMLU-Pro
    Family("mmlu_prox", r"^mmlu_prox_(?:lite_)?(?P<lang>[a-z]{2,3})(?:_|$)", "doc.question_id", ("doc.options",)),
    # Belebele: belebele_hin_Deva (FLORES codes); a passage's link and the question's number within it
    Family("belebele", r"^belebele_(?P<lang>[a-z]{3}_[A-Za-z]{4})$", "doc.link+doc.question_number",
           ("doc.mc_answer1", "doc.mc_answer2", "doc.mc_answer3", "doc.mc_answer4")),
)  # fmt: skip

# where a task no family matches keeps its item id and language, looked for in this order
ID_FIELDS = ("doc.item_id", "doc.id", "doc.question_id", "doc.sample_id", "doc.specific.item_id",
             "doc.specific.id", "metadata.item_id", "metadata.id", "metadata.question_id")  # fmt: skip
LANGUAGE_FIELDS = ("doc.language", "doc.lang", "doc.specific.language", "doc.specific.lang", "metadata.language",
                   "metadata.lang")  # fmt: skip
OPTION_FIELDS = (("doc.A", "doc.B", "doc.C", "doc.D", "doc.E"), ("doc.options",), ("doc.choices",),
                 ("metadata.options",), ("choices",))  # fmt: skip
# a language code at the end of a task name: mymc_en, mmlu-hi, mymc_en|0 (lighteval's few-shot suffix)
_TRAILING = re.compile(r"(?:^|[_\-.])(?P<lang>[a-z]{2,3}(?:_[A-Z][a-z]{3})?)(?:\|\d+)?$")


def family_of(task: str) -> Family | None:
    return next((f for f in FAMILIES if re.search(f.task, task)), None)


def _first(record: Any, paths: Sequence[str]) -> tuple[str, Any] | None:
    for path in paths:
        try:
            value = get_path(record, path)
        except KeyError:
            continue
        if str(value).strip():  # an empty id or language is none
            return path, value
    return None


class Placed(NamedTuple):
    """Where a sample sits: its item id, its language, and whether that id pairs it across languages (a family's
    rule, ``--pair-by`` or an id field; a record's position in its own file pairs nothing)."""

    item_id: str
    lang: str
    paired: bool = True


@dataclass(frozen=True)
class LanguageOption:
    """``--language``: one code for the whole log (``en``), or per task or file (``mmlu_th=th``,
    ``samples_x.jsonl=ca``); any BCP-47 code (``languages.codes``). It overrides what a name or a field says."""

    default: str | None = None
    named: tuple[tuple[str, str], ...] = ()

    @classmethod
    def parse(cls, specs: Sequence[str] | str | None) -> LanguageOption:
        """Raises: ConfigError: a code that is no language (the reason), or a name given twice."""
        from xlingmed.languages.codes import UnknownLanguage, code_of

        default: str | None = None
        named: dict[str, str] = {}
        for spec in [specs] if isinstance(specs, str) else list(specs or []):
            key, _, raw = spec.rpartition("=")
            try:
                code = code_of(raw)
            except UnknownLanguage as exc:
                raise ConfigError(f"--language {spec}: {exc}") from None
            if not key:
                if default is not None:
                    raise ConfigError(f"--language {spec}: the whole log's language is given twice ({default})")
                default = code
            elif named.setdefault(key, code) != code:
                raise ConfigError(f"--language {spec}: {key} is given two languages")
        return cls(default, tuple(named.items()))

    def of(self, task: str, file: Path) -> str | None:
        """The language given for ``task`` (its name, or without lighteval's ``|0``) or ``file`` (its name or
        path), else the whole log's, else ``None``."""
        keys = {task, re.sub(r"\|\d+$", "", task), file.name, str(file)}
        return next((code for key, code in self.named if key in keys), self.default)

    def check_used(self, tasks: Sequence[str], files: Sequence[Path]) -> None:
        """Raises: ConfigError: a ``TASK=CODE`` whose name is no task or file of the log (a typo would otherwise
        leave that task to what its name says)."""
        known = {*tasks, *(re.sub(r"\|\d+$", "", t) for t in tasks), *(f.name for f in files), *map(str, files)}
        for key, code in self.named:
            if key not in known:
                raise ConfigError(f"--language {key}={code}: no task or file {key!r} in the log (tasks: "
                                  f"{', '.join(dict.fromkeys(tasks))})")  # fmt: skip


def place(task: str, record: Any, where: str, *, language: str | None = None, language_from: str | None = None,
          pair_by: str | None = None, position: object = None) -> Placed:  # fmt: skip
    """The item id and language of one sample of ``task``.

    Args:
        record: the sample as the tool logged it (``doc``, ``metadata``… reachable by field path).
        where: ``file:line``, named in errors.
        language: the code ``--language`` gives this sample (``LanguageOption.of``); it overrides the rest.
        language_from: ``task`` (the task name), or a field path; default: the family's rule, else a language
            field, else the task name's trailing code.
        pair_by: the item id's field path(s); default: the family's, else the first of ``ID_FIELDS`` present.
        position: the record's own id within its task (lm-eval's ``doc_id``, a row): where no pairing field
            exists, the item is ``<task>#<position>``, which pairs with nothing (a one-language log needs none).

    Raises:
        DataError: no language or no item id can be found, or the language is not one (file and line named).
    """
    family = family_of(task)
    lang = language or _language(task, family, record, where, language_from)
    if lang is None:
        raise DataError(
            f"task {task}: no language (no language code in the task name, none of {', '.join(LANGUAGE_FIELDS)}); "
            "give it with --language CODE (the whole log), --language TASK=CODE or --language-from FIELD",
            file=where,
        )
    paths = [pair_by] if pair_by else [family.pair_by] if family else list(ID_FIELDS)
    item = _first(record, paths)
    if item is not None:
        return Placed(str(item[1]), lang)
    if position is not None and not pair_by and family is None:
        return Placed(f"{task}#{position}", lang, paired=False)
    raise DataError(
        f"task {task}: no item id to pair languages by (no field {' or '.join(paths)}); name one with --pair-by",
        file=where,
    )


def _language(task: str, family: Family | None, record: Any, where: str, language_from: str | None) -> str | None:
    if language_from not in (None, "task"):
        try:
            return language_code(get_path(record, str(language_from)), where, f"field {language_from}")
        except KeyError:
            raise DataError(f"task {task}: no field {language_from} (--language-from)", file=where) from None
    named = re.search(family.task, task) if family else None
    if named is not None:
        return language_code(named.group("lang"), where, f"the language in task name {task!r}")
    found = _first(record, LANGUAGE_FIELDS) if language_from is None else None
    if found is not None:
        return language_code(found[1], where, f"field {found[0]}")
    trailing = _TRAILING.search(task)
    if language_from == "task":  # asked for: the name's last part is the language, or the error says why not
        if trailing is None:
            raise DataError(f"task {task}: its name ends in no language code (--language-from task)", file=where)
        return language_code(trailing.group("lang"), where, f"the end of task name {task!r}")
    if trailing is not None:
        # unasked, a name's last part counts only as a two-letter code or one xlingmed has a file for: "mmlu_law"
        # ends in a valid ISO 639-3 code (Lauje) that is a subject, not a language
        code = trailing.group("lang")
        try:
            read = language_code(code, where, "")
        except DataError:
            return None
        return read if len(code) == 2 or read in LANGUAGES or "_" in code else None
    return None


def options_of(task: str, record: Any) -> dict[str, str]:
    """The options of a sample, label → text (A, B, C… in order), where its record holds them; ``{}`` if not."""
    family = family_of(task)
    for paths in [family.options] if family and family.options else OPTION_FIELDS:
        values: list[Any] = []
        for path in paths:
            try:
                values.append(get_path(record, path))
            except KeyError:
                break
        if not values:
            continue
        texts = values[0] if len(paths) == 1 and isinstance(values[0], list) else values
        if len(texts) >= 2 and all(isinstance(t, str | int | float) for t in texts):
            return {chr(ord("A") + i): str(t) for i, t in enumerate(texts)}
    return {}
