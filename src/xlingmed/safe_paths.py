"""File names built from data stay inside their folder (issue 60).

A run folder someone shares names its tasks, metrics and items in its own files; an export or a report that
writes ``<task>.eval`` or ``<metric>.png`` from them must not follow a task named "../../x" or "/tmp/x" out of the
folder the user chose, nor turn an item id into a zip member "samples/../../x". Every such name goes through
``safe_name`` (one path component of plain characters) and ``child`` (joined, then checked to stay inside).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import regex

from xlingmed.errors import DataError

_UNSAFE = regex.compile(r"[^\p{L}\p{N}._+=-]+")
MAX_NAME = 120  # characters of a file name built from data; longer names keep a hash of the whole


def safe_name(name: str, *, max_len: int = MAX_NAME) -> str:
    """``name`` as one harmless path component: letters, digits and ``. _ + = -`` kept, every other run of
    characters (slashes, backslashes, controls, spaces, colons) made ``_``; no leading dot (so never ``.``, ``..``
    or a hidden file); a name over ``max_len`` characters, or one that had to change, keeps a short hash of the
    original so that two names stay two files. ``""`` becomes ``_``."""
    cleaned = _UNSAFE.sub("_", name).lstrip(".") or "_"
    if cleaned == name and len(name) <= max_len:
        return name
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    at = cleaned.rfind(".")
    stem, dot, ext = (cleaned[:at], ".", cleaned[at + 1 :]) if at > 0 and len(cleaned) - at <= 8 else (cleaned, "", "")
    stem = stem[: max(1, max_len - len(ext) - 10)]
    return f"{stem}~{digest}{dot}{ext}"


def child(folder: Path, name: str) -> Path:
    """``folder / safe_name(name)``, checked to resolve inside ``folder``.

    Raises:
        DataError: the path would leave ``folder`` (a symlink already there pointing out, say).
    """
    path = Path(folder) / safe_name(name)
    base = Path(folder).resolve()
    resolved = path.resolve()
    if resolved.parent != base:
        raise DataError(f"{name!r} would be written outside {folder} (to {resolved}); nothing was written")
    return path
