"""Prompt templates kept as data: one YAML file per benchmark family, overridable per run.

``load_templates("medarabiq", override)`` reads ``prompts/medarabiq.yaml`` shipped with the package (and the hub
benchmarks' reference prompts, ``prompts/hub.yaml``) and lays the user's file (same keys, any subset) over it;
``render`` fills one template from an item. The XLingEval prompts
stay in their task modules because they are verbatim copies bound to the paper's parsers.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from xlingmed.errors import ConfigError
from xlingmed.languages import get_language, normalise_label, option_labels
from xlingmed.languages.base import CIRCLED
from xlingmed.parsing.syllable_labels import scheme_of
from xlingmed.safe_yaml import loads_yaml
from xlingmed.types import Item

EXTRAS = {"medarabiq": ("hub",)}  # further files whose templates a family's runs may name
TEMPLATE_KEYS = ("instruction", "labels_language", "raw", "structured", "answer_line")
FIELDS = frozenset(
    {
        "instruction",
        "question",
        "stem",
        "options",
        "question_label",
        "answer_label",
        "options_label",
        "answer_language",
        "reference",
        "response",
        "reply_label",
        "labels",
    }
)


def _read(text: str, where: str) -> dict[str, dict[str, str]]:
    data = loads_yaml(text, f"prompt templates {where}")  # capped, one-line errors (safe_yaml.py)
    if data is None:
        return {}
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise ConfigError(f"prompt templates {where}: expected a mapping of template name to its fields")
    return data


def load_templates(family: str, override: str | Path | None = None) -> dict[str, dict[str, str]]:
    """The templates of ``family`` (``medarabiq``), with ``override`` laid over them key by key.

    Raises:
        ConfigError: an unreadable override, an unknown template or key, or a template that names a field that
            does not exist (the message names the file, template and key).
    """
    base = _read(resources.files("xlingmed.prompts").joinpath(f"{family}.yaml").read_text("utf-8"), family)
    for extra in EXTRAS.get(family, ()):  # the hub benchmarks' reference prompts beside MedArabiQ's
        base.update(_read(resources.files("xlingmed.prompts").joinpath(f"{extra}.yaml").read_text("utf-8"), extra))
    if override is None:
        return base
    path = Path(override)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"prompt templates {path}: {exc}") from None
    merged = {name: dict(fields) for name, fields in base.items()}
    for name, fields in _read(text, str(path)).items():
        if name not in base:
            raise ConfigError(f"prompt templates {path}: unknown template {name!r}; known: {', '.join(base)}")
        for key, value in fields.items():
            if key not in TEMPLATE_KEYS:
                raise ConfigError(f"prompt templates {path}: {name}.{key} is not one of {', '.join(TEMPLATE_KEYS)}")
            if not isinstance(value, str):
                raise ConfigError(f"prompt templates {path}: {name}.{key} must be a string")
            for _, field, _, _ in string.Formatter().parse(value):
                if field is not None and field not in FIELDS:
                    raise ConfigError(
                        f"prompt templates {path}: {name}.{key} uses {{{field}}}; fields: {', '.join(sorted(FIELDS))}"
                    )
            merged[name][key] = value
    return merged


def render(template: Mapping[str, str], form: str, lang: str, **fields: Any) -> str:
    """Fill ``template[form]`` (``raw``, ``structured`` or ``answer_line``) for an item in ``lang``.

    Field labels come from ``template["labels_language"]`` (``item`` = ``lang``); ``{reply_label}`` is the word
    "Answer" of ``lang`` itself (``Language.answer_label``: "Respuesta", "答え"), whatever the labels' language, for
    the last line the ``answer_line`` form asks for; ``{instruction}`` is itself formatted with
    ``{answer_language}``.

    Raises:
        ConfigError: the template has no such form.
    """
    if form not in template:
        raise ConfigError(f"prompt template has no {form!r} form")
    labels = get_language(lang if template.get("labels_language", "en") == "item" else template["labels_language"])
    answer_language = get_language(lang).name
    values = {
        "question_label": labels.field_label("question"),
        "answer_label": labels.field_label("answer"),
        "options_label": labels.field_label("options"),
        "answer_language": answer_language,
        "reply_label": get_language(lang).answer_label,
        "labels": "",
        "stem": "",
        "options": "",
        "question": "",
        "reference": "",
        "response": "",
        **fields,
    }
    values["instruction"] = template.get("instruction", "").format(answer_language=answer_language)
    return template[form].format(**values).strip()


_CIRCLED = frozenset(CIRCLED)


def shown_labels(item: Item) -> list[str] | None:
    """The labels the item's source printed, where they are numbers (``1``…, any script's digits), circled
    numbers (``①``…), Hangul syllables (``가``…), katakana (``ア``…) or lower-case letters (``a``…), each naming its own
    option (``"3"`` is the third); ``None``
    otherwise (capital letters, another script's letters: the prompt writes the item language's own)."""
    raw = [c.raw_label.strip().rstrip(".)") for c in item.choices]
    if not raw or any(normalise_label(x) != c.label for x, c in zip(raw, item.choices, strict=True)):
        return None
    if all(x in _CIRCLED for x in raw) or all(x.isdecimal() for x in raw) or scheme_of(raw) is not None:
        return raw  # numbers, circled numbers, Hangul syllables or katakana
    if all(x.isascii() and x.isalpha() and x.islower() for x in raw):
        return raw
    return None


def item_labels(item: Item) -> list[str]:
    """The item's option labels as its prompt shows them, in the order of its choices: the source's own where it
    numbered them (``1``…, ``①``…) or wrote them in lower case (``shown_labels``), else the item language's letters
    (``A``…; ``أ``… in Arabic). Scores keep the canonical letter whatever the prompt showed."""
    shown = shown_labels(item)
    if shown is not None:
        return shown
    letters = option_labels(item.lang, max(ord(c.label) - ord("A") + 1 for c in item.choices))
    return [letters[ord(c.label) - ord("A")] for c in item.choices]


def format_options(item: Item) -> str:
    """``A. text`` lines in the labels the item shows (``item_labels``: ``أ. …`` for Arabic, ``1. …`` for a
    numbered exam, ``① …`` for a circled one), for the structured and answer-line prompts."""
    labels = item_labels(item)
    return "\n".join(
        f"{x} {c.text}" if x in _CIRCLED else f"{x}. {c.text}" for x, c in zip(labels, item.choices, strict=True)
    )
