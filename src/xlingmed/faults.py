"""Environment faults in one line: what broke, which file or folder, what was kept, what to do.

A run meets the machine in three places: the completion cache (SQLite), the spools beside the run folder, and the
staged run folder. What can go wrong there is not the user's input: a full disk (or a file size limit), a folder
that cannot be created or written, a read-only file system, a damaged cache. ``explain`` turns the ``OSError`` or
``sqlite3.Error`` into an ``EnvironmentFault`` whose message says it; the CLI prints it and exits 5
(``errors.EXIT_ENVIRONMENT``), with the traceback only under ``--debug``. Nothing is half-written either way: the
cache commits each completion on its own, and the run folder is staged and renamed into place (``output``).
"""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

from xlingmed.errors import EnvironmentFault

_NO_SPACE = {errno.ENOSPC, errno.EFBIG, errno.EDQUOT}
_NOT_ALLOWED = {errno.EACCES, errno.EPERM}
# SQLite's words for the same faults: a full disk, and the I/O error a file size limit gives
_SQLITE_NO_SPACE = ("database or disk is full", "disk i/o error")
_SQLITE_DAMAGED = ("file is not a database", "database disk image is malformed", "malformed database schema")


def is_no_space(exc: BaseException) -> bool:
    """A full disk, a quota or a file size limit, as an ``OSError`` or in SQLite's words."""
    if isinstance(exc, OSError):
        return exc.errno in _NO_SPACE
    return isinstance(exc, sqlite3.Error) and any(w in str(exc).lower() for w in _SQLITE_NO_SPACE)


def damaged_cache(path: Path, exc: BaseException) -> EnvironmentFault:
    """The cache file is not a readable SQLite database."""
    return EnvironmentFault(
        f"the completion cache {path} is damaged ({exc}); nothing was sent and the file is left as it is. Move it "
        "aside, or use another cache (--cache FILE or XLINGMED_CACHE); `xlingmed cache verify FILE` checks a cache"
    )


def cache_fault(path: Path, exc: BaseException, *, kept: str) -> EnvironmentFault:
    """An error of the cache file ``path``: damaged, full, read-only, or its folder not writable."""
    text = str(exc).lower()
    if any(w in text for w in _SQLITE_DAMAGED):
        return damaged_cache(path, exc)
    if is_no_space(exc):
        return EnvironmentFault(
            f"no space left while writing the completion cache {path} ({exc}): {kept}. Free space (or raise the "
            "file size limit) and run the same command: it resumes from the cache"
        )
    if "readonly" in text or "read-only" in text or (isinstance(exc, OSError) and exc.errno == errno.EROFS):
        return EnvironmentFault(f"the completion cache {path} cannot be written (read-only): {kept}. Use another "
                                "cache (--cache FILE or XLINGMED_CACHE)")  # fmt: skip
    if "unable to open" in text or isinstance(exc, OSError):
        return EnvironmentFault(
            f"cannot open or create the completion cache {path} ({exc}): nothing was sent. Check that its folder "
            "exists and can be written, or use another cache (--cache FILE or XLINGMED_CACHE)"
        )
    return EnvironmentFault(f"the completion cache {path} failed: {exc}: {kept}")


def explain(exc: BaseException, *, cache: Path, out: Path, kept: str) -> EnvironmentFault | None:
    """The ``EnvironmentFault`` of an ``OSError`` or ``sqlite3.Error`` a run met, or ``None`` for anything else.

    Args:
        cache: the run's cache file (named when the fault is there).
        out: the run folder (named when the fault is in it or beside it).
        kept: what survives, in words ("every completion received before it is in the cache …").
    """
    if isinstance(exc, sqlite3.Error):
        return cache_fault(cache, exc, kept=kept)
    if not isinstance(exc, OSError):
        return None
    where = Path(exc.filename) if exc.filename else out
    in_cache = where == cache or str(where).startswith(str(cache))
    if in_cache:
        return cache_fault(cache, exc, kept=kept)
    what = f"the run folder {out}" if _inside(where, out.parent) else str(where)
    if exc.errno in _NO_SPACE:
        return EnvironmentFault(
            f"no space left while writing {what} ({exc.strerror}: {where}): {kept}; no run folder was written (it "
            "appears whole or not at all). Free space (or raise the file size limit) and run the same command: it "
            "answers from the cache"
        )
    if exc.errno in _NOT_ALLOWED or exc.errno == errno.EROFS:
        return EnvironmentFault(
            f"cannot write {what}: {exc.strerror} ({where}): {kept}. Choose a folder you can write (--out DIR) or fix "
            "its permissions, and run the same command"
        )
    if exc.errno in (errno.ENOENT, errno.ENOTDIR, errno.EEXIST):
        return EnvironmentFault(
            f"cannot create {what}: {exc.strerror} ({where}): {kept}. Choose another --out (its parent must be a "
            "folder you can write)"
        )
    return EnvironmentFault(f"{what}: {exc.strerror or exc} ({where}): {kept}")


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except (ValueError, OSError):
        return False
    return True
