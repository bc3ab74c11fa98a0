"""Text as Unicode scalar values: what every file xlingmed writes (UTF-8) can hold."""

from __future__ import annotations

import re

_SURROGATE = re.compile("[\ud800-\udfff]")


def scalar_text(text: str) -> str:
    """``text`` as Unicode scalar values: a surrogate code point with no partner (a server's JSON may escape half
    an emoji, ``"\\ud83d"``; Python's ``json`` accepts it) becomes U+FFFD, as any UTF-8 decoder shows it, and a
    pair of them becomes the character they encode. Such a code point cannot be written as UTF-8: without this, the
    first file the run writes fails (issue 49). Any other text is returned as it is (one regex search)."""
    if not _SURROGATE.search(text):
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
