"""The extractor model: a second model says which option a reply commits to, where the rules cannot decide.

Several published benchmarks read every reply with an LLM. An extractor reads almost every committed reply right,
but it also gives a letter to about half of the replies that commit to none (issue 35): that is a guess. So here
the rules (``parsing.choice``) read first, and only the replies they leave ``ambiguous`` or ``invalid`` go to the
extractor (``--extractor provider/model``); ``--extractor-mode all`` sends every reply, to measure how far rules
and extractor agree (``agreement``), while the rules' reading still counts where they read one.

The prompt is fixed and kept as data (``prompts/extractor.yaml``); the extractor's reply is read strictly — an
``Answer:`` line with one option label or ``none``, and for a label a ``Quote:`` line with the reply's own sentence
where it commits — and anything else is ``extractor_unparsed``: never a guess from its explanation. The quote is
checked (issue 46): it must occur in the reply (spaces, markdown and quotation marks aside) and name that option,
by its label or its text; otherwise the label is ``extractor_unverified`` and unread. An extractor that gives a
letter to a reply committing to none has nothing to quote, so the check stops its guess.

Parse methods (``parsing.methods``): ``extractor`` (a label with a verified quote; fallback kind),
``extractor_none`` (the extractor says the reply commits to no option; fallback kind), ``extractor_unparsed`` and
``extractor_unverified`` (unread).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources

import yaml

from xlingmed.languages import normalise_label
from xlingmed.parsing.choice import extract_choice
from xlingmed.types import Message, Parsed, declare_parse_methods

# The parse methods this module returns, and their kinds (parsing.methods): declared here, where they are made.
declare_parse_methods({"extractor": "fallback", "extractor_none": "fallback", "extractor_unparsed": "unread",
                       "extractor_unverified": "unread"})

# the rule methods whose replies go to the extractor
SENT_FOR: tuple[str, ...] = ("ambiguous", "invalid", "guess_withheld")
MODES: tuple[str, ...] = ("fallback", "all")
METHODS: tuple[str, ...] = ("extractor", "extractor_none", "extractor_unparsed", "extractor_unverified")
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


def read_extractor_reply(
    text: str,
    valid: Sequence[str],
    *,
    reply: str,
    options: Mapping[str, str] | None = None,
    labels: Sequence[str] | None = None,
) -> Parsed:
    """The extractor's reply read strictly, and its quote checked against the reply it read.

    Args:
        text: the extractor's reply: ``Answer: <label>`` and ``Quote: <sentence>`` lines, or ``Answer: none``
            (a label in any script the labels are written in, ``normalise_label``, wrapped at most in markdown,
            quotes, brackets or a full stop).
        valid: canonical labels of the item's options (``["A", "B", "C", "D"]``).
        reply: the reply of the model under test that the extractor read.
        options: canonical label → option text (a quote may name the option by its text).
        labels: the labels the prompt showed, in the order of ``valid`` (``["1", …]``, ``["①", …]``).

    Returns:
        ``Parsed(label, "extractor")`` where the quote occurs in ``reply`` and names ``label``;
        ``Parsed(None, "extractor_unverified")`` for a label whose quote is missing, is not in the reply or names
        another option or none; ``Parsed(None, "extractor_none")``; ``Parsed(None, "extractor_unparsed")`` (an
        explanation, two labels, a number, an empty reply).
    """
    answer, quote = _fields(text or "")
    core = _label_core(answer)
    if core.casefold() == NONE_WORD:
        return Parsed(None, "extractor_none")
    label = _label(core, valid, labels)
    if label is None:
        return Parsed(None, "extractor_unparsed")
    if quote is None or not _occurs(quote, reply) or not _names(quote, label, valid, options or {}, labels):
        return Parsed(None, "extractor_unverified")
    return Parsed(label, "extractor")


_ANSWER_LINE = re.compile(r"^[\s*_#]*answer[\s*_]*[:：]\s*(.*?)\s*$", re.I | re.M)
_QUOTE_LINE = re.compile(r"^[\s*_#]*quote[\s*_]*[:：]\s*(.*)", re.I | re.M | re.S)
_OPENING = re.compile(r"^[\s*_`\"'“”‘’«»(\[]+")
_QUOTES = re.compile(r"[\s*_`\"'“”‘’«»„「」『』]+")


def _fields(text: str) -> tuple[str, str | None]:
    """(the answer, the quote or ``None``): the ``Answer:`` and ``Quote:`` lines, or the whole text as the answer
    where it has no ``Answer:`` line (an extractor that wrote only a label or only ``none``)."""
    m = _ANSWER_LINE.search(text)
    if m is None:
        return text, None
    q = _QUOTE_LINE.search(text, m.end())
    return m.group(1), (q.group(1).strip() or None) if q else None


def _label_core(answer: str) -> str:
    m = _WRAP.match(answer)
    return m.group(1).strip() if m else ""


def _label(core: str, valid: Sequence[str], labels: Sequence[str] | None) -> str | None:
    """The canonical label ``core`` names: one of the labels the prompt showed (``3``, ``③`` where the options were
    numbered), or one letter in any script; a bare number names nothing on a lettered exam."""
    if labels and core in labels:
        return valid[list(labels).index(core)]
    if len(core) == 1 and not core.isdigit():
        label = normalise_label(core)
        return label if label is not None and label in valid else None
    return None


def _flat(text: str) -> str:
    """Spaces, markdown and quotation marks aside, case folded: a quote copied from a reply matches it."""
    return _QUOTES.sub(" ", unicodedata.normalize("NFKC", text)).casefold().strip()


def _occurs(quote: str, reply: str) -> bool:
    flat = _flat(quote).strip(" .。…")
    return len(flat) >= 1 and flat in _flat(reply)


def _names(
    quote: str, label: str, valid: Sequence[str], options: Mapping[str, str], labels: Sequence[str] | None
) -> bool:
    """The quote names ``label``: the rules (``parsing.choice``) read it as that option (its label, its text, or
    both); or, where they read no option in it, it opens with that option's label as the prompt showed it ("A. …",
    "3) …", "③ …") or holds that option's whole text and no other option's."""
    read = extract_choice(quote, valid, options=options, labels=labels).value
    if read is not None:
        return bool(read == label)
    shown = labels[list(valid).index(label)] if labels else label
    head = _OPENING.sub("", quote)
    if head.startswith(shown) and not head[len(shown) : len(shown) + 1].isalnum():
        return True
    flat = _flat(quote)
    holds = [k for k, v in options.items() if v.strip() and _flat(v) in flat]
    return holds == [label]
