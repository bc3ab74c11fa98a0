"""Content digests of files, shared by every layer that records what it read (benchmarks, importers, annotate)."""

from __future__ import annotations

import hashlib
import os


def sha256_file(path: str | os.PathLike[str]) -> str:
    """The hex SHA-256 of a file's bytes, read in 1 MiB chunks so a large file never sits whole in memory."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()
