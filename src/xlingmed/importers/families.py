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
from typing import Any

from xlingmed.errors import DataError
from xlingmed.importers.base import get_path, language_code


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


def place(
    task: str, record: Any, where: str, *, language_from: str | None = None, pair_by: str | None = None
) -> tuple[str, str]:
    """``(item_id, lang)`` of one sample of ``task``.

    Args:
        record: the sample as the tool logged it (``doc``, ``metadata``… reachable by field path).
        where: ``file:line``, named in errors.
        language_from: ``task`` (the task name), or a field path; default: the family's rule, else a language
            field, else the task name's trailing code.
        pair_by: the item id's field path(s); default: the family's, else the first of ``ID_FIELDS`` present.

    Raises:
        DataError: no language or no item id can be found, or the language is unknown (file and line named).
    """
    family = family_of(task)
    lang = _language(task, family, record, where, language_from)
    if lang is None:
        raise DataError(
            f"task {task}: no language mapping (no language code in the task name, none of "
            f"{', '.join(LANGUAGE_FIELDS)}); name one with --language-from FIELD",
            file=where,
        )
    paths = [pair_by] if pair_by else [family.pair_by] if family else list(ID_FIELDS)
    item = _first(record, paths)
    if item is None:
        raise DataError(
            f"task {task}: no item id to pair languages by (no field {' or '.join(paths)}); name one with --pair-by",
            file=where,
        )
    return str(item[1]), lang


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
    if trailing is not None:  # a code at the end of the name counts only when it is a language xlingmed knows
        try:
            return language_code(trailing.group("lang"), where, "")
        except DataError:
            return None
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
