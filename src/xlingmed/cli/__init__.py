"""The ``xlingmed`` command line (``app``); each command group lives in its own module."""

# isort: off
# the order of these imports is the order of the commands in --help
from xlingmed.cli import run, merge, porting, info, data, cache, construct, annotate  # noqa: F401  (each registers its commands on app)

# isort: on
from xlingmed.cli.app import app


def main() -> None:
    """The console script: ``app``, with an OS or SQLite error no command turned into its own message (a report or
    an annotation folder on a full disk…) said in one line, exit 5; ``--debug`` shows the traceback."""
    import os
    import sqlite3
    import sys

    from xlingmed.errors import EXIT_ENVIRONMENT

    try:
        app()
    except (OSError, sqlite3.Error) as exc:
        if os.environ.get("XLINGMED_DEBUG"):
            raise
        where = f" ({exc.filename})" if isinstance(exc, OSError) and exc.filename else ""
        what = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        print(f"error: {what}{where}; nothing is half-written (files appear whole or not at all)", file=sys.stderr)
        sys.exit(EXIT_ENVIRONMENT)


__all__ = ["app", "main"]
