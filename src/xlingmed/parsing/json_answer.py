"""A reply that ends in a JSON object with an answer field: ``{"choice": "C", "rationale": "… option A …"}``.

Prompts that ask for JSON get it, often after a reasoning trace, sometimes twice ("Wait, let me reconsider" and a
second object). The reply's last object is its final commitment, when nothing but a closing fence follows it: its
answer field is read, and the options its rationale discusses are not. A ``null`` answer with an abstention code
(``{"choice": null, "abstain_code": "NO_VALID_OPTION"}``, NOTA-style prompts) is a reply that chose no option:
``refused``. Seen on real replies of DeepSeek-R1, GPT-5, Claude Opus 4.7, Gemini 2.5 Pro and Llama 4 (issue 59).

GAOKAO-Bench's prompts ask for an answer block keyed by the question's number, which models often print as a
Python dict (``{'11': ['B', 'D']}``, in a fence or under a markdown rule): such an object is read as a literal
(``ast.literal_eval``, which builds values and calls nothing; at most 2,000 characters), its one key's value being
the answer; an empty list chose no option. A value that is an option's value ("-1 + i", 2) names that option.
"""

from __future__ import annotations

import ast
import json
from typing import Any

import regex

from xlingmed.languages import LANGUAGES
from xlingmed.parsing.after_phrase import option_with_value
from xlingmed.parsing.literals import JSON_ANSWER_KEYS
from xlingmed.parsing.mentions import Reader
from xlingmed.parsing.text import FoldedText
from xlingmed.types import Parsed, declare_parse_methods

declare_parse_methods({"json_answer": "read"})

# the schemas' answer fields, and the word "answer" of every language ({"respuesta": "C"}, {"答え": "c"})
_KEYS = JSON_ANSWER_KEYS | {lang.answer_label.lower() for lang in LANGUAGES.values()}
# a schema's own answer field: "correct_answer_key", "finalAnswerChoice", "selected option"; never its explanation
_KEY_WORDS = frozenset({"answer", "choice", "option", "selection", "prediction", "letter"})
_NOT_KEY_WORDS = frozenset({
    "explanation", "rationale", "reason", "reasoning", "confidence", "text", "justification", "analysis", "why",
    "thoughts", "thinking", "notes", "score", "probability", "options", "choices", "content", "detail", "details",
})  # fmt: skip
_KEY_SPLIT = regex.compile(r"[_\-\s.]+|(?<=[a-z])(?=[A-Z])")


def _answer_key(key: str) -> bool:
    if key.strip().lower() in _KEYS:
        return True
    words = {w.lower() for w in _KEY_SPLIT.split(key.strip()) if w}
    return bool(words & _KEY_WORDS) and not words & _NOT_KEY_WORDS


_NULLS = frozenset({"", "null", "none", "n/a", "na", "nil", "-", "unknown", "abstain", "no answer"})
_TRIES = 16  # opening braces tried from the end: a hostile reply of 10⁵ braces stays linear
_DECOR = " \t\n*_()[].:：-–—\"'`"
_TRAILING = " \t\n*_-`"


def json_answer(reader: Reader, t: str) -> Parsed | None:
    """The answer field of the JSON object that closes ``t`` (module doc), or ``None`` where the reply does not
    close with such an object. ``ambiguous`` for a list of labels, ``invalid`` for a value that is no option."""
    end = len(t.rstrip(_TRAILING))  # "{…}\n```\n***": past a closing fence and markdown rules
    if end == 0 or t[end - 1] != "}":
        return None
    obj = _closing_object(t, end)
    if obj is None:
        return None
    key = next((k for k in obj if isinstance(k, str) and _answer_key(k)), None)
    if key is None and len(obj) == 1 and str(next(iter(obj))).strip().isdigit():
        key = next(iter(obj))  # GAOKAO-Bench's answer block: {"11": ["B", "D"]}, the question's number as its key
    if key is None:
        return None
    return _value(reader, obj[key])


def _closing_object(t: str, end: int) -> dict[str, Any] | None:
    decoder = json.JSONDecoder()
    pos = end
    for _ in range(_TRIES):
        pos = t.rfind("{", 0, pos)
        if pos < 0:
            return None
        try:
            obj, stop = decoder.raw_decode(t, pos)
        except (ValueError, RecursionError):
            obj, stop = _python_literal(t, pos, end), end
            if obj is None:
                continue
        if stop == end:
            return obj if isinstance(obj, dict) else None
    return None


def _python_literal(t: str, pos: int, end: int) -> Any:
    """``t[pos:end]`` read as a Python literal where it is a short one (``{'11': ['B']}``: a model that printed a
    dict), else ``None``. ``ast.literal_eval`` builds literals only, never calls; the length bound keeps a hostile
    reply's nesting and numbers small."""
    if end - pos > _LITERAL_MAX or "'" not in t[pos:end]:
        return None
    try:
        return ast.literal_eval(t[pos:end])
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
        return None


_LITERAL_MAX = 2000  # characters


def _value(reader: Reader, value: Any) -> Parsed:
    if value is None or (isinstance(value, str) and value.strip(_DECOR).lower() in _NULLS):
        return Parsed(None, "refused")  # the reply's own answer field says it chose none
    if isinstance(value, list):
        labels = {_label(reader, str(v)) for v in value}
        if len(labels) == 1 and None not in labels:
            return Parsed(labels.pop(), "json_answer")
        return Parsed(None, "ambiguous" if len(value) > 1 else "invalid")
    if isinstance(value, bool) or not isinstance(value, str | int):
        return Parsed(None, "invalid")
    label = _label(reader, str(value))
    return Parsed(label, "json_answer") if label is not None else Parsed(None, "invalid")


def _label(reader: Reader, value: str) -> str | None:
    """The option ``value`` names: one label with nothing but decoration or its option's own text after it
    ("C", "(b)", "C. Infliximab", "Option 3"), or an option's whole text ("Infliximab")."""
    value = value.strip()[:512]
    valued = option_with_value(reader, value)  # "-1 + i" for option "$-1 + i$": a value, its signs kept
    if valued is not None and not reader.numbered:
        return valued  # {'7': [2]} with lettered options: the value 2, option "$2$", not the second option
    sub = Reader(value, reader.valid, reader.options, reader.numbered, reader.letters, reader.lower)
    at = sub.label_at(0, strict_case=False, number=True)
    if at is not None:
        rest = FoldedText(value[at.end :]).text.strip()
        after = len(value) - len(value[at.end :].lstrip(_DECOR))
        if not rest or rest == sub.option_texts.get(at.label) or sub.words_of_option_follow(at.label, after, 4):
            return at.label  # "4) La presión transpulmonar…": its number, then its own words
    if valued is not None:
        return valued  # numbered options: "2" was the second option's number above, else a value
    folded = FoldedText(value).text.strip()
    found = [label for label, option in sub.option_texts.items() if option and option == folded]
    return found[0] if len(found) == 1 else None
