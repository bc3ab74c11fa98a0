"""What an importer reads from another tool's logs: one ``ImportedAnswer`` per scored sample, in one ``ImportedLog``.

The readers (``lm_eval.py``, ``inspect_log.py``, ``lighteval.py``) turn each tool's per-sample records into these;
``run_folder.py`` writes a run folder from them. A reader never guesses: a record it cannot place (no language,
no item id, no per-sample metric) is a ``DataError`` naming the file, the line and the field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from xlingmed.errors import ConfigError, DataError
from xlingmed.imported import ImportedAnswer as ImportedAnswer  # its home is below the tasks
from xlingmed.languages import LANGUAGES
from xlingmed.types import declare_parse_methods

# How the source tool read a reply, as parse methods (``parsing/methods.py`` counts them per language):
# ``source_filter`` its filter or scorer gave an answer; ``source_unread`` it gave none (lm-eval's "[invalid]", an
# empty match); ``source_loglikelihood`` the option the model's log-likelihoods ranked first (nothing to read).
declare_parse_methods({"source_filter": "read", "source_unread": "unread", "source_loglikelihood": "read"})
UNREAD_ANSWERS = frozenset({"", "[invalid]", "none", "null"})


@dataclass
class ImportedLog:
    """Every answer of the files imported, and where they came from (``manifest.json``'s ``imported``)."""

    tool: str
    version: str | None
    model: str
    metric: str
    answers: list[ImportedAnswer]
    tasks: list[str]
    files: list[dict[str, str]]  # {"path", "sha256"}
    settings: dict[str, Any] = field(default_factory=dict)  # generation settings, as the source recorded them

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
    """An ISO 639-1 code the registry knows, from a code, an English name, a locale (``pt-BR``) or a FLORES code
    (``hin_Deva``, ``arb_Arab``: ``langcodes`` maps three-letter and macrolanguage codes).

    Raises:
        DataError: not a language xlingmed knows (the message says where and what was read).
    """
    import langcodes

    text = str(raw).strip()
    names = {lang.name.lower(): code for code, lang in LANGUAGES.items()}
    if text.lower() in names:
        return names[text.lower()]
    try:
        code = langcodes.Language.get(langcodes.standardize_tag(text.replace("_", "-"), macro=True)).language
    except (ValueError, LookupError):
        code = None
    if code in LANGUAGES:
        return str(code)
    raise DataError(f"{what} {text!r} is not a language xlingmed knows (--language-from names another field)",
                    file=where)  # fmt: skip


def check_answers(answers: Sequence[ImportedAnswer], source: str) -> None:
    """Every (item, language) once per task, and English (or some reference) present.

    Raises:
        ConfigError: nothing was imported, or an item appears twice in a language (the pairing field is not an
            id: ``--pair-by`` names another).
    """
    if not answers:
        raise ConfigError(f"{source}: no scored samples found")
    seen: dict[tuple[str, str], str] = {}
    for a in answers:
        key = (a.item_id, a.lang)
        if key in seen:
            raise ConfigError(
                f"item {a.item_id!r} appears twice in language {a.lang} ({seen[key]} and {a.where}): the pairing "
                "field is not an item id; name one with --pair-by"
            )
        seen[key] = a.where
