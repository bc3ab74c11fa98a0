"""Who may read what xlingmed writes: owner-only files for everything that holds prompts and replies.

The completion cache (and its ``-wal``/``-shm`` files), the spools and the hidden folder a run fills before it is
renamed into place hold every prompt and reply of a run: with a user's own clinical questions, health data. They
are created owner-only (files 0600, folders 0700), whatever the umask. A finished run folder follows the umask,
as any file a user writes would, unless the run asked for ``--private`` (then 0700/0600 too); a file written later
into an owner-only folder (a report) stays owner-only, and a report or export of a private run written elsewhere
is made owner-only too (``follow_private``).

SQLite gives a database's ``-wal``, ``-shm`` and ``-journal`` files the mode of the database file itself, so
creating the database file owner-only before SQLite opens it is enough (``private_file``).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

OWNER_FILE = 0o600
OWNER_DIR = 0o700


def umask() -> int:
    """The process's umask, read without changing it where Linux says it (``/proc/self/status``); elsewhere set
    and restored at once."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except OSError:
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def private_dir(path: Path) -> Path:
    """Create ``path`` (and missing parents) as an owner-only folder; an existing folder is left as it is (it may
    be shared on purpose). Returns ``path``."""
    path = Path(path)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            path.mkdir(mode=OWNER_DIR)
        except FileExistsError:
            return path
        os.chmod(path, OWNER_DIR)  # mkdir's mode is filtered by the umask; 0700 needs nothing more, but be exact
    return path


def make_dirs(folder: Path) -> None:
    """``mkdir -p folder``, each new folder owner-only where the folder it is made in is (a report written into
    a ``--private`` run folder stays private)."""
    folder = Path(folder)
    if folder.is_dir():
        return
    make_dirs(folder.parent)
    try:
        folder.mkdir()
    except FileExistsError:
        return
    if is_owner_only(folder.parent):
        os.chmod(folder, OWNER_DIR)


def follow_private(sources: Iterable[Path], out: Path) -> bool:
    """Make folder ``out`` owner-only (created so, or narrowed to 0700) when any of ``sources`` is owner-only: what
    is derived from a ``--private`` run (a report written elsewhere, an export) is private too. Files then written
    into it are owner-only (``file_mode_for``). Returns whether it did."""
    if not any(Path(s).exists() and is_owner_only(Path(s)) for s in sources):
        return False
    private_dir(out)
    if not is_owner_only(out):
        os.chmod(out, OWNER_DIR)
    return True


def private_file(path: Path) -> Path:
    """Create ``path`` empty and owner-only (0600) unless it exists; an existing file keeps its mode (``xlingmed
    cache info`` shows it). Returns ``path``."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, OWNER_FILE)
    except FileExistsError:
        return path
    os.close(fd)
    return path


def is_owner_only(path: Path) -> bool:
    """True when neither the group nor others have any access to ``path``."""
    return stat.S_IMODE(os.stat(path).st_mode) & 0o077 == 0


def file_mode_for(folder: Path) -> int:
    """The mode of a new file in ``folder``: 0600 in an owner-only folder, else what the umask gives."""
    try:
        if is_owner_only(folder):
            return OWNER_FILE
    except OSError:
        pass
    return 0o666 & ~umask()


def publish(folder: Path, private: bool) -> None:
    """Give a staged run folder (owner-only while it was filled) its final modes before it is renamed into place:
    owner-only when ``private``, else what the umask gives (folders 0777, files 0666, less the umask)."""
    if private:
        dir_mode, file_mode = OWNER_DIR, OWNER_FILE
    else:
        mask = umask()
        dir_mode, file_mode = 0o777 & ~mask, 0o666 & ~mask
    for root, dirs, files in os.walk(folder):
        for name in files:
            os.chmod(os.path.join(root, name), file_mode)
        for name in dirs:
            os.chmod(os.path.join(root, name), dir_mode)
    os.chmod(folder, dir_mode)


def describe_mode(path: Path) -> str:
    """``0600 (owner only)`` or ``0644 (readable by others)``: for ``xlingmed cache info``."""
    mode = stat.S_IMODE(os.stat(path).st_mode)
    if mode & 0o077 == 0:
        who = "owner only"
    elif mode & 0o007:
        who = "readable by others"
    else:
        who = "readable by the group"
    return f"{mode:04o} ({who})"
