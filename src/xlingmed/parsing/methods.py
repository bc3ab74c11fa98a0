"""Every parse visible: each parse method sorted into a kind, and counted per language.

Each parser declares its own methods and their kinds where it returns them (``types.declare_parse_methods``), so a
new parser or task adds its methods without editing this module.

A gap between languages can come from the parser alone: a model that answers Arabic items in Arabic phrasing
and English items with a bare letter is "worse in Arabic" to a parser that reads only letters. So every run
counts, per task and language, how each reply was read, and warns where more than ``WARN_SHARE`` of the
replies were unread or read by a fallback rule.

Kinds:
    ``read``: a rule that reads what the reply says it chose (a marker, an answer phrase, a standalone label,
        the option's own text, the paper's judge tail, a yes/no word, a complete rubric).
    ``fallback``: a rule that infers more than the reply states (the first character, the first token, a fuzzy
        option match, the last option string anywhere in a judge's reasoning, a partly read rubric).
    ``unread``: nothing usable (``invalid``, ``ambiguous``, ``unparsed``, an empty reply, "unknown").
    ``refused``: the server or the model refused.
    ``error``: the request failed; not the parser's doing, not counted in the shares.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from xlingmed.types import PARSE_KINDS, declared_parse_methods, parse_kind

WARN_SHARE = 0.05
KIND_ORDER: tuple[str, ...] = PARSE_KINDS


def kind_of(method: str | None) -> str:
    """The kind of a parse method, as the parser that returns it declared it (``types.declare_parse_methods``);
    an undeclared method counts as ``unread``, never as read."""
    return parse_kind(method)


def declared() -> dict[str, str]:
    """Every parse method the loaded parsers and tasks declare → its kind (``xlingmed list`` and the tests)."""
    return dict(declared_parse_methods())


def reply_methods(units: Iterable[Any]) -> list[dict[str, Any]]:
    """One row ``{"lang", "parse_method"}`` per reply, from a task's Scores (``types.Score``): the Scores of one
    (item, language, temperature, condition, unit) share a reply, and its method is the first one they carry
    (metrics computed on the answer text carry none). Rows come out in the order of their replies' first Score,
    one per distinct (language, method) pair repeated as often as it was read: a million replies are counted
    from three small arrays (a 64-bit hash of each reply's key, its language and method as codes), never a
    million dicts. (Two replies whose keys hashed alike would be counted once: at a million replies, a chance
    of about 3 in 10⁸.) The rows are shared between replies: read them, never change them."""
    import numpy as np

    hashes: array[int] = array("q")
    codes: array[int] = array("l")
    pairs: dict[tuple[str, str], int] = {}
    for sc in units:
        if sc.parse_method is not None:
            hashes.append(hash((sc.item_id, sc.lang, sc.temperature, sc.condition, sc.unit)))
            codes.append(pairs.setdefault((sc.lang, sc.parse_method), len(pairs)))
    if not hashes:
        return []
    _, first = np.unique(np.frombuffer(hashes, dtype=np.int64), return_index=True)
    rows = [{"lang": lang, "parse_method": method} for lang, method in pairs]  # one per pair, shared: read-only
    return [rows[c] for c in np.frombuffer(codes, dtype=np.int_)[np.sort(first)]]


def parse_counts(
    rows: Iterable[Mapping[str, Any]], languages: Sequence[str], *, method_key: str = "parse_method"
) -> dict[str, Any]:
    """Counts per language × parse method, per language × kind, and the warnings.

    Args:
        rows: one row per parsed reply, with ``lang`` and ``method_key``.
        languages: the run's languages, in order.

    Returns:
        ``{"methods": {lang: {method: n}}, "kinds": {lang: {kind: n}}, "n": {lang: replies, errors excluded},
        "not_read_share": {lang: (fallback + unread) / n or None}, "warnings": [text, …], "parse_limited":
        [lang, …]}``; a warning names the language, the share and the methods behind it whenever the share is
        above ``WARN_SHARE`` (5 %), and those languages are ``parse_limited``: their verdicts are computed under
        both extremes of what the unread replies said (``analysis.parse_limits``).
    """
    methods: dict[str, dict[str, int]] = {lang: {} for lang in languages}
    for r in rows:
        lang = r.get("lang")
        if lang not in methods:
            continue
        # no method: the request failed, or there was nothing to parse (an empty answer is never judged)
        # (a CSV read back gives NaN for an empty cell: only a non-empty string is a method or an error)
        m = r.get(method_key)
        if not isinstance(m, str) or not m:
            err = r.get("error")
            m = "error" if isinstance(err, str) and err else "empty_answer"
        methods[lang][m] = methods[lang].get(m, 0) + 1
    kinds: dict[str, dict[str, int]] = {}
    n: dict[str, int] = {}
    share: dict[str, float | None] = {}
    warnings: list[str] = []
    for lang in languages:
        counts = {k: 0 for k in KIND_ORDER}
        for m, c in methods[lang].items():
            counts[kind_of(m)] += c
        kinds[lang] = counts
        n[lang] = sum(c for k, c in counts.items() if k != "error")
        share[lang] = (counts["fallback"] + counts["unread"]) / n[lang] if n[lang] else None
        s = share[lang]
        if s is not None and s > WARN_SHARE:
            behind = ", ".join(
                f"{m} {c}"
                for m, c in sorted(methods[lang].items(), key=lambda mc: -mc[1])
                if kind_of(m) in ("fallback", "unread")
            )
            warnings.append(
                f"{lang}: {100 * s:.1f}% of {n[lang]} replies were not read by a direct rule ({behind}); "
                "that alone can make a gap between languages"
            )
    limited = [lang for lang in languages if (share[lang] or 0.0) > WARN_SHARE]
    return {"methods": methods, "kinds": kinds, "n": n, "not_read_share": share, "warnings": warnings,
            "parse_limited": limited}  # fmt: skip
