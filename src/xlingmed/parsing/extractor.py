"""The extractor model: a second model says which option a reply commits to, where the rules cannot decide.

Several published benchmarks read every reply with an LLM. An extractor reads almost every committed reply right,
but it also gives a letter to about half of the replies that commit to none (issue 35): that is a guess. So here
the rules (``parsing.choice``) read first, and only the replies they leave ``ambiguous`` or ``invalid`` go to the
extractor (``--extractor provider/model``); ``--extractor-mode all`` sends every reply, to measure how far rules
and extractor agree (``agreement``), while the rules' reading still counts where they read one.

The prompt is fixed and kept as data (``prompts/extractor.yaml``); the extractor's reply is read strictly — one
option label, or ``none`` — and anything else is ``extractor_unparsed``: never a guess from its explanation.

Parse methods (``parsing.methods``): ``extractor`` (a label; fallback kind), ``extractor_none`` (the extractor
says the reply commits to no option; fallback kind), ``extractor_unparsed`` (unread).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any

import yaml

from xlingmed.languages import normalise_label
from xlingmed.types import Message, Parsed, declare_parse_methods

# The parse methods this module returns, and their kinds (parsing.methods): declared here, where they are made.
declare_parse_methods({"extractor": "fallback", "extractor_none": "fallback", "extractor_unparsed": "unread"})

SENT_FOR: tuple[str, ...] = ("ambiguous", "invalid")  # the rule methods whose replies go to the extractor
MODES: tuple[str, ...] = ("fallback", "all")
METHODS: tuple[str, ...] = ("extractor", "extractor_none", "extractor_unparsed")
NONE_WORD = "none"

# what may wrap the label without making the reply anything else: spaces, markdown, quotes, brackets, a full stop
_WRAP = re.compile(r"^[\s*_`\"'“”‘’«»(\[（【]*(.*?)[\s*_`\"'“”‘’«»)\]）】.。:：]*$", re.DOTALL)


@cache
def prompt_template() -> dict[str, str]:
    """The extractor's prompt, ``{"system": …, "user": …}`` (``prompts/extractor.yaml``)."""
    text = resources.files("xlingmed.prompts").joinpath("extractor.yaml").read_text("utf-8")
    data: dict[str, dict[str, str]] = yaml.safe_load(text)
    return data["extractor"]


def extractor_messages(question: str, options: Sequence[tuple[str, str]], reply: str) -> tuple[Message, ...]:
    """The extractor's request for one reply.

    Args:
        question: the question's stem (or its whole cell, options included, where the options were not parsed).
        options: ``(label, text)`` per option, in the labels the model under test saw (``أ``, ``ب``… in Arabic).
        reply: the reply of the model under test, as it came.

    Returns:
        A system and a user message (``prompts/extractor.yaml``, filled).
    """
    tpl = prompt_template()
    user = tpl["user"].format(
        question=question.strip(),
        options="\n".join(f"{label}. {text}" for label, text in options),
        labels=", ".join(label for label, _ in options),
        reply=reply.strip(),
    )
    return (Message("system", tpl["system"].strip()), Message("user", user))


def read_extractor_reply(text: str, valid: Sequence[str]) -> Parsed:
    """The extractor's reply read strictly: a label of ``valid`` (in any script the labels are written in,
    ``normalise_label``) or ``none``, wrapped at most in markdown, quotes, brackets or a full stop.

    Returns:
        ``Parsed(label, "extractor")``, ``Parsed(None, "extractor_none")`` or ``Parsed(None,
        "extractor_unparsed")`` (an explanation, two labels, a number, an empty reply).
    """
    m = _WRAP.match(text or "")
    core = m.group(1).strip() if m else ""
    if core.casefold() == NONE_WORD:
        return Parsed(None, "extractor_none")
    if len(core) == 1 and not core.isdigit():
        label = normalise_label(core)
        if label is not None and label in valid:
            return Parsed(label, "extractor")
    return Parsed(None, "extractor_unparsed")


def agreement(pairs: Sequence[tuple[str | None, str | None]]) -> dict[str, Any]:
    """How far the rules and the extractor agree on the same replies.

    Args:
        pairs: ``(rules' label or None, extractor's label or None)`` per reply that both read (``None`` = commits
            to no option, on either side); replies the extractor could not read are left out by the caller.

    Returns:
        ``{"n", "alike": share with the same reading, "kappa": Cohen's κ (None for fewer than 2 replies or a
        single category on both sides)}``; κ from ``analysis.agreement.cohen_kappa`` with "none" a category.
    """
    n = len(pairs)
    if n == 0:
        return {"n": 0, "alike": None, "kappa": None}
    a = [x or NONE_WORD for x, _ in pairs]
    b = [y or NONE_WORD for _, y in pairs]
    alike = sum(x == y for x, y in zip(a, b, strict=True)) / n
    from xlingmed.analysis.agreement import cohen_kappa  # scikit-learn: only when agreement is asked for

    return {"n": n, "alike": alike, "kappa": cohen_kappa(a, b) if n >= 2 else None}


def by_language(records: Sequence[dict[str, Any]], languages: Sequence[str], mode: str) -> list[dict[str, Any]]:
    """Per language, what the extractor was sent and what it said, from the multiple-choice rows; with mode
    ``all``, also ``agreement`` of rules and extractor over the replies the extractor read (``extractor`` or
    ``extractor_none``): the rules' reading is the row's ``prediction`` where its ``parse_method`` is a rule's,
    ``None`` where the rules left the reply to the extractor.

    Returns:
        One row per language: ``lang``, ``sent``, ``extractor`` (a label), ``extractor_none``,
        ``extractor_unparsed`` (neither a label nor "none": left out of the agreement); mode ``all`` adds ``n``,
        ``alike`` and ``kappa``.
    """

    def text(v: Any) -> str | None:  # a cell live or read back from a CSV (NaN for empty)
        return v if isinstance(v, str) and v else None

    out = []
    for lang in languages:
        rows = [r for r in records if r.get("lang") == lang and text(r.get("extractor_method"))]
        row: dict[str, Any] = {"lang": lang, "sent": len(rows)}
        row.update({m: sum(r["extractor_method"] == m for r in rows) for m in METHODS})
        if mode == "all":
            pairs = [
                (None if r.get("parse_method") in METHODS else text(r.get("prediction")),
                 None if r.get("extractor_prediction") == NONE_WORD else text(r.get("extractor_prediction")))
                for r in rows
                if r["extractor_method"] in ("extractor", "extractor_none")
            ]  # fmt: skip
            row.update(agreement(pairs))
        out.append(row)
    return out
