"""A judge's JSON object, as judges really write it: bare, inside a markdown fence, or with words around it.

simple-evals' HealthBench grader strips one markdown fence and retries until ``json.loads`` succeeds; here the
reply is read once, and how it was read is named: ``json`` (the whole reply is the object), ``fenced_json`` (the
object inside a fence), ``embedded_json`` (the one object in a reply with text around it; two objects are not
read), ``unparsed`` otherwise.
"""

from __future__ import annotations

import json
from typing import Any

import regex

from xlingmed.types import declare_parse_methods

# The parse methods this module returns, and their kinds (parsing.methods): declared here, where they are made.
declare_parse_methods({"json": "read", "fenced_json": "read", "embedded_json": "read"})

_FENCE = regex.compile(r"^```(?:json)?\s*|\s*```$")
_OBJECT = regex.compile(r"\{(?:[^{}]|(?R))*\}")


def json_object(text: str) -> tuple[dict[str, Any] | None, str]:
    """The JSON object a reply holds and how it was found (module doc); ``(None, "unparsed")`` without one."""
    stripped = text.strip()
    candidates = [(stripped, "json"), (_FENCE.sub("", stripped), "fenced_json")]
    objects = _OBJECT.findall(stripped)
    if len(objects) == 1:
        candidates.append((objects[0], "embedded_json"))
    for candidate, method in candidates:
        try:
            obj = json.loads(candidate)
        except json.JSONDecodeError:
            continue
        return (obj, method) if isinstance(obj, dict) else (None, "unparsed")
    return None, "unparsed"
