"""The ``xlingmed`` command line (``app``); each command group lives in its own module."""

# isort: off
# the order of these imports is the order of the commands in --help
from xlingmed.cli import run, merge, info, construct, annotate  # noqa: F401  (each registers its commands on app)

# isort: on
from xlingmed.cli.app import app


def main() -> None:
    app()


__all__ = ["app", "main"]
